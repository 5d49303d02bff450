//! Turning user text into a Tantivy query, without QueryParser.
//!
//! QueryParser reads `Caused by:` as a field and `[4019]` as a range; pasted text is not query
//! syntax. Instead: split the paste ([`crate::paste`]), analyze each informative line with each
//! field's analyzer, weight terms by line role, drop terms too common to discriminate, keep the
//! most informative ones and OR them as boosted BM25 clauses, plus phrase clauses for quoted
//! text and for adjacent pairs of the root-cause line.

mod build;
mod clauses;
mod text;
mod tuning;
mod words;

use crate::SearchOptions;
use crate::schema::{KbSchema, TEXT_FIELDS};
use std::collections::{BTreeMap, HashMap};
use tantivy::Term;
use tantivy::query::{
    BooleanQuery, ConstScoreQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur, Query, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};

pub(crate) use build::build_query;
pub use text::MAX_QUERY_BYTES;
pub(crate) use text::is_mask;
pub(crate) use text::is_stopword;
pub use tuning::Tuning;

/// Query words kept when the rarity cut is switched off (an ablation), to bound the clauses.
const MAX_TERMS_UNCUT: usize = 512;

/// What a clause is, for explain and confidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ClauseKind {
    Term,
    Pair,
    Quoted,
    Fuzzy,
}

/// One SHOULD clause of the built query.
pub(crate) struct Clause {
    pub query: Box<dyn Query>,
    pub field: usize,
    pub kind: ClauseKind,
    /// Human-readable term or phrase.
    pub label: String,
    /// The query word this clause came from (term clauses), for coverage.
    pub surface: Option<usize>,
    /// The query word's group for the per-word field dismax when it differs from `surface`:
    /// the parts of one identifier (`MongoDB` → mongo, db, mongodb) are one word's evidence.
    pub group: Option<usize>,
}

/// The built query and what the result assembly needs from it.
pub(crate) struct BuiltQuery {
    pub clauses: Vec<Clause>,
    /// Kept query words and their informativeness (weight × idf).
    pub surfaces: Vec<(String, f32)>,
    /// Query terms per text field, for highlighting and matched-error selection.
    pub field_terms: [HashMap<String, f32>; 6],
    /// The kept query words as the tags field analyses them, each with its idf: what a
    /// symptom line of an entry is matched against (see `Tuning::symptom_weight`).
    pub symptom_terms: BTreeMap<String, f32>,
    /// The signature-analyzed parts of each message and context line (not frames), for
    /// finding how much of an entry's error text the query repeats verbatim.
    pub sig_lines: Vec<Vec<String>>,
    /// Share of the query's words (not function words) that occur in the book at all: a
    /// paste from another system is mostly words the book never uses.
    pub known_share: f32,
    /// Whether one of the query's words the book has is more than a letter (see
    /// [`crate::Signals::known_word`]).
    pub known_word: bool,
    /// The query's words that name one of the book's connectors.
    pub named_connectors: Vec<String>,
    /// Whether the query is one line (typed words, or one pasted line).
    pub one_line: bool,
    /// Whether that one line is a log record (a date, a time of day or a level before it).
    pub logged_line: bool,
    /// Whether the query is typed words rather than pasted machine text.
    pub plain_words: bool,
    /// The typo and prefix clauses' term-dictionary walks (field, query), which the lazy
    /// planner runs ahead of scoring so that one round fetches every term they match.
    pub walks: Vec<(Field, FuzzyTermQuery)>,
}

impl BuiltQuery {
    /// The scoring query: every clause as a SHOULD; with `field_dismax`, the term clauses of
    /// one query word are folded into one disjunction-max clause (best field + tie share).
    pub(crate) fn scoring_query(&self, tuning: &Tuning) -> Box<dyn Query> {
        let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut groups: Vec<(usize, Vec<Box<dyn Query>>)> = Vec::new();
        for c in &self.clauses {
            match (
                tuning.field_dismax && !tuning.plain_bm25,
                c.kind == ClauseKind::Term,
                c.group.or(c.surface),
            ) {
                (true, true, Some(s)) => match groups.iter_mut().find(|g| g.0 == s) {
                    Some(g) => g.1.push(c.query.box_clone()),
                    None => groups.push((s, vec![c.query.box_clone()])),
                },
                _ => should.push((Occur::Should, c.query.box_clone())),
            }
        }
        for (_, mut g) in groups {
            let q: Box<dyn Query> = if g.len() == 1 {
                match g.pop() {
                    Some(q) => q,
                    None => continue,
                }
            } else {
                Box::new(DisjunctionMaxQuery::with_tie_breaker(g, tuning.field_tie))
            };
            should.push((Occur::Should, q));
        }
        Box::new(BooleanQuery::new(should))
    }
}

/// The filters of `opts` (connector, kind) as clauses that must match and score nothing:
/// exact terms of the entries' lowercased keyword fields.
pub(crate) fn filter_clauses(kb: &KbSchema, opts: &SearchOptions) -> Vec<Box<dyn Query>> {
    let mut out: Vec<Box<dyn Query>> = Vec::new();
    for (field, value) in [(kb.connector, &opts.connector), (kb.kind, &opts.kind)] {
        if let Some(v) = value {
            let term = Term::from_field_text(field, &v.to_lowercase());
            out.push(Box::new(ConstScoreQuery::new(
                Box::new(TermQuery::new(term, IndexRecordOption::Basic)),
                0.0,
            )));
        }
    }
    out
}

/// Field names for explain output.
pub(crate) fn field_name(fi: usize) -> &'static str {
    TEXT_FIELDS.get(fi).map(|f| f.name).unwrap_or("?")
}
