//! The texts a hit shows: the error of the entry the query matched, a snippet of the body
//! around the query's words, and the explanation of its score.

use super::Matches;
use crate::Snippet;
use crate::analysis::{Analyzer, analyze};
use crate::query::{BuiltQuery, ClauseKind, field_name};
use crate::schema::{F_IDS, F_SIG};
use std::collections::HashMap;

/// Characters of body text a snippet shows.
const SNIPPET_CHARS: usize = 220;

/// The entry error that shares the most informative terms with the query.
pub(super) fn best_error(errors: &[&str], built: &BuiltQuery) -> Option<String> {
    let mut best: Option<(f32, &str)> = None;
    for e in errors {
        let mut score = 0.0f32;
        let mut seen: Vec<String> = Vec::new();
        for (fi, a) in [(F_SIG, Analyzer::Sig), (F_IDS, Analyzer::Ident)] {
            for t in analyze(e, a) {
                if let Some(w) = built.field_terms[fi].get(&t.text)
                    && !seen.contains(&t.text)
                {
                    score += w.max(0.01);
                    seen.push(t.text);
                }
            }
        }
        if score > 0.0 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, e));
        }
    }
    best.map(|(_, e)| e.to_string())
}

/// A passage of `text` around the densest cluster of query terms, with char-offset highlights.
pub(super) fn snippet(text: &str, terms: &HashMap<String, f32>, analyzer: Analyzer) -> Snippet {
    let text = text.trim();
    if text.is_empty() {
        return Snippet::default();
    }
    let toks: Vec<_> = analyze(text, analyzer)
        .into_iter()
        .filter(|t| terms.contains_key(&t.text))
        .collect();
    // Window start: the matched token whose following 2 × SNIPPET_CHARS bytes hold the most
    // distinct terms (weighted); no match: the beginning of the text.
    let mut best = (0.0f32, 0usize);
    for (i, t) in toks.iter().enumerate() {
        let mut seen: Vec<&str> = Vec::new();
        let mut score = 0.0;
        for u in &toks[i..] {
            if u.to > t.from + SNIPPET_CHARS * 2 {
                break;
            }
            if !seen.contains(&u.text.as_str()) {
                seen.push(&u.text);
                score += terms.get(&u.text).copied().unwrap_or(0.0).max(0.1);
            }
        }
        if score > best.0 {
            best = (score, t.from);
        }
    }
    // Start a little before the first match, on a char boundary, preferably at a word start.
    let mut start = best.1.saturating_sub(40);
    while start > 0 && !text.is_char_boundary(start) {
        start -= 1;
    }
    // After the first whitespace, whatever its width (a no-break or ideographic space is
    // more than one byte).
    if start > 0
        && let Some((sp, c)) = text[start..best.1]
            .char_indices()
            .find(|(_, c)| c.is_whitespace())
    {
        start += sp + c.len_utf8();
    }
    let end = text[start..]
        .char_indices()
        .nth(SNIPPET_CHARS)
        .map_or(text.len(), |(off, _)| start + off);
    let window = &text[start..end];
    let prefix = if start > 0 { "…" } else { "" };
    let suffix = if end < text.len() { "…" } else { "" };
    let shown = format!("{prefix}{window}{suffix}");
    let shift = prefix.chars().count();
    // Byte ranges inside the window, merged, then converted to char offsets.
    let mut ranges: Vec<(usize, usize)> = toks
        .iter()
        .filter(|t| t.from >= start && t.to <= end)
        .map(|t| (t.from - start, t.to - start))
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.0 <= last.1 => last.1 = last.1.max(r.1),
            _ => merged.push(r),
        }
    }
    let char_at = |b: usize| window[..b].chars().count() + shift;
    let highlights = merged
        .into_iter()
        .map(|(a, b)| (char_at(a), char_at(b)))
        .collect();
    Snippet {
        text: shown,
        highlights,
    }
}

/// The `--explain` text of a hit: its score per field, then each matched clause.
pub(super) fn explain_text(built: &BuiltQuery, score: f32, m: &Matches) -> String {
    let mut lines: Vec<(f32, String)> = m
        .iter()
        .map(|&(ci, s)| {
            let c = &built.clauses[ci];
            let kind = match c.kind {
                ClauseKind::Term => "term",
                ClauseKind::Pair => "pair",
                ClauseKind::Quoted => "phrase",
                ClauseKind::Fuzzy => "fuzzy",
            };
            (
                s,
                format!(
                    "{:>7.3}  {:<5} {:<6} {}",
                    s,
                    field_name(c.field),
                    kind,
                    c.label
                ),
            )
        })
        .collect();
    lines.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut by_field: HashMap<&str, f32> = HashMap::new();
    for &(ci, s) in m {
        *by_field
            .entry(field_name(built.clauses[ci].field))
            .or_default() += s;
    }
    let mut fields: Vec<(&str, f32)> = by_field.into_iter().collect();
    fields.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let summary: Vec<String> = fields.iter().map(|(f, s)| format!("{f}={s:.2}")).collect();
    let mut out = format!("score {score:.3} = {}\n", summary.join(" + "));
    for (_, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A space wider than one byte before the passage start (a no-break space from
    /// `&nbsp;`, a Chinese full-width space) must not cut a character.
    #[test]
    fn a_snippet_starts_after_a_wide_space() {
        let terms: HashMap<String, f32> = [("kafka".to_string(), 1.0)].into();
        for space in ['\u{a0}', '\u{3000}', '\u{2003}'] {
            let body = format!("{}{space}kafka lag", "x".repeat(50));
            let s = snippet(&body, &terms, Analyzer::Prose);
            assert_eq!(s.text, "…kafka lag", "space {space:?}");
            assert_eq!(s.highlights, vec![(1, 6)]);
        }
    }
}
