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

mod mask;
mod scanner;
mod stem;
#[cfg(test)]
mod tests;
mod tokenizer;

use tantivy::Index;
use tantivy::tokenizer::{TextAnalyzer, TokenizerManager};

pub(crate) use mask::is_ip;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use tokenizer::AnalysedAhead;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use tokenizer::KbTokenStream;
pub(crate) use tokenizer::KbTokenizer;

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
    /// Every analyzer (each is registered as a tokenizer).
    pub const ALL: [Analyzer; 4] = [
        Analyzer::Prose,
        Analyzer::Code,
        Analyzer::Sig,
        Analyzer::Ident,
    ];

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
    for a in Analyzer::ALL {
        manager.register(a.name(), TextAnalyzer::from(KbTokenizer(a)));
    }
}

/// Analyzes `text` with analyzer `a`.
pub fn analyze(text: &str, a: Analyzer) -> Vec<Tok> {
    let mut out = Vec::new();
    scanner::run(text, a, &mut out);
    out
}

/// The texts of `text`'s part tokens in order, without the whole-identifier extras: the
/// sequence runs and pairs are read from.
pub fn analyze_parts(text: &str, a: Analyzer) -> Vec<String> {
    analyze(text, a)
        .into_iter()
        .filter(|t| t.part)
        .map(|t| t.text)
        .collect()
}

/// Stands between two sentences in [`analyze_sentences`]; no analyzer emits it.
pub const SENTENCE_END: &str = "§end";

/// [`analyze_parts`] sentence by sentence, with [`SENTENCE_END`] between sentences when
/// `mark` (the analyzers drop punctuation, so `Value out of range. Value: 7` would read as
/// going on `range value`). A sentence ends at `.`, `!` or `?` followed by white space and
/// an upper-case letter.
pub fn analyze_sentences(text: &str, a: Analyzer, mark: bool) -> Vec<String> {
    if !mark {
        return analyze_parts(text, a);
    }
    let mut out: Vec<String> = Vec::new();
    for piece in sentences(text) {
        let toks = analyze_parts(piece, a);
        if toks.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(SENTENCE_END.to_string());
        }
        out.extend(toks);
    }
    out
}

/// `text` cut after each sentence end (see [`analyze_sentences`]).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    for (i, c) in text.char_indices() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let end = i + c.len_utf8();
        let rest = &text[end..];
        let trimmed = rest.trim_start();
        if trimmed.len() < rest.len() && trimmed.chars().next().is_some_and(char::is_uppercase) {
            out.push(&text[from..end]);
            from = end;
        }
    }
    out.push(&text[from..]);
    out
}

/// Receives tokens in analysis order (parts as they come, a chunk's extras after its parts).
trait TokenSink {
    fn push(&mut self, text: &str, from: usize, to: usize, pos: usize, part: bool);

    /// No token pushed from now on has a position below `pos` (the position counter).
    fn settle(&mut self, _pos: usize) {}

    /// Whether the tokens go into the index (see [`scanner`]'s CJK runs), not into a query.
    fn indexing(&self) -> bool {
        false
    }
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
