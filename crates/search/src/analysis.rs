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

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::script::{fold_width, for_each_bigram, is_cjk};
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

/// Connector characters. All are ASCII, so scanning and splitting at connector bytes never
/// cuts a UTF-8 sequence.
const fn is_connector_byte(b: u8) -> bool {
    matches!(
        b,
        b'.' | b'_' | b'-' | b':' | b'/' | b'\\' | b'$' | b'@' | b'#' | b'+'
    )
}

/// Analyzes `text` with analyzer `a`.
pub fn analyze(text: &str, a: Analyzer) -> Vec<Tok> {
    let mut out = Vec::new();
    run(text, a, &mut out);
    out
}

/// Receives tokens in analysis order (parts as they come, a chunk's extras after its parts).
trait TokenSink {
    fn push(&mut self, text: &str, from: usize, to: usize, pos: usize, part: bool);

    /// No token pushed from now on has a position below `pos` (the position counter).
    fn settle(&mut self, _pos: usize) {}
}

impl TokenSink for Vec<Tok> {
    fn push(&mut self, text: &str, from: usize, to: usize, pos: usize, part: bool) {
        Vec::push(
            self,
            Tok {
                text: text.to_string(),
                from,
                to,
                pos,
                part,
            },
        );
    }
}

/// Runs analyzer `a` over `text`, feeding `sink`. The per-thread stem cache is taken for the
/// call and put back afterwards (a `Cell`, so no borrow can fail).
fn run<S: TokenSink>(text: &str, a: Analyzer, sink: &mut S) {
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

fn char_count(s: &str, ascii: bool) -> usize {
    if ascii { s.len() } else { s.chars().count() }
}

/// Memoised English stems of lowercase ASCII words. Prose repeats words, and snowball stemming
/// costs far more than a hash lookup. Bounded: cleared when full, so memory stays small.
#[derive(Default)]
struct StemCache {
    /// Word → its stem, `None` when the stem is the word itself.
    map: HashMap<Box<str>, Option<Box<str>>, BuildHasherDefault<WordHasher>>,
}

/// Entries kept before the cache is cleared (a few MB at most per thread).
const STEM_CACHE_ENTRIES: usize = 1 << 15;
/// Longer words are stemmed without caching (rare, and they would bloat the cache).
const STEM_CACHE_WORD_BYTES: usize = 48;

thread_local! {
    static STEMS: Cell<StemCache> = Cell::new(StemCache::default());
}

impl StemCache {
    /// Calls `f` with the prose form of lowercase `word`: stemmed if it is plain ASCII letters.
    fn with_stem(&mut self, word: &str, f: impl FnOnce(&str)) {
        if !word.bytes().all(|b| b.is_ascii_alphabetic()) {
            f(word);
            return;
        }
        if word.len() > STEM_CACHE_WORD_BYTES {
            f(&frostem::Stemmer::new(frostem::Algorithm::English).stem(word));
            return;
        }
        if let Some(stem) = self.map.get(word) {
            f(stem.as_deref().unwrap_or(word));
            return;
        }
        let stem = frostem::Stemmer::new(frostem::Algorithm::English).stem(word);
        f(&stem);
        if self.map.len() >= STEM_CACHE_ENTRIES {
            self.map.clear();
        }
        let stem = (stem != word).then(|| Box::from(&*stem));
        self.map.insert(Box::from(word), stem);
    }
}

/// FxHash-style hasher for the stem cache: short keys, no untrusted adversary (the author's own
/// content and queries), and SipHash would cost about as much as the lookups save. Hand-written
/// to keep the crate's dependencies (and the wasm module) unchanged.
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let tail = rest
            .iter()
            .rev()
            .fold(rest.len() as u64, |acc, &b| (acc << 8) | u64::from(b));
        self.add(tail);
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn finish(&self) -> u64 {
        // hashbrown takes the bucket from the low bits and the tag from the top 7: mix both.
        self.0.rotate_left(26)
    }
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

/// `8-4-4-4-12` hex groups.
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(k, b)| {
            if matches!(k, 8 | 13 | 18 | 23) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        })
}

fn is_ip(s: &str) -> bool {
    // The first octet starts the text: most chunks are words and stop here.
    if !s.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let host = match s.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => s,
    };
    let mut octets = 0usize;
    for o in host.split('.') {
        octets += 1;
        if octets > 4 || o.is_empty() || o.len() > 3 || !o.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    octets == 4
}

fn is_path(s: &str) -> bool {
    // Two or more slashes; this also covers `://`.
    s.starts_with('/')
        || s.starts_with('\\')
        || s.bytes().filter(|&b| b == b'/').count() >= 2
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
        // The byte length bounds the char count, so most parts skip counting.
        || (s.len() > MAX_PART_CHARS
            && s.chars().count() > MAX_PART_CHARS
            && s.bytes().any(|b| b.is_ascii_digit()))
    {
        Some("§hex")
    } else {
        None
    }
}

/// A tantivy tokenizer running one of our analyzers. Tokens are computed eagerly: fields are
/// small, and it keeps one implementation for index and query time.
#[derive(Clone)]
pub struct KbTokenizer(pub Analyzer);

/// Token stream over precomputed tokens, already in position order. Token texts live in one
/// buffer and are copied into the reused current token, so there is no allocation per token.
pub struct KbTokenStream {
    texts: String,
    tokens: Vec<StreamToken>,
    next: usize,
    current: Token,
}

/// A precomputed token; its text is `texts[text_from..text_to]`.
#[derive(Clone, Copy)]
struct StreamToken {
    from: usize,
    to: usize,
    pos: usize,
    part: bool,
    text_from: usize,
    text_to: usize,
}

/// Collects tokens in the order tantivy's postings writer needs (positions non-decreasing),
/// exactly that of a stable sort of the analysis order by `(pos, !part)`. `tokens[settled..]`
/// is still open: [`TokenSink::settle`] sorts just that short tail once no later token can sort
/// before it, which replaces one sort of the whole field.
#[derive(Default)]
struct StreamSink {
    texts: String,
    tokens: Vec<StreamToken>,
    settled: usize,
}

impl StreamSink {
    /// Settles the open tokens with position below `pos`, sorting the open tail if needed.
    fn settle_below(&mut self, pos: usize) {
        let tail = &mut self.tokens[self.settled..];
        let key = |t: &StreamToken| (t.pos, !t.part);
        if tail.len() > 1 && !tail.is_sorted_by_key(key) {
            // Stable, so equal keys keep their analysis order.
            tail.sort_by_key(key);
        }
        self.settled += tail.partition_point(|t| t.pos < pos);
    }
}

impl TokenSink for StreamSink {
    fn push(&mut self, text: &str, from: usize, to: usize, pos: usize, part: bool) {
        let text_from = self.texts.len();
        self.texts.push_str(text);
        self.tokens.push(StreamToken {
            from,
            to,
            pos,
            part,
            text_from,
            text_to: self.texts.len(),
        });
    }

    fn settle(&mut self, pos: usize) {
        self.settle_below(pos);
    }
}

impl Tokenizer for KbTokenizer {
    type TokenStream<'a> = KbTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> KbTokenStream {
        let mut sink = StreamSink::default();
        run(text, self.0, &mut sink);
        sink.settle_below(usize::MAX);
        KbTokenStream {
            texts: sink.texts,
            tokens: sink.tokens,
            next: 0,
            current: Token::default(),
        }
    }
}

impl TokenStream for KbTokenStream {
    fn advance(&mut self) -> bool {
        let Some(t) = self.tokens.get(self.next) else {
            return false;
        };
        self.next += 1;
        let c = &mut self.current;
        c.offset_from = t.from;
        c.offset_to = t.to;
        c.position = t.pos;
        c.position_length = 1;
        c.text.clear();
        c.text.push_str(&self.texts[t.text_from..t.text_to]);
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
    fn token_stream_is_the_analysis_sorted_by_position() {
        // Parts over MAX_PART_CHARS are skipped, so a segment's whole form can sit at the
        // position of the next chunk's first part: the stream must order those exactly as a
        // stable sort by (position, !part) of the analysis does.
        let long = format!("A{}", "a".repeat(45));
        let inputs = [
            "BatchUpdateException: Duplicate entry com.mysql.cj.jdbc".to_string(),
            format!("{long}{long} next"),
            format!("x.{long}Foo.y z {long}{long}.Bar"),
            "HTTPServerError S3Client dhs:ListShard MAX_POLL_RECORDS".to_string(),
            r"Connection to 10.0.0.12:9092 failed 'x' \xF0\x9F at a.b.c:12".to_string(),
        ];
        for s in &inputs {
            for a in [
                Analyzer::Prose,
                Analyzer::Code,
                Analyzer::Sig,
                Analyzer::Ident,
            ] {
                let mut expected = analyze(s, a);
                expected.sort_by_key(|t| (t.pos, !t.part));
                let expected: Vec<_> = expected
                    .into_iter()
                    .map(|t| (t.text, t.from, t.to, t.pos))
                    .collect();
                let mut tokenizer = KbTokenizer(a);
                let mut stream = tokenizer.token_stream(s);
                let mut got = Vec::new();
                while stream.advance() {
                    let t = stream.token();
                    assert_eq!(t.position_length, 1);
                    got.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
                }
                assert_eq!(got, expected, "{s:?} {a:?}");
            }
        }
    }

    #[test]
    fn stem_cache_matches_the_stemmer_across_clears() {
        let stemmer = frostem::Stemmer::new(frostem::Algorithm::English);
        // Letters only (digits would split parts): enough distinct words to clear the cache.
        let word = |n: usize| {
            let mut w = String::from("run");
            let mut n = n;
            loop {
                w.push(char::from(b'a' + (n % 26) as u8));
                n /= 26;
                if n == 0 {
                    break;
                }
            }
            w.push_str("ing");
            w
        };
        for round in 0..2 {
            for n in (0..STEM_CACHE_ENTRIES + 100).step_by(if round == 0 { 1 } else { 97 }) {
                let w = word(n);
                assert_eq!(
                    texts(&w, Analyzer::Prose),
                    vec![stemmer.stem(&w).into_owned()]
                );
            }
        }
        // A whole CamelCase segment too long to cache is still stemmed.
        let camel = format!("Run{}Connections", "Walking".repeat(7));
        let lower = camel.to_lowercase();
        assert!(lower.len() > STEM_CACHE_WORD_BYTES);
        let whole = texts(&camel, Analyzer::Prose);
        assert_eq!(whole.last(), Some(&stemmer.stem(&lower).into_owned()));
    }

    #[test]
    fn cjk_runs_are_bigrams_and_latin_runs_are_split_from_them() {
        for a in [Analyzer::Prose, Analyzer::Code, Analyzer::Sig] {
            let toks = analyze("作业无法进行增量同步", a);
            let texts: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
            assert_eq!(
                texts,
                [
                    "作业", "业无", "无法", "法进", "进行", "行增", "增量", "量同", "同步"
                ],
                "{a:?}"
            );
            assert!(toks.windows(2).all(|w| w[1].pos == w[0].pos + 1));
            assert!(toks.iter().all(|t| t.part));
        }
        assert_eq!(
            parts("mysql同步到hologres时", Analyzer::Prose),
            ["mysql", "同步", "步到", "hologr", "时"]
        );
        // Full-width ASCII folds; full-width punctuation separates.
        assert_eq!(
            texts("ＭｙＳＱＬ，Kafka。", Analyzer::Code),
            ["my", "sql", "mysql", "kafka"]
        );
        assert_eq!(parts("增量同步", Analyzer::Ident), Vec::<String>::new());
        assert_eq!(parts("同步BatchUpdateException", Analyzer::Ident).len(), 1);
        // Offsets point into the original text (for highlighting).
        let t = analyze("ＭｙＳＱＬ同步", Analyzer::Prose);
        let last = t.last().map(|t| (t.from, t.to));
        assert_eq!(last, Some((15, 21)));
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
