//! The scanner: chunks, segments and case parts of a text, emitted through a [`TokenSink`]
//! with masks (signatures) and stems (prose) applied.

use super::mask::{chunk_mask, part_mask};
use super::stem::{STEMS, StemCache};
use super::{Analyzer, MAX_CHUNK_BYTES, MAX_PART_CHARS, MAX_QUOTED_CHARS, TokenSink};
use crate::script::{fold_width, for_each_bigram, is_cjk};
use std::cell::Cell;

/// Connector characters. All are ASCII, so scanning and splitting at connector bytes never
/// cuts a UTF-8 sequence.
const fn is_connector_byte(b: u8) -> bool {
    matches!(
        b,
        b'.' | b'_' | b'-' | b':' | b'/' | b'\\' | b'$' | b'@' | b'#' | b'+'
    )
}

/// Runs analyzer `a` over `text`, feeding `sink`. The per-thread stem cache is taken for the
/// call and put back afterwards (a `Cell`, so no borrow can fail).
pub(super) fn run<S: TokenSink>(text: &str, a: Analyzer, sink: &mut S) {
    let stems = if a == Analyzer::Prose {
        STEMS.try_with(Cell::take).unwrap_or_default()
    } else {
        StemCache::default()
    };
    let mut cx = Analysis {
        text,
        a,
        pos: 0,
        sink,
        lower: String::new(),
        parts: Vec::new(),
        extras: Vec::new(),
        stems,
    };
    cx.scan();
    if a == Analyzer::Prose {
        let stems = std::mem::take(&mut cx.stems);
        // Fails only while the thread is being torn down; the cache is then simply dropped.
        let _ = STEMS.try_with(|c| c.set(stems));
    }
}

/// One analysis run: the text, the position counter and scratch buffers reused across chunks.
struct Analysis<'t, 's, S> {
    text: &'t str,
    a: Analyzer,
    pos: usize,
    sink: &'s mut S,
    /// Lowercased word being emitted.
    lower: String,
    /// Case parts of the current segment, relative to it.
    parts: Vec<(usize, usize)>,
    /// Multi-part segments of the current chunk (relative range, position), emitted after its parts.
    extras: Vec<(usize, usize, usize)>,
    stems: StemCache,
}

/// ASCII alphanumerics and connectors: the ASCII chunk characters (beyond ASCII, chunks hold
/// the alphanumerics).
fn is_ascii_chunk_byte(b: u8) -> bool {
    CHUNK_BYTES[usize::from(b)]
}

/// [`is_ascii_chunk_byte`] as a table: the scan tests it on every byte of the text.
static CHUNK_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0u8;
    while b < 128 {
        t[b as usize] = b.is_ascii_alphanumeric() || is_connector_byte(b);
        b += 1;
    }
    t
};

impl<S: TokenSink> Analysis<'_, '_, S> {
    fn scan(&mut self) {
        let text = self.text;
        let bytes = text.as_bytes();
        let sig = self.a == Analyzer::Sig;
        let mut i = 0usize;
        while i < bytes.len() {
            let b = bytes[i];
            if sig {
                if matches!(b, b'\'' | b'"' | b'`')
                    && let Some(end) = quoted_value_end(text, i, char::from(b))
                {
                    self.push_mask("§str", i, end);
                    i = end;
                    continue;
                }
                if b == b'\\'
                    && let Some(end) = hex_escape_run_end(bytes, i)
                {
                    self.push_mask("§hex", i, end);
                    i = end;
                    continue;
                }
                // `16,603` and `2,816,808` are one value each, like `16603`: otherwise the same
                // message would have as many tokens as its number has digit groups.
                if b.is_ascii_digit()
                    && let Some(end) = grouped_number_end(text, i)
                {
                    self.push_mask("§num", i, end);
                    i = end;
                    continue;
                }
            }
            let (is_chunk, len) = if b.is_ascii() {
                (is_ascii_chunk_byte(b), 1)
            } else {
                match text[i..].chars().next() {
                    Some(c) => (c.is_alphanumeric(), c.len_utf8()),
                    None => break,
                }
            };
            if !is_chunk {
                i += len;
                continue;
            }
            let start = i;
            let mut end = i;
            // A chunk is of one script class: CJK runs and Latin/digit runs glued to them
            // (`mysql同步到hologres时`) are separate chunks.
            let cjk = !b.is_ascii() && text[i..].chars().next().is_some_and(is_cjk);
            while end < bytes.len() {
                let b = bytes[end];
                if b.is_ascii() {
                    // Stop before an escape such as `\x9F` so the escape run is masked on its own.
                    if cjk
                        || !is_ascii_chunk_byte(b)
                        || (sig && b == b'\\' && hex_escape_run_end(bytes, end).is_some())
                    {
                        break;
                    }
                    end += 1;
                } else {
                    match text[end..].chars().next() {
                        Some(c) if c.is_alphanumeric() && is_cjk(c) == cjk => end += c.len_utf8(),
                        _ => break,
                    }
                }
            }
            if end == start {
                // A lone backslash that starts an escape run in Sig mode: handled above next turn.
                end = start + len;
            }
            if cjk {
                self.cjk_run(start, end);
            } else {
                self.chunk(start, end);
            }
            i = end;
        }
    }

    fn push_mask(&mut self, text: &str, from: usize, to: usize) {
        self.sink.push(text, from, to, self.pos, true);
        self.pos += 1;
    }

    /// Emits `word` lowercased, and stemmed if `stem`.
    fn emit_word(
        &mut self,
        word: &str,
        stem: bool,
        from: usize,
        to: usize,
        pos: usize,
        part: bool,
    ) {
        let lower: &str = if word.is_ascii() {
            if word.bytes().any(|b| b.is_ascii_uppercase()) {
                self.lower.clear();
                self.lower.push_str(word);
                self.lower.make_ascii_lowercase();
                &self.lower
            } else {
                word
            }
        } else {
            // Full Unicode lowercasing (final sigma, `İ`, the Kelvin sign) after folding
            // full-width forms (`ＭｙＳＱＬ` → `mysql`): rare, allocates.
            self.lower = word
                .chars()
                .map(fold_width)
                .flat_map(char::to_lowercase)
                .collect();
            &self.lower
        };
        if stem {
            let sink = &mut *self.sink;
            self.stems
                .with_stem(lower, |t| sink.push(t, from, to, pos, part));
        } else {
            self.sink.push(lower, from, to, pos, part);
        }
    }

    /// Emits a run of CJK characters as overlapping bigrams at consecutive positions (see
    /// [`crate::script`]). Identifier fields hold none: CJK text is never an identifier.
    fn cjk_run(&mut self, start: usize, end: usize) {
        self.sink.settle(self.pos);
        if self.a == Analyzer::Ident {
            return;
        }
        let run = &self.text[start..end];
        let pos = self.pos;
        let sink = &mut *self.sink;
        let used = for_each_bigram(run, |a, b, k| {
            sink.push(&run[a..b], start + a, start + b, pos + k, true);
        });
        // The index also holds a run's last character alone, beside its last bigram: a
        // one-character query (`慢`) finds it there and everywhere else as the prefix of a
        // bigram (`慢了`). Queries are analysed without it, so their terms stay bigrams.
        if sink.indexing()
            && let Some((at, _)) = run.char_indices().next_back().filter(|&(at, _)| at > 0)
        {
            sink.push(&run[at..], start + at, end, pos + used - 1, false);
        }
        self.pos += used;
    }

    /// Emits the tokens of one chunk `text[start..end]`.
    fn chunk(&mut self, start: usize, end: usize) {
        self.sink.settle(self.pos);
        let text = self.text;
        let a = self.a;
        // Trim connectors at the edges: `end.` → `end`, `-v` → `v`, `Exception:` → `Exception`.
        let raw = text.as_bytes();
        let mut start = start;
        let mut end = end;
        while start < end && is_connector_byte(raw[start]) {
            start += 1;
        }
        while end > start && is_connector_byte(raw[end - 1]) {
            end -= 1;
        }
        if start == end {
            return;
        }
        let s = &text[start..end];
        // `isn't`, `it's`, `we'll`: the suffix alone would be the rarest word of many queries
        // (`t` in a signature field), and matches only other contractions.
        if is_contraction_suffix(text, start, s) {
            return;
        }
        if a == Analyzer::Sig
            && let Some(mask) = chunk_mask(s)
        {
            self.push_mask(mask, start, end);
            return;
        }
        let sb = s.as_bytes();
        // One pass for both; trimmed, so a connector inside means more than one segment.
        let (high, multi) = sb.iter().fold((0u8, false), |(high, multi), &b| {
            (high | b, multi || is_connector_byte(b))
        });
        let ascii = high.is_ascii();

        if a == Analyzer::Ident {
            let whole_ident = multi || self.ident_like_segment(s, ascii);
            if whole_ident && s.len() <= MAX_CHUNK_BYTES {
                self.emit_word(s, false, start, end, self.pos, true);
                self.pos += 1;
            }
            if multi {
                let mut k = 0;
                while let Some((a0, b0)) = next_segment(sb, k) {
                    k = b0;
                    let seg = &s[a0..b0];
                    let seg_ascii = ascii || seg.is_ascii();
                    if self.ident_like_segment(seg, seg_ascii)
                        && char_count(seg, seg_ascii) <= MAX_PART_CHARS
                    {
                        self.emit_word(seg, false, start + a0, start + b0, self.pos, true);
                        self.pos += 1;
                    }
                }
            }
            return;
        }

        let prose = a == Analyzer::Prose;
        let first_pos = self.pos;
        let mut whole_masked = false;
        let mut emitted_parts = 0usize;
        self.extras.clear();
        let mut k = 0;
        while let Some((a0, b0)) = next_segment(sb, k) {
            k = b0;
            let seg = &s[a0..b0];
            let seg_ascii = ascii || seg.is_ascii();
            case_parts_into(seg, seg_ascii, &mut self.parts);
            let seg_pos = self.pos;
            let mut seg_masked = false;
            for idx in 0..self.parts.len() {
                let (p0, p1) = self.parts[idx];
                let p = &seg[p0..p1];
                let from = start + a0 + p0;
                let to = start + a0 + p1;
                if a == Analyzer::Sig
                    && let Some(mask) = part_mask(p)
                {
                    self.push_mask(mask, from, to);
                    seg_masked = true;
                    emitted_parts += 1;
                    continue;
                }
                if char_count(p, seg_ascii) > MAX_PART_CHARS {
                    continue;
                }
                self.emit_word(p, prose, from, to, self.pos, true);
                self.pos += 1;
                emitted_parts += 1;
            }
            whole_masked |= seg_masked;
            if self.parts.len() > 1 && !seg_masked && seg.len() <= MAX_CHUNK_BYTES {
                self.extras.push((a0, b0, seg_pos));
            }
        }
        // Normalised like a lone word, so `ClickHouse` in a title meets a typed
        // `clickhouse` (which prose analysis stems).
        for idx in 0..self.extras.len() {
            let (a0, b0, seg_pos) = self.extras[idx];
            let seg = &s[a0..b0];
            self.emit_word(seg, prose, start + a0, start + b0, seg_pos, false);
        }
        // The whole chunk (a single segment was emitted above), unless it carries a masked value.
        if multi && !whole_masked && emitted_parts > 0 && s.len() <= MAX_CHUNK_BYTES {
            self.emit_word(s, false, start, end, first_pos, false);
        }
    }

    /// Whether a segment looks like an identifier or code on its own (not a plain word).
    fn ident_like_segment(&mut self, s: &str, ascii: bool) -> bool {
        let (letters, digits, upper) = if ascii {
            s.bytes().fold((0, 0, 0), |(l, d, u), b| {
                (
                    l + usize::from(b.is_ascii_alphabetic()),
                    d + usize::from(b.is_ascii_digit()),
                    u + usize::from(b.is_ascii_uppercase()),
                )
            })
        } else {
            s.chars().fold((0, 0, 0), |(l, d, u), c| {
                (
                    l + usize::from(c.is_alphabetic()),
                    d + usize::from(c.is_ascii_digit()),
                    u + usize::from(c.is_uppercase()),
                )
            })
        };
        if letters == 0 {
            return (3..=7).contains(&digits);
        }
        if digits > 0 {
            return true;
        }
        if upper == letters && letters >= 2 {
            return true;
        }
        // CamelCase / mixedCase, or an all-caps word of 2+ letters (codes, SQL keywords).
        case_parts_into(s, ascii, &mut self.parts);
        self.parts.len() > 1
    }
}

/// The next segment (maximal run of non-connectors) of a chunk at or after byte `from`.
fn next_segment(sb: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut a0 = from;
    while a0 < sb.len() && is_connector_byte(sb[a0]) {
        a0 += 1;
    }
    if a0 == sb.len() {
        return None;
    }
    let mut b0 = a0;
    while b0 < sb.len() && !is_connector_byte(sb[b0]) {
        b0 += 1;
    }
    Some((a0, b0))
}

/// Whether the chunk `s` at `start` is the suffix of an English contraction (`'t`, `'s`, `'d`,
/// `'m`, `'ll`, `'re`, `'ve` after a letter).
fn is_contraction_suffix(text: &str, start: usize, s: &str) -> bool {
    const SUFFIXES: [&str; 7] = ["t", "s", "d", "m", "ll", "re", "ve"];
    if !SUFFIXES.iter().any(|x| s.eq_ignore_ascii_case(x)) {
        return false;
    }
    let mut before = text.get(..start).unwrap_or("").chars().rev();
    matches!(before.next(), Some('\'' | '\u{2019}'))
        && before.next().is_some_and(|c| c.is_ascii_alphabetic())
}

fn char_count(s: &str, ascii: bool) -> usize {
    if ascii { s.len() } else { s.chars().count() }
}

/// If a quoted value (`'x'`, `"x"`, `` `x` ``) starts at `i`, returns the byte after its closing quote.
fn quoted_value_end(text: &str, i: usize, c: char) -> Option<usize> {
    if !matches!(c, '\'' | '"' | '`') {
        return None;
    }
    // An apostrophe inside a word (doesn't) is not a quote.
    if text[..i]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric)
    {
        return None;
    }
    let rest = &text[i + 1..];
    for (n, (off, ch)) in rest.char_indices().enumerate() {
        if n > MAX_QUOTED_CHARS || ch == '\n' {
            return None;
        }
        if ch == c {
            if off == 0 {
                return None;
            }
            let after = &rest[off + 1..];
            if after.chars().next().is_some_and(char::is_alphanumeric) {
                continue;
            }
            return Some(i + 1 + off + 1);
        }
    }
    None
}

/// The end of a number with thousands separators starting at `i` (`16,603`, `2,816,808.5`):
/// one to three digits, then groups of a comma and exactly three digits, then an optional
/// decimal part. None when it is part of a list or a longer value (`1,2,345`, `1,000,00`,
/// `1234,567`, `80,192.168.1.1`) or glued to a word (`10,000ms`; CJK text after it is a
/// chunk of its own, as everywhere): those keep the chunk rules.
fn grouped_number_end(text: &str, i: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    // Inside a list (`1,2,345` at `345`): the list's start was tried, and trying every item
    // again would make a long list quadratic.
    if i >= 2 && bytes[i - 1] == b',' && bytes[i - 2].is_ascii_digit() {
        return None;
    }
    let digits = |from: usize| {
        bytes.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let lead = digits(i);
    if !(1..=3).contains(&lead) {
        return None;
    }
    let mut j = i + lead;
    let mut groups = 0;
    while bytes.get(j) == Some(&b',') && digits(j + 1) == 3 {
        j += 4;
        groups += 1;
    }
    if groups == 0 {
        return None;
    }
    if bytes.get(j) == Some(&b'.') && digits(j + 1) > 0 {
        j += 1 + digits(j + 1);
    }
    // A list or a dotted value goes on (`1,000,00`, `1,234,5678`, `80,192.168.1.1`).
    if matches!(bytes.get(j), Some(b',' | b'.')) && digits(j + 1) > 0 {
        return None;
    }
    if text[j..]
        .chars()
        .next()
        .is_some_and(|c| (c.is_alphanumeric() && !is_cjk(c)) || c == '_')
    {
        return None;
    }
    Some(j)
}

/// If a run of `\xHH` escapes starts at `i`, returns its end.
fn hex_escape_run_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    while j + 4 <= bytes.len()
        && bytes[j] == b'\\'
        && (bytes[j + 1] == b'x' || bytes[j + 1] == b'X')
        && bytes[j + 2].is_ascii_hexdigit()
        && bytes[j + 3].is_ascii_hexdigit()
    {
        j += 4;
    }
    (j > i).then_some(j)
}

/// Splits a segment into parts at case changes: `HTTPServerError` → HTTP, Server, Error;
/// `S3Client` → S3, Client. Writes byte ranges relative to the segment into `parts`.
/// `ascii`: the segment is known to be ASCII (then bytes are compared, not chars).
fn case_parts_into(seg: &str, ascii: bool, parts: &mut Vec<(usize, usize)>) {
    parts.clear();
    let mut start = 0usize;
    if ascii {
        let b = seg.as_bytes();
        for k in 1..b.len() {
            let c = b[k];
            if !c.is_ascii_uppercase() {
                continue;
            }
            let prev = b[k - 1];
            let boundary = prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && b.get(k + 1).is_some_and(u8::is_ascii_lowercase));
            if boundary {
                parts.push((start, k));
                start = k;
            }
        }
    } else {
        let mut chars = seg.char_indices();
        let Some((_, mut prev)) = chars.next() else {
            return;
        };
        let mut cur = chars.next();
        while let Some((off, c)) = cur {
            let next = chars.next();
            let boundary = c.is_uppercase()
                && (prev.is_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_uppercase() && next.is_some_and(|(_, n)| n.is_lowercase())));
            if boundary {
                parts.push((start, off));
                start = off;
            }
            prev = c;
            cur = next;
        }
    }
    if start < seg.len() {
        parts.push((start, seg.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::grouped_number_end;

    #[test]
    fn a_grouped_number_is_tried_only_at_the_start_of_a_list() {
        // From the start of `1,2,345,678`: no group after `1`, so a list.
        let text = "1,2,345,678";
        assert_eq!(grouped_number_end(text, 0), None);
        // Inside the list an item is left to the chunk rules at once (`345,678` alone would
        // be a number), so no item reads the rest of the list again: a list of n items costs
        // n steps, not n².
        assert_eq!(grouped_number_end(text, 2), None);
        assert_eq!(grouped_number_end(text, 4), None);
        assert_eq!(grouped_number_end("345,678", 0), Some(7));
        assert_eq!(grouped_number_end("was 16,603 ms", 4), Some(10));
        assert_eq!(grouped_number_end("16,603", 0), Some(6));
    }
}
