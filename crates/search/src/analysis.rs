//! Code-aware text analysis, shared by the index writer, the reader and the query builder.
//!
//! Tantivy does not store tokenizers in the index, so every analyzer is plain Rust here and
//! [`register_tokenizers`] installs the same functions on both sides. The query builder calls
//! [`analyze`] directly, so query terms are produced by exactly the code that indexed the text.
//!
//! A *chunk* is a maximal run of alphanumerics and connector characters (`.`, `_`, `-`, `:`,
//! `/`, ...). A chunk splits into *segments* at connectors and segments split into *parts* at
//! case changes (`BatchUpdateException` → batch, update, exception). Parts get consecutive
//! positions (so phrases work across identifiers); the whole chunk and multi-part segments are
//! also emitted, at the position of their first part, so exact identifiers still match.

use tantivy::Index;
use tantivy::tokenizer::{TextAnalyzer, Token, TokenStream, Tokenizer, TokenizerManager};

/// Tokenizer names as registered in the index's tokenizer manager.
pub const TOKENIZER_PROSE: &str = "kb_prose";
/// Identifiers, code and plain words without stemming.
pub const TOKENIZER_CODE: &str = "kb_code";
/// Error signatures: like [`TOKENIZER_CODE`] with variable values masked.
pub const TOKENIZER_SIG: &str = "kb_sig";
/// Only identifier-like tokens (codes, dotted names, CamelCase, UPPER_SNAKE, numbers).
pub const TOKENIZER_IDENT: &str = "kb_ident";

/// Parts longer than this are blobs (base64, hashes), not words.
const MAX_PART_CHARS: usize = 40;
/// Whole chunks longer than this are dropped (their parts are still indexed).
const MAX_CHUNK_BYTES: usize = 160;
/// Quoted values longer than this are prose, not values, and are not masked.
const MAX_QUOTED_CHARS: usize = 80;

/// Which analysis chain to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Analyzer {
    /// Titles, bodies, tags: code-aware split, lowercase, English stemming of plain words.
    Prose,
    /// Code blocks: code-aware split, lowercase, no stemming.
    Code,
    /// Error signatures: like `Code`, but numbers, hex, IPs, UUIDs, paths and quoted values
    /// become placeholder tokens (`§num`, `§hex`, ...).
    Sig,
    /// Identifiers and codes only (each emitted whole, lowercased).
    Ident,
}

impl Analyzer {
    /// The registered tokenizer name.
    pub fn name(self) -> &'static str {
        match self {
            Analyzer::Prose => TOKENIZER_PROSE,
            Analyzer::Code => TOKENIZER_CODE,
            Analyzer::Sig => TOKENIZER_SIG,
            Analyzer::Ident => TOKENIZER_IDENT,
        }
    }
}

/// One analyzed token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tok {
    /// Normalised term text.
    pub text: String,
    /// Byte offsets into the analyzed text.
    pub from: usize,
    /// End byte offset (exclusive).
    pub to: usize,
    /// Token position (parts are consecutive; whole chunks share their first part's position).
    pub pos: usize,
    /// True for the atomic parts that form the position sequence (used for phrases).
    pub part: bool,
}

/// Registers every kbook tokenizer on `index`. Writer and reader must both call this.
pub fn register_tokenizers(index: &Index) {
    register_into(index.tokenizers());
}

/// Registers every kbook tokenizer on a tokenizer manager (for `IndexBuilder::tokenizers`).
pub fn register_into(manager: &TokenizerManager) {
    for a in [
        Analyzer::Prose,
        Analyzer::Code,
        Analyzer::Sig,
        Analyzer::Ident,
    ] {
        manager.register(a.name(), TextAnalyzer::from(KbTokenizer(a)));
    }
}

fn is_connector(c: char) -> bool {
    matches!(
        c,
        '.' | '_' | '-' | ':' | '/' | '\\' | '$' | '@' | '#' | '+'
    )
}

fn is_chunk_char(c: char) -> bool {
    c.is_alphanumeric() || is_connector(c)
}

/// Analyzes `text` with analyzer `a`.
pub fn analyze(text: &str, a: Analyzer) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    let bytes = text.as_bytes();
    let mut i = 0usize;
    while i < text.len() {
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        if a == Analyzer::Sig {
            if let Some(end) = quoted_value_end(text, i, c) {
                push_mask(&mut out, &mut pos, "§str", i, end);
                i = end;
                continue;
            }
            if let Some(end) = hex_escape_run_end(bytes, i) {
                push_mask(&mut out, &mut pos, "§hex", i, end);
                i = end;
                continue;
            }
        }
        if is_chunk_char(c) {
            let start = i;
            let mut end = i;
            for (off, ch) in text[i..].char_indices() {
                // Stop before an escape such as `\x9F` so the escape run is masked on its own.
                if !is_chunk_char(ch)
                    || (a == Analyzer::Sig
                        && ch == '\\'
                        && hex_escape_run_end(bytes, i + off).is_some())
                {
                    break;
                }
                end = i + off + ch.len_utf8();
            }
            if end == start {
                // A lone backslash that starts an escape run in Sig mode: handled above next turn.
                end = start + c.len_utf8();
            }
            chunk(text, start, end, a, &mut pos, &mut out);
            i = end;
        } else {
            i += c.len_utf8();
        }
    }
    out
}

fn push_mask(out: &mut Vec<Tok>, pos: &mut usize, text: &str, from: usize, to: usize) {
    out.push(Tok {
        text: text.to_string(),
        from,
        to,
        pos: *pos,
        part: true,
    });
    *pos += 1;
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
/// `S3Client` → S3, Client. Returns byte ranges relative to the segment.
fn case_parts(seg: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = seg.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0usize;
    for k in 1..chars.len() {
        let (off, c) = chars[k];
        let prev = chars[k - 1].1;
        let next = chars.get(k + 1).map(|x| x.1);
        let boundary = c.is_uppercase()
            && (prev.is_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_uppercase() && next.is_some_and(char::is_lowercase)));
        if boundary {
            parts.push((start, off));
            start = off;
        }
    }
    if start < seg.len() {
        parts.push((start, seg.len()));
    }
    parts
}

fn is_hexlike(s: &str) -> bool {
    s.len() >= 8
        && s.bytes().all(|b| b.is_ascii_hexdigit())
        && s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes().any(|b| b.is_ascii_alphabetic())
}

fn is_number(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && s.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups.iter().map(|g| g.len()).eq([8usize, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_ip(s: &str) -> bool {
    let host = match s.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => s,
    };
    let octets: Vec<&str> = host.split('.').collect();
    octets.len() == 4
        && octets
            .iter()
            .all(|o| !o.is_empty() && o.len() <= 3 && o.bytes().all(|b| b.is_ascii_digit()))
}

fn is_path(s: &str) -> bool {
    s.starts_with('/')
        || s.starts_with('\\')
        || s.contains("://")
        || s.matches('/').count() >= 2
        || (s.len() > 2
            && s.as_bytes()[1] == b':'
            && s.as_bytes()[0].is_ascii_alphabetic()
            && s.as_bytes()[2] == b'\\')
}

/// The whole-chunk mask in the signature field, if the chunk is a variable value.
fn chunk_mask(s: &str) -> Option<&'static str> {
    if is_uuid(s) {
        Some("§uuid")
    } else if is_ip(s) {
        Some("§ip")
    } else if is_path(s) {
        Some("§path")
    } else if (s.starts_with("0x") || s.starts_with("0X"))
        && s.len() > 2
        && s[2..].bytes().all(|b| b.is_ascii_hexdigit())
    {
        Some("§hex")
    } else if is_number(s) {
        Some("§num")
    } else {
        None
    }
}

fn part_mask(s: &str) -> Option<&'static str> {
    if s.bytes().all(|b| b.is_ascii_digit()) {
        Some("§num")
    } else if is_hexlike(s)
        || (s.chars().count() > MAX_PART_CHARS && s.bytes().any(|b| b.is_ascii_digit()))
    {
        Some("§hex")
    } else {
        None
    }
}

/// Whether a segment looks like an identifier or code on its own (not a plain word).
fn ident_like_segment(s: &str) -> bool {
    let letters = s.chars().filter(|c| c.is_alphabetic()).count();
    let digits = s.chars().filter(char::is_ascii_digit).count();
    if letters == 0 {
        return (3..=7).contains(&digits);
    }
    if digits > 0 {
        return true;
    }
    let upper = s.chars().filter(|c| c.is_uppercase()).count();
    // CamelCase / mixedCase, or an all-caps word of 2+ letters (codes, SQL keywords).
    case_parts(s).len() > 1 || (upper == letters && letters >= 2)
}

fn stem(word: &str) -> String {
    if word.chars().all(|c| c.is_ascii_alphabetic()) {
        frostem::Stemmer::new(frostem::Algorithm::English)
            .stem(word)
            .into_owned()
    } else {
        word.to_string()
    }
}

/// Emits the tokens of one chunk `text[start..end]`.
fn chunk(text: &str, start: usize, end: usize, a: Analyzer, pos: &mut usize, out: &mut Vec<Tok>) {
    // Trim connectors at the edges: `end.` → `end`, `-v` → `v`, `Exception:` → `Exception`.
    let raw = &text[start..end];
    let trimmed_front = raw.trim_start_matches(is_connector);
    let start = start + (raw.len() - trimmed_front.len());
    let s = trimmed_front.trim_end_matches(is_connector);
    let end = start + s.len();
    if s.is_empty() {
        return;
    }
    if a == Analyzer::Sig
        && let Some(mask) = chunk_mask(s)
    {
        push_mask(out, pos, mask, start, end);
        return;
    }
    // Segments: split at connectors.
    let mut segments: Vec<(usize, usize)> = Vec::new();
    let mut seg_start: Option<usize> = None;
    for (off, c) in s.char_indices() {
        if is_connector(c) {
            if let Some(st) = seg_start.take() {
                segments.push((st, off));
            }
        } else if seg_start.is_none() {
            seg_start = Some(off);
        }
    }
    if let Some(st) = seg_start {
        segments.push((st, s.len()));
    }

    if a == Analyzer::Ident {
        let whole_ident = segments.len() > 1 || ident_like_segment(s);
        if whole_ident && s.len() <= MAX_CHUNK_BYTES {
            out.push(Tok {
                text: s.to_lowercase(),
                from: start,
                to: end,
                pos: *pos,
                part: true,
            });
            *pos += 1;
        }
        if segments.len() > 1 {
            for &(a0, b0) in &segments {
                let seg = &s[a0..b0];
                if ident_like_segment(seg) && seg.chars().count() <= MAX_PART_CHARS {
                    out.push(Tok {
                        text: seg.to_lowercase(),
                        from: start + a0,
                        to: start + b0,
                        pos: *pos,
                        part: true,
                    });
                    *pos += 1;
                }
            }
        }
        return;
    }

    let first_pos = *pos;
    let mut whole_masked = false;
    let mut emitted_parts = 0usize;
    let mut extra: Vec<Tok> = Vec::new();
    for &(a0, b0) in &segments {
        let seg = &s[a0..b0];
        let parts = case_parts(seg);
        let seg_pos = *pos;
        let mut seg_masked = false;
        for &(p0, p1) in &parts {
            let p = &seg[p0..p1];
            let from = start + a0 + p0;
            let to = start + a0 + p1;
            if a == Analyzer::Sig
                && let Some(mask) = part_mask(p)
            {
                push_mask(out, pos, mask, from, to);
                seg_masked = true;
                emitted_parts += 1;
                continue;
            }
            if p.chars().count() > MAX_PART_CHARS {
                continue;
            }
            let lower = p.to_lowercase();
            let t = if a == Analyzer::Prose {
                stem(&lower)
            } else {
                lower
            };
            out.push(Tok {
                text: t,
                from,
                to,
                pos: *pos,
                part: true,
            });
            *pos += 1;
            emitted_parts += 1;
        }
        whole_masked |= seg_masked;
        if parts.len() > 1 && !seg_masked && seg.len() <= MAX_CHUNK_BYTES {
            // Normalised like a lone word, so `ClickHouse` in a title meets a typed
            // `clickhouse` (which prose analysis stems).
            let lower = seg.to_lowercase();
            extra.push(Tok {
                text: if a == Analyzer::Prose {
                    stem(&lower)
                } else {
                    lower
                },
                from: start + a0,
                to: start + b0,
                pos: seg_pos,
                part: false,
            });
        }
    }
    // The whole chunk (a single segment was emitted above), unless it carries a masked value.
    if segments.len() > 1 && !whole_masked && emitted_parts > 0 && s.len() <= MAX_CHUNK_BYTES {
        extra.push(Tok {
            text: s.to_lowercase(),
            from: start,
            to: end,
            pos: first_pos,
            part: false,
        });
    }
    out.extend(extra);
}

/// A tantivy tokenizer running one of our analyzers. Tokens are computed eagerly: fields are
/// small, and it keeps one implementation for index and query time.
#[derive(Clone)]
pub struct KbTokenizer(pub Analyzer);

/// Token stream over precomputed tokens.
pub struct KbTokenStream {
    tokens: Vec<Token>,
    next: usize,
    current: Token,
}

impl Tokenizer for KbTokenizer {
    type TokenStream<'a> = KbTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> KbTokenStream {
        let mut toks = analyze(text, self.0);
        // Tantivy's postings writer wants positions non-decreasing within the stream.
        toks.sort_by_key(|t| (t.pos, !t.part));
        let tokens = toks
            .into_iter()
            .map(|t| Token {
                offset_from: t.from,
                offset_to: t.to,
                position: t.pos,
                text: t.text,
                position_length: 1,
            })
            .collect();
        KbTokenStream {
            tokens,
            next: 0,
            current: Token::default(),
        }
    }
}

impl TokenStream for KbTokenStream {
    fn advance(&mut self) -> bool {
        if self.next >= self.tokens.len() {
            return false;
        }
        self.current = std::mem::take(&mut self.tokens[self.next]);
        self.next += 1;
        true
    }

    fn token(&self) -> &Token {
        &self.current
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str, a: Analyzer) -> Vec<String> {
        analyze(s, a).into_iter().map(|t| t.text).collect()
    }

    fn parts(s: &str, a: Analyzer) -> Vec<String> {
        analyze(s, a)
            .into_iter()
            .filter(|t| t.part)
            .map(|t| t.text)
            .collect()
    }

    #[test]
    fn splits_camel_case_and_keeps_whole() {
        let t = texts("BatchUpdateException", Analyzer::Code);
        assert_eq!(
            t,
            vec!["batch", "update", "exception", "batchupdateexception"]
        );
        assert_eq!(
            parts("HTTPServerError S3Client", Analyzer::Code),
            vec!["http", "server", "error", "s3", "client"]
        );
    }

    #[test]
    fn splits_dotted_snake_kebab_and_colon() {
        let t = texts("com.mysql.cj.jdbc", Analyzer::Code);
        assert_eq!(t, vec!["com", "mysql", "cj", "jdbc", "com.mysql.cj.jdbc"]);
        let t = texts("dhs:ListShard", Analyzer::Code);
        assert!(t.contains(&"dhs:listshard".to_string()));
        assert!(t.contains(&"listshard".to_string()));
        assert!(t.contains(&"list".to_string()) && t.contains(&"shard".to_string()));
        assert_eq!(
            parts("MAX_POLL_RECORDS upsert-kafka", Analyzer::Code),
            vec!["max", "poll", "records", "upsert", "kafka"]
        );
        assert!(
            texts("MAX_POLL_RECORDS", Analyzer::Code).contains(&"max_poll_records".to_string())
        );
    }

    #[test]
    fn positions_are_consecutive_over_parts() {
        let toks = analyze("BatchUpdateException: Duplicate entry", Analyzer::Code);
        let p: Vec<(String, usize)> = toks
            .iter()
            .filter(|t| t.part)
            .map(|t| (t.text.clone(), t.pos))
            .collect();
        assert_eq!(
            p.iter().map(|x| x.1).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4]
        );
        let whole = toks
            .iter()
            .find(|t| t.text == "batchupdateexception")
            .unwrap();
        assert_eq!(whole.pos, 0);
        assert_eq!(
            &"BatchUpdateException: Duplicate entry"[whole.from..whole.to],
            "BatchUpdateException"
        );
    }

    #[test]
    fn masks_values_in_signatures() {
        let t = parts(
            "Connection to 10.0.0.12:9092 failed after 3000 ms, id 123e4567-e89b-12d3-a456-426614174000 at 0xdeadbeef in '/tmp/x' file /var/lib/a.jar",
            Analyzer::Sig,
        );
        assert_eq!(
            t,
            vec![
                "connection",
                "to",
                "§ip",
                "failed",
                "after",
                "§num",
                "ms",
                "id",
                "§uuid",
                "at",
                "§hex",
                "in",
                "§str",
                "file",
                "§path"
            ]
        );
        let esc = parts(
            r"Incorrect string value: '\xF0\x9F\x98\x80' for column",
            Analyzer::Sig,
        );
        assert_eq!(
            esc,
            vec!["incorrect", "string", "value", "§str", "for", "column"]
        );
        let esc = parts(r"value \xF0\x9F\x98 for", Analyzer::Sig);
        assert_eq!(esc, vec!["value", "§hex", "for"]);
        // Same masking on both sides: different values, same tokens.
        assert_eq!(
            parts("timeout after 30000 ms", Analyzer::Sig),
            parts("timeout after 60000 ms", Analyzer::Sig)
        );
        // Apostrophes inside words are not quotes.
        assert_eq!(
            parts("doesn't exist", Analyzer::Sig),
            vec!["doesn", "t", "exist"]
        );
    }

    #[test]
    fn ident_keeps_codes_and_identifiers_only() {
        let t = texts(
            "ErrorMessage=Authorization Failed [4019], You have NO privilege'ODPS:***' ODPS-0130071 at line 12",
            Analyzer::Ident,
        );
        assert!(t.contains(&"errormessage".to_string()));
        assert!(t.contains(&"4019".to_string()));
        assert!(t.contains(&"odps-0130071".to_string()));
        assert!(t.contains(&"0130071".to_string()));
        assert!(t.contains(&"no".to_string()));
        assert!(!t.contains(&"failed".to_string()));
        assert!(!t.contains(&"12".to_string()));
        let t = texts(
            "org.apache.kafka.common.errors.TimeoutException",
            Analyzer::Ident,
        );
        assert_eq!(
            t,
            vec![
                "org.apache.kafka.common.errors.timeoutexception",
                "timeoutexception"
            ]
        );
    }

    #[test]
    fn whole_camel_case_word_is_normalised_like_a_typed_word() {
        // A title's `ClickHouse` must meet a typed `clickhouse`, which prose analysis stems.
        for (written, typed) in [("ClickHouse", "clickhouse"), ("OceanBase", "oceanbase")] {
            let typed = texts(typed, Analyzer::Prose);
            assert_eq!(typed.len(), 1);
            assert!(
                texts(written, Analyzer::Prose).contains(&typed[0]),
                "{written} vs {typed:?}"
            );
        }
        // Code keeps identifiers verbatim.
        assert!(texts("ClickHouse", Analyzer::Code).contains(&"clickhouse".to_string()));
    }

    #[test]
    fn prose_stems_plain_words_only() {
        let t = parts("Connections failing repeatedly", Analyzer::Prose);
        assert_eq!(t, vec!["connect", "fail", "repeat"]);
        // The whole identifier is kept, normalised as the same word typed in lowercase.
        let whole = texts("batchupdateexception", Analyzer::Prose);
        assert!(texts("BatchUpdateException", Analyzer::Prose).contains(&whole[0]));
    }

    #[test]
    fn survives_hostile_text() {
        for s in [
            "",
            "   ",
            "!!!???...",
            "\u{0}\u{1}\u{7f}",
            "'''\"\"\"",
            "\\x",
            "\\xZZ",
            "a\\",
            "é",
            "ß_ÄÖ",
            "::::",
            "日本語のテキスト",
            "'unbalanced",
            "\"",
            "`",
        ] {
            for a in [
                Analyzer::Prose,
                Analyzer::Code,
                Analyzer::Sig,
                Analyzer::Ident,
            ] {
                let toks = analyze(s, a);
                for t in toks {
                    assert!(t.from <= t.to && t.to <= s.len());
                    assert!(!t.text.is_empty());
                }
            }
        }
        let big = "x".repeat(100_000);
        assert!(analyze(&big, Analyzer::Code).is_empty());
    }
}
