//! Scripts written without spaces between words: Han, Kana and Hangul (CJK).
//!
//! Such text is indexed as overlapping character bigrams (as Lucene's CJKAnalyzer does): any
//! word of two or more characters inside running text is then a phrase of consecutive
//! bigrams, found without a dictionary (which would cost the browser module megabytes). A
//! lone CJK character between other scripts is kept as a unigram. Latin letters and digits
//! glued to CJK text (`mysql同步到hologres时`) form chunks of their own, and full-width ASCII
//! (`ＭｙＳＱＬ`) is folded to ASCII, so mixed text matches its English words.

/// Whether `c` belongs to a script written without spaces (Han, Hiragana, Katakana, Hangul,
/// and their extensions and compatibility forms).
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x11FF       // Hangul Jamo
        | 0x2E80..=0x2FDF     // CJK radicals, Kangxi radicals
        | 0x3005..=0x3007     // 々 〆 〇
        | 0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3130..=0x318F     // Hangul compatibility Jamo
        | 0x31F0..=0x31FF     // Katakana phonetic extensions
        | 0x3400..=0x4DBF     // CJK extension A
        | 0x4E00..=0x9FFF     // CJK unified ideographs
        | 0xA960..=0xA97F     // Hangul Jamo extended A
        | 0xAC00..=0xD7FF     // Hangul syllables, Jamo extended B
        | 0xF900..=0xFAFF     // CJK compatibility ideographs
        | 0xFF66..=0xFF9F     // half-width Katakana
        | 0xFFA0..=0xFFDC     // half-width Hangul
        | 0x20000..=0x3134F   // CJK extensions B–H
    )
}

/// Full-width ASCII forms (`Ａ`, `ｍ`, `１`) as ASCII; other characters unchanged.
pub(crate) fn fold_width(c: char) -> char {
    match u32::from(c) {
        // U+FF01..=U+FF5E mirror U+0021..=U+007E.
        w @ 0xFF01..=0xFF5E => char::from_u32(w - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// Calls `emit(from, to, index)` for the bigrams of a CJK run `run` (byte offsets relative to
/// it, index = the bigram's position offset), or once for the whole run when it is a single
/// character. Returns how many positions were used.
pub(crate) fn for_each_bigram(run: &str, mut emit: impl FnMut(usize, usize, usize)) -> usize {
    let mut starts = run.char_indices().map(|(i, _)| i).peekable();
    let Some(mut a) = starts.next() else {
        return 0;
    };
    let mut n = 0;
    loop {
        let Some(b) = starts.next() else {
            // One character only: the run is its own token.
            if n == 0 {
                emit(a, run.len(), 0);
                return 1;
            }
            return n;
        };
        let end = starts.peek().copied().unwrap_or(run.len());
        emit(a, end, n);
        n += 1;
        a = b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bigrams(s: &str) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        for_each_bigram(s, |a, b, i| out.push((s[a..b].to_string(), i)));
        out
    }

    #[test]
    fn bigrams_overlap_and_single_characters_stand_alone() {
        assert_eq!(
            bigrams("增量同步"),
            [("增量", 0), ("量同", 1), ("同步", 2)].map(|(s, i)| (s.to_string(), i))
        );
        assert_eq!(bigrams("时"), [("时".to_string(), 0)]);
        assert!(bigrams("").is_empty());
    }

    #[test]
    fn classifies_scripts_and_folds_full_width() {
        for c in ['增', 'の', 'カ', '한', '々', '𠀀'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'Z', '9', 'é', 'Ж', '，', '。', 'Ｍ'] {
            assert!(!is_cjk(c), "{c}");
        }
        let folded: String = "ＭｙＳＱＬ１２！".chars().map(fold_width).collect();
        assert_eq!(folded, "MySQL12!");
        assert_eq!(fold_width('增'), '增');
    }
}
