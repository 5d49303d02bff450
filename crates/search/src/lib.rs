//! kbook's search core, shared by the native `kbook` binary and the browser module.
//!
//! Everything that must behave identically on both sides lives here: the version model behind
//! the reader's "my version" choice, the schema, the analyzers, the paste splitter, the query builder
//! and the packed index format. Index *writing* is native only (see [`build_packed_index`]).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

// Layers, each using only the ones before it: the byte formats (`hash`, `pack`, `head`), the
// block directory over them (`blocks`), then — beside them, independent of storage — text
// analysis (`script`, `analysis`, `paste`, `schema`, `version`), reading what copying and
// logging add to a paste (`compose`, `escapes`, `hard_wraps`, `line_breaks`, `json_lines`,
// `long_log`, then `decoration`, which uses them), query building (`query`), the reader
// (`book`), lazy loading (`lazy`); `writer` builds what the reader opens.
pub mod analysis;
pub mod blocks;
mod book;
mod compose;
mod decoration;
mod escapes;
mod hard_wraps;
mod hash;
mod head;
mod json_lines;
mod lazy;
mod line_breaks;
mod long_log;
mod pack;
pub mod paste;
mod query;
mod schema;
mod script;
pub mod version;
#[cfg(not(target_arch = "wasm32"))]
mod writer;

use serde::Serialize;

pub use analysis::{Analyzer, analyze};
pub use book::BookIndex;
pub use lazy::{LazyIndex, LazyOutcome};
pub use pack::{FORMAT_VERSION, MAGIC, packed_digest};
pub use query::{MAX_QUERY_BYTES, Tuning};
#[cfg(not(target_arch = "wasm32"))]
pub use writer::{
    KeptSegments, build_packed_index, build_packed_index_batched, build_packed_index_keeping,
    docs_fingerprint,
};

/// A fast 64-bit hash of bytes (the packed index's checksum), for telling changed files from
/// unchanged ones: several times faster than the standard library's SipHash on large files.
pub fn content_hash(bytes: &[u8]) -> u64 {
    hash::word_hash64(bytes)
}

/// A [`std::hash::Hasher`] over [`content_hash`], for fingerprinting what a rebuild may reuse
/// (whole books of text are hashed on every rebuild of `kbook serve`). Not for hash tables
/// facing untrusted keys: it has no random seed.
#[derive(Debug, Clone)]
pub struct ContentHasher(u64);

impl Default for ContentHasher {
    fn default() -> Self {
        ContentHasher(0x243f_6a88_85a3_08d3)
    }
}

impl std::hash::Hasher for ContentHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = (self.0 ^ content_hash(bytes))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(27);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(27);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// One entry as the index sees it.
#[derive(Debug, Clone, Default)]
pub struct EntryDoc {
    /// Entry id (file stem), unique in the book.
    pub id: String,
    /// URL relative to the site root, e.g. `kafka/kafka-commit-offsets.html`.
    pub url: String,
    /// Entry title.
    pub title: String,
    /// Connector slug.
    pub connector: String,
    /// Other names of the connector's system (book.toml `aliases`).
    pub connector_aliases: Vec<String>,
    /// Whether the connector is a section whose entries apply to every connector (book.toml
    /// `cross-connector`: failover, drivers): a query naming another connector does not
    /// disagree with them, and its slug names no connector in a query.
    pub cross_connector: bool,
    /// Entry kind (error, how-to, ...).
    pub kind: String,
    /// Verbatim error strings (front-matter `errors`).
    pub errors: Vec<String>,
    /// Those of `errors` that are printed for many causes by a system every connector shares
    /// (front-matter `generic: true`): repeating one gives confidence only when the query also
    /// names the entry's connector.
    pub generic_errors: Vec<String>,
    /// Plain text of the body without code blocks.
    pub body: String,
    /// Text of the code blocks, joined with "\n".
    pub code: String,
    /// Free tags.
    pub tags: Vec<String>,
    /// How readers describe the problem (front-matter `symptoms`), one line each: searched
    /// with the tags, and stored for matching a question against each line on its own.
    pub symptoms: Vec<String>,
    /// Version statements, matched against the reader's version.
    pub versions: Vec<version::VersionSpec>,
    /// The ids of the body's headings, in the order of their marks in `body` (empty for one
    /// without an id): a hit links its passage's section.
    pub anchors: Vec<String>,
}

/// Why building, opening or searching an index failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// Tantivy reported an error.
    #[error("search engine error: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    /// The packed index bytes are not a valid kbook index.
    #[error("corrupt search index: {0}")]
    Corrupt(String),
    /// A stored field could not be (de)serialised.
    #[error("bad stored data: {0}")]
    Json(#[from] serde_json::Error),
}

/// Search options (filters, limit, diagnostics).
#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    /// Maximum number of hits (0 means the default, 10).
    pub limit: usize,
    /// Keep only entries of this connector.
    pub connector: Option<String>,
    /// Keep only entries of this kind.
    pub kind: Option<String>,
    /// The reader's product version: entries that do not affect it (not affected, or fixed)
    /// stay in the results, after the others, with [`Hit::version_match`] saying why.
    pub version: Option<(String, version::Version)>,
    /// Fill [`Hit::explain`].
    pub explain: bool,
    /// Ranking switches and constants (ablations, tuning).
    pub tuning: Tuning,
}

/// The result of one search.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResults {
    /// Hits, best first.
    pub hits: Vec<Hit>,
    /// Whether the first hit is very likely right; false: "no confident match" (the hits
    /// are still the closest entries).
    pub confident: bool,
    /// The entry the search was confident in when it does not affect the reader's version:
    /// it is listed with those, after the rest, and `confident` is false. Said so the reader
    /// does not take "no confident match" for "not documented".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_other_version: Option<String>,
    /// What `confident` was decided on.
    pub signals: Signals,
}

/// Evidence about the first hit, from which [`SearchResults::confident`] is decided.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Signals {
    /// Score of the first hit.
    pub top_score: f32,
    /// First score over second score (1 when tied; large when the first stands alone).
    pub margin: f32,
    /// Share of the query's informative weight the first hit matches.
    pub coverage: f32,
    /// Whether a phrase clause (root-cause pair or quoted text) matched the first hit.
    pub phrase: bool,
    /// Longest run of consecutive signature tokens the query shares with one of the first
    /// hit's error texts.
    pub error_run: usize,
    /// That run over the length of that error text (1: the query repeats the whole error).
    pub error_share: f32,
    /// Whether, right after that run, the query line and the error text both go on with
    /// different words (`… is not set` against `… is /tmp/jaas.conf`), or right before it
    /// both have a different letters-only word (`Incorrect datetime value` against
    /// `Incorrect string value`; confidence reads this, the ranking penalty only the
    /// former): the same message template with another outcome.
    pub error_diverges: bool,
    /// Share of the query's words that occur anywhere in the book.
    pub known_share: f32,
    /// Whether one of the query's words that the book has is two characters or more: one
    /// line in the hit's own words is confident only then (a lone letter, as a search as you
    /// type starts, is no word a reader means).
    pub known_word: bool,
    /// Whether the query names connectors of the book and none of them is the first hit's:
    /// its error text may be shared, but the reader runs another connector.
    pub other_connector: bool,
    /// Whether the query names the first hit's connector (in its words, or in logger and
    /// package names).
    pub names_connector: bool,
    /// Whether the first hit's error texts that the query repeats are all generic ones (see
    /// [`EntryDoc::generic_errors`]): a paste that also repeats the entry's own message is
    /// not held back by a generic line beside it.
    pub generic_error: bool,
    /// Whether the query is one line (typed words, or one pasted line): a trace or a log
    /// excerpt gets confidence only from the error texts it repeats.
    pub one_line: bool,
    /// Whether that one line is a log record (a date, a time of day or a level before it): a
    /// system's words, not a reader's sentence around an error.
    pub logged_line: bool,
    /// The largest share of typed words (by idf) that one symptom line of the first hit
    /// holds (0 for pasted text; see [`Tuning::symptom_weight`]).
    pub symptom_match: f32,
    /// `error_run` over the number of the query's signature tokens (its message and context
    /// lines): how much of the query the repeated error text is.
    pub error_query_share: f32,
}

/// One search hit.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// Entry id.
    pub id: String,
    /// URL relative to the site root.
    pub url: String,
    /// Entry title.
    pub title: String,
    /// Connector slug.
    pub connector: String,
    /// Entry kind.
    pub kind: String,
    /// The ranking score: BM25 over the matching clauses, times the rerank factors (coverage,
    /// long pages, the error template, the connector named, the symptom line).
    pub score: f32,
    /// The entry's error string that best matches the query.
    pub matched_error: Option<String>,
    /// A passage of the body with the query terms marked.
    pub snippet: Snippet,
    /// How the entry relates to the reader's version (only with [`SearchOptions::version`]).
    pub version_match: Option<version::VersionMatch>,
    /// The release that fixes the problem: for an affected reader the next fix, for a reader
    /// past the fix the one they have (see [`version::fix_release`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_in: Option<String>,
    /// Which fields and terms scored (only with `explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<String>,
}

/// A text passage with highlighted ranges.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Snippet {
    /// The passage.
    pub text: String,
    /// Highlighted ranges as char (not byte) offsets into `text`, so JS can slice safely.
    pub highlights: Vec<(usize, usize)>,
    /// The heading of the section the passage is from, when the body has headings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The id of that section's heading on the entry's page, where a link to the passage
    /// opens; none for the body's first section, which starts the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
}

/// Stands before and after each heading's text in an entry's body (U+2029, PARAGRAPH
/// SEPARATOR: white space to every analyzer): a snippet stays inside one section and names
/// its heading.
pub const HEADING_MARK: char = '\u{2029}';
