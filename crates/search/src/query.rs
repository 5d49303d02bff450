//! Turning user text into a Tantivy query, without QueryParser.
//!
//! QueryParser reads `Caused by:` as a field and `[4019]` as a range; pasted text is not query
//! syntax. Instead: split the paste ([`crate::paste`]), analyze each informative line with each
//! field's analyzer, weight terms by line role, drop terms too common to discriminate, keep the
//! most informative ones and OR them as boosted BM25 clauses, plus phrase clauses for quoted
//! text and for adjacent pairs of the root-cause line.

use crate::SearchOptions;
use crate::analysis::{Tok, analyze};
use crate::paste::{LineRole, split_paste};
use crate::schema::{F_BODY, F_CODE, F_SIG, F_TITLE, KbSchema, TEXT_FIELDS};
use crate::script::is_cjk;
use std::collections::HashMap;
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur,
    PhraseQuery, Query, TermQuery,
};
use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, Term};

/// Ranking switches and constants. Defaults are the shipped ranking; switching a part off is
/// for ablations (`kbook eval`) and debugging.
#[derive(Debug, Clone)]
pub struct Tuning {
    /// The baseline: plain BM25, every query word OR-ed over title and body with the prose
    /// analyzer, no other part (see [`Tuning::plain_bm25`]).
    pub plain_bm25: bool,
    /// Classify paste lines (messages, frames, prefixes); off: every line weighs 1.
    pub paste_splitting: bool,
    /// Keep only the `max_terms` most informative query words (weight × idf).
    pub rarity_cut: bool,
    /// Also drop terms found in more than half of the entries (off: measured worse).
    pub common_cut: bool,
    /// Phrase clauses for adjacent pairs of the root-cause line.
    pub phrase_pairs: bool,
    /// One-edit fuzzy matching for unknown words of 5+ letters in short queries.
    pub typo_tolerance: bool,
    /// Drop function and question words (`how`, `the`, `does`) from the term clauses.
    pub stopwords: bool,
    /// Score each query word by its best field (plus `field_tie` of the others) instead of
    /// summing every field it matches: a word found in five fields is still one word.
    pub field_dismax: bool,
    /// Score a word with one idf in every field (its largest document frequency over fields).
    pub shared_idf: bool,
    /// How much of the shared idf replaces a field's own idf (0: none, 1: all).
    pub shared_idf_mix: f32,
    /// Lower the signature boost to `plain_sig_boost` for typed words (see `is_plain_words`).
    pub query_intent: bool,
    /// Signature boost for typed-word queries.
    pub plain_sig_boost: f32,
    /// Rerank the first candidates by the share of the query's informative words they match.
    pub coverage_rerank: bool,
    /// Pairs skip function words and allow slop in prose fields (off: measured neutral on
    /// the bundled book and worse with distractors, whose bodies are word soup).
    pub word_pairs: bool,
    /// Share of a word's other field scores added to its best field score (with `field_dismax`).
    pub field_tie: f32,
    /// Weight of coverage in the rerank: score × (1 − w + w × coverage).
    pub coverage_weight: f32,
    /// Per-field boosts, in schema order (sig, ids, title, tags, body, code).
    pub field_boosts: [f32; 6],
    /// Weight of a stack-frame line relative to a message line.
    pub frame_weight: f32,
    /// Weight of other (context) lines.
    pub other_weight: f32,
    /// Weight of the leading exception classes of a line that goes on with a message
    /// (`java.sql.BatchUpdateException: <message>`), relative to the message's words.
    pub wrapper_weight: f32,
    /// Weight of message lines other than the root cause (outer layers of a cause chain).
    pub outer_weight: f32,
    /// Number of distinct query words kept by the rarity cut.
    pub max_terms: usize,
    /// Boost of a root-cause phrase pair relative to its field boost.
    pub pair_boost: f32,
    /// Boost of a quoted phrase relative to its field boost.
    pub quoted_boost: f32,
    /// Confidence: the query repeats at least this many consecutive tokens of one of the
    /// first hit's error texts ...
    pub min_error_run: usize,
    /// ... covering at least this share of that error text ...
    pub min_error_share: f32,
    /// ... and at least this share of the query's words occur in the book. Measured on real
    /// users' queries, only a documented error repeated verbatim made the first hit right
    /// ≥ 95% of the time; score floors, coverage and margins did not.
    pub min_known_share: f32,
    /// ... and the query does not go on differently where the error text goes on (see
    /// [`crate::Signals::error_diverges`]).
    pub no_divergence: bool,
    /// Weigh words that name one of the book's connectors (`datahub`, `clickhouse`) by
    /// `connector_weight`: a question about one connector is rarely answered by another's entry.
    pub connector_mentions: bool,
    /// Weight multiplier of a connector-naming word (see `connector_mentions`).
    pub connector_weight: f32,
    /// In a short query, the last word is also matched as a prefix when nothing follows it
    /// (search as you type: `kafka offs` finds "offsets").
    pub prefix_last_word: bool,
    /// Boost of a prefix clause relative to its field boost (prefix clauses score a constant).
    pub prefix_boost: f32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            plain_bm25: false,
            paste_splitting: true,
            rarity_cut: true,
            common_cut: false,
            phrase_pairs: true,
            typo_tolerance: true,
            stopwords: true,
            field_dismax: true,
            shared_idf: true,
            shared_idf_mix: 0.5,
            query_intent: true,
            plain_sig_boost: 1.5,
            coverage_rerank: true,
            word_pairs: false,
            field_tie: 0.3,
            coverage_weight: 0.5,
            field_boosts: TEXT_FIELDS.map(|f| f.boost),
            frame_weight: 0.15,
            other_weight: 0.6,
            wrapper_weight: 0.35,
            outer_weight: 0.7,
            max_terms: 64,
            pair_boost: 0.5,
            quoted_boost: 2.0,
            min_error_run: 4,
            min_error_share: 0.5,
            min_known_share: 0.7,
            no_divergence: true,
            connector_mentions: true,
            connector_weight: 4.0,
            prefix_last_word: true,
            prefix_boost: 2.0,
        }
    }
}

impl Tuning {
    /// Plain BM25 over title and body: the baseline every ranking part must beat on real
    /// users' queries. It has no notion of confidence: every non-empty result is "confident".
    pub fn plain_bm25() -> Tuning {
        Tuning {
            plain_bm25: true,
            coverage_rerank: false,
            ..Tuning::default()
        }
    }
}

/// Input beyond this many bytes is cut (head and tail are kept: the root cause is often last).
const MAX_QUERY_BYTES: usize = 256 * 1024;
const MAX_PAIRS: usize = 24;
/// Query words kept when the rarity cut is switched off (an ablation), to bound the clauses.
const MAX_TERMS_UNCUT: usize = 512;
/// Slop of word pairs in prose fields: up to two words between, or the two words swapped.
const PAIR_SLOP: u32 = 2;
const MAX_QUOTED: usize = 8;
/// Lines of a paste compared with the top entry's error texts (for confidence).
const MAX_SIG_LINES: usize = 64;
/// Short queries get typo tolerance.
const SHORT_QUERY_WORDS: usize = 6;

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
}

/// The built query and what the result assembly needs from it.
pub(crate) struct BuiltQuery {
    pub clauses: Vec<Clause>,
    /// Kept query words and their informativeness (weight × idf).
    pub surfaces: Vec<(String, f32)>,
    /// Query terms per text field, for highlighting and matched-error selection.
    pub field_terms: [HashMap<String, f32>; 6],
    /// The signature-analyzed parts of each message and context line (not frames), for
    /// finding how much of an entry's error text the query repeats verbatim.
    pub sig_lines: Vec<Vec<String>>,
    /// Share of the query's words (not function words) that occur in the book at all: a
    /// paste from another system is mostly words the book never uses.
    pub known_share: f32,
}

/// Cuts very long input to its head and tail on char boundaries.
pub(crate) fn clamp_input(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_QUERY_BYTES {
        return std::borrow::Cow::Borrowed(text);
    }
    let half = MAX_QUERY_BYTES / 2;
    let mut head_end = half;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = text.len() - half;
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    std::borrow::Cow::Owned(format!("{}\n{}", &text[..head_end], &text[tail_start..]))
}

/// `"..."` spans of the query (balanced, on one line); unbalanced quotes are ignored.
pub(crate) fn quoted_spans(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(a) = rest.find('"') {
            let after = &rest[a + 1..];
            match after.find('"') {
                Some(b) => {
                    let inner = after[..b].trim();
                    if !inner.is_empty() && out.len() < MAX_QUOTED {
                        out.push(inner);
                    }
                    rest = &after[b + 1..];
                }
                None => break,
            }
        }
    }
    out
}

fn idf(df: u64, n: u64) -> f32 {
    let (df, n) = (df as f32, n as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

struct Candidate {
    field: usize,
    text: String,
    surface: usize,
    weight: f32,
    df: u64,
}

/// Document-frequency lookups, cached (long pastes repeat terms across lines and fields).
struct DfCache<'a> {
    searcher: &'a Searcher,
    kb: &'a KbSchema,
    cache: HashMap<(usize, String), u64>,
}

impl DfCache<'_> {
    fn df(&mut self, field: usize, text: &str) -> u64 {
        if let Some(&d) = self.cache.get(&(field, text.to_string())) {
            return d;
        }
        let term = Term::from_field_text(self.kb.text[field], text);
        // A lookup failure means "unknown term": it then simply does not contribute.
        let d = self.searcher.doc_freq(&term).unwrap_or(0);
        self.cache.insert((field, text.to_string()), d);
        d
    }
}

fn term_clause(kb: &KbSchema, field: usize, text: &str, boost: f32) -> Box<dyn Query> {
    let term = Term::from_field_text(kb.text[field], text);
    Box::new(BoostQuery::new(
        Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)),
        boost,
    ))
}

fn phrase_clause(
    kb: &KbSchema,
    field: usize,
    words: &[String],
    boost: f32,
) -> Option<Box<dyn Query>> {
    // PhraseQuery asserts at least two terms.
    if words.len() < 2 {
        return None;
    }
    let terms: Vec<Term> = words
        .iter()
        .map(|w| Term::from_field_text(kb.text[field], w))
        .collect();
    Some(Box::new(BoostQuery::new(
        Box::new(PhraseQuery::new(terms)),
        boost,
    )))
}

/// One or two digits (`node 1`, `row 0`): counters and ids, never what an entry is about.
/// Error codes have more (`1366`, `4019`).
fn is_short_number(t: &str) -> bool {
    t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit())
}

fn is_mask(t: &str) -> bool {
    t.starts_with('§')
}

/// English function words and question words. They say how a question is asked, not what it
/// is about, so they never become term clauses (unless nothing else is left). Negations
/// (`no`, `not`, `cannot`) are not here: they matter in error messages.
const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as",
    "at", "be", "because", "been", "before", "being", "both", "but", "by", "can", "could", "did",
    "do", "does", "doing", "done", "during", "each", "else", "even", "ever", "for", "from", "get",
    "gets", "getting", "got", "had", "has", "have", "having", "he", "her", "here", "him", "his",
    "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "let", "like", "may",
    "me", "might", "more", "most", "much", "must", "my", "myself", "now", "of", "on", "once",
    "only", "or", "other", "our", "out", "over", "own", "please", "same", "she", "should", "so",
    "some", "still", "such", "than", "that", "the", "their", "them", "then", "there", "these",
    "they", "this", "those", "through", "to", "too", "under", "until", "up", "us", "very", "was",
    "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with",
    "would", "you", "your",
];

/// Whether the query is typed words (a question or keywords), not a pasted error: one line,
/// no error punctuation (`:`, `=`, brackets, quotes) and no identifiers (dotted, snake_case,
/// CamelCase, codes with digits). All-caps words (`PRIMARY KEY`) may appear in questions.
pub(crate) fn is_plain_words(paste: &crate::paste::Paste<'_>) -> bool {
    let [line] = paste.lines.as_slice() else {
        return false;
    };
    if line
        .text
        .contains([':', '=', '[', ']', '(', ')', '{', '}', '<', '>', '"', '`'])
    {
        return false;
    }
    line.text.split_whitespace().all(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let all_caps = letters > 0 && w.chars().all(|c| !c.is_lowercase());
        let identifier = w.contains(['.', '_', '$', '/', '\\'])
            || (letters > 0 && w.chars().any(|c| c.is_ascii_digit()))
            || (!all_caps && w.chars().skip(1).any(char::is_uppercase));
        !identifier
    })
}

/// The last word of `text`, lowercased, when it may be unfinished: at least 3 letters, only
/// letters, and nothing (no space, no punctuation) after it.
pub(crate) fn unfinished_last_word(text: &str) -> Option<String> {
    let start = text
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_alphanumeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &text[start..];
    // CJK text has no word ends to complete: its bigrams already match inside words.
    (word.chars().count() >= 3 && word.chars().all(|c| c.is_alphabetic() && !is_cjk(c)))
        .then(|| word.to_lowercase())
}

/// Whether a query word is a function or question word.
pub(crate) fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// Builds the query for `text`.
pub(crate) fn build_query(
    text: &str,
    searcher: &Searcher,
    kb: &KbSchema,
    tuning: &Tuning,
) -> BuiltQuery {
    let text = clamp_input(text);
    if tuning.plain_bm25 {
        return build_plain_bm25(&text, kb);
    }
    let n = searcher.num_docs().max(1);
    let mut dfc = DfCache {
        searcher,
        kb,
        cache: HashMap::new(),
    };

    let paste = split_paste(&text);
    // Typed words are matched against what entries are about (titles, bodies) more than
    // against verbatim error strings, which are there for pasted errors.
    let mut boosts = tuning.field_boosts;
    if tuning.query_intent && is_plain_words(&paste) {
        boosts[F_SIG] = boosts[F_SIG].min(tuning.plain_sig_boost);
    }
    let mut surfaces: Vec<String> = Vec::new();
    let mut surface_ix: HashMap<String, usize> = HashMap::new();
    let mut cands: HashMap<(usize, String), Candidate> = HashMap::new();
    let messages = paste
        .lines
        .iter()
        .filter(|l| l.role == LineRole::Message)
        .count();
    for (li, line) in paste.lines.iter().enumerate() {
        let w = if !tuning.paste_splitting {
            1.0
        } else {
            match line.role {
                LineRole::Message if messages > 1 && paste.root_cause != Some(li) => {
                    tuning.outer_weight
                }
                LineRole::Message => 1.0,
                LineRole::Other => tuning.other_weight,
                LineRole::Frame => tuning.frame_weight,
            }
        };
        // Values the signature analyzer masks (IPs, UUIDs, hex ids) are noise in every field:
        // `127.0.0.1` must not match a `1` in some entry's code.
        let values: Vec<(usize, usize)> = if tuning.paste_splitting {
            analyze(line.text, TEXT_FIELDS[F_SIG].analyzer)
                .into_iter()
                .filter(|t| matches!(t.text.as_str(), "§ip" | "§uuid" | "§hex"))
                .map(|t| (t.from, t.to))
                .collect()
        } else {
            Vec::new()
        };
        let message_from = if tuning.paste_splitting && line.role != LineRole::Frame {
            crate::paste::message_start(line.text).unwrap_or(0)
        } else {
            0
        };
        for (fi, f) in TEXT_FIELDS.iter().enumerate() {
            for tok in analyze(line.text, f.analyzer) {
                if is_mask(&tok.text)
                    || values.iter().any(|&(a, b)| a <= tok.from && tok.to <= b)
                    || (tuning.paste_splitting && is_short_number(&tok.text))
                {
                    continue;
                }
                let w = if tok.to <= message_from {
                    w * tuning.wrapper_weight
                } else {
                    w
                };
                let surface_text = line
                    .text
                    .get(tok.from..tok.to)
                    .unwrap_or(&tok.text)
                    .to_lowercase();
                let next = surfaces.len();
                let s = *surface_ix.entry(surface_text.clone()).or_insert(next);
                if s == next {
                    surfaces.push(surface_text);
                }
                let c = cands.entry((fi, tok.text.clone())).or_insert(Candidate {
                    field: fi,
                    text: tok.text,
                    surface: s,
                    weight: 0.0,
                    df: 0,
                });
                c.weight = c.weight.max(w);
            }
        }
    }

    // Words naming a connector of the book say which entries the reader means. The connector
    // slug is a raw keyword field of every entry, so this is one exact term lookup per word.
    if tuning.connector_mentions {
        let named: Vec<bool> = surfaces
            .iter()
            .map(|w| {
                searcher
                    .doc_freq(&Term::from_field_text(kb.connector, w))
                    .unwrap_or(0)
                    > 0
            })
            .collect();
        for c in cands.values_mut() {
            if named[c.surface] {
                c.weight *= tuning.connector_weight.max(0.0);
            }
        }
    }
    // Document frequencies; unknown terms cannot score.
    let mut cands: Vec<Candidate> = cands.into_values().collect();
    cands.sort_by(|a, b| (a.field, &a.text).cmp(&(b.field, &b.text)));
    for c in &mut cands {
        c.df = dfc.df(c.field, &c.text);
    }
    let mut unknown_surfaces: Vec<bool> = vec![true; surfaces.len()];
    for c in &cands {
        if c.df > 0 {
            unknown_surfaces[c.surface] = false;
        }
    }
    cands.retain(|c| c.df > 0);

    // Function and question words go, unless nothing else would be left.
    if tuning.stopwords {
        let content = |c: &Candidate| !is_stopword(&surfaces[c.surface]);
        if cands.iter().any(content) {
            cands.retain(content);
        }
    }

    // A word's document frequency is its largest over the fields (a lower bound of the
    // entries that contain it anywhere). Scoring every field with this one idf, as BM25F
    // does, stops a word common in bodies from looking rare in a small field (a question's
    // "writing" in one error string).
    let mut surface_df: Vec<u64> = vec![0; surfaces.len()];
    for c in &cands {
        surface_df[c.surface] = surface_df[c.surface].max(c.df);
    }
    let word_df = |c: &Candidate| {
        if tuning.shared_idf {
            surface_df[c.surface]
        } else {
            c.df
        }
    };

    // Common-term cut (off by default): drop terms in more than half of the entries (unless
    // nothing would remain). Measured: on a small book it removes words such as the connector
    // name that BM25's low idf already weighs correctly, and coverage needs them.
    if tuning.common_cut && n >= 4 {
        let rare = |c: &Candidate| c.df * 2 <= n;
        if cands.iter().any(rare) {
            cands.retain(rare);
        }
    }
    let mut surface_score: Vec<f32> = vec![0.0; surfaces.len()];
    for c in &cands {
        let s = c.weight * idf(c.df, n);
        if s > surface_score[c.surface] {
            surface_score[c.surface] = s;
        }
    }
    let mut ranked: Vec<usize> = (0..surfaces.len())
        .filter(|&s| surface_score[s] > 0.0)
        .collect();
    ranked.sort_by(|&a, &b| {
        surface_score[b]
            .total_cmp(&surface_score[a])
            .then(surfaces[a].cmp(&surfaces[b]))
    });
    // Keep the most informative words; even without the rarity cut a whole log pasted in
    // must not become thousands of clauses.
    ranked.truncate(if tuning.rarity_cut {
        tuning.max_terms.max(1)
    } else {
        MAX_TERMS_UNCUT
    });
    let mut keep = vec![false; surfaces.len()];
    for &s in &ranked {
        keep[s] = true;
    }

    let mut clauses: Vec<Clause> = Vec::new();
    let mut field_terms: [HashMap<String, f32>; 6] = Default::default();
    for c in cands.iter().filter(|c| keep[c.surface]) {
        // Tantivy scores with the field's own idf; rescale it to the word's shared idf.
        let idf_scale = if tuning.shared_idf {
            let own = idf(c.df, n).max(f32::EPSILON);
            let mix = tuning.shared_idf_mix.clamp(0.0, 1.0);
            (mix * idf(word_df(c), n) + (1.0 - mix) * own) / own
        } else {
            1.0
        };
        let boost = boosts[c.field] * c.weight * idf_scale;
        clauses.push(Clause {
            query: term_clause(kb, c.field, &c.text, boost),
            field: c.field,
            kind: ClauseKind::Term,
            label: c.text.clone(),
            surface: Some(c.surface),
        });
        field_terms[c.field].insert(c.text.clone(), c.weight * idf(word_df(c), n));
    }

    // Phrase pairs from the root-cause line (for a question, the question itself): adjacent
    // parts that both occur in the field. With `word_pairs`, function words are skipped and
    // prose fields allow a little slop, so "partitions of a kafka topic" still pairs
    // "partitions" with "kafka topic" and "topic partitions".
    if tuning.phrase_pairs
        && let Some(root) = paste.root_cause.and_then(|r| paste.lines.get(r))
    {
        for fi in [F_SIG, F_TITLE, F_BODY] {
            let prose = fi != F_SIG;
            let parts: Vec<Tok> = analyze(root.text, TEXT_FIELDS[fi].analyzer)
                .into_iter()
                .filter(|t| t.part)
                .filter(|t| {
                    !tuning.word_pairs
                        || !root
                            .text
                            .get(t.from..t.to)
                            .is_some_and(|w| is_stopword(&w.to_lowercase()))
                })
                .collect();
            let mut seen: Vec<(String, String)> = Vec::new();
            for w in parts.windows(2) {
                if seen.len() >= MAX_PAIRS {
                    break;
                }
                let (a, b) = (&w[0], &w[1]);
                if (!tuning.word_pairs && b.pos != a.pos + 1)
                    || (is_mask(&a.text) && is_mask(&b.text))
                    || a.text == b.text
                {
                    continue;
                }
                let key = (a.text.clone(), b.text.clone());
                if seen.contains(&key) || dfc.df(fi, &a.text) == 0 || dfc.df(fi, &b.text) == 0 {
                    continue;
                }
                seen.push(key);
                // Prose: the two words within PAIR_SLOP; signatures: exactly as in the paste.
                let (gap, slop) = if tuning.word_pairs && prose {
                    (1, PAIR_SLOP)
                } else {
                    (b.pos.saturating_sub(a.pos).max(1), 0)
                };
                let terms = vec![
                    (0, Term::from_field_text(kb.text[fi], &a.text)),
                    (gap, Term::from_field_text(kb.text[fi], &b.text)),
                ];
                let q = PhraseQuery::new_with_offset_and_slop(terms, slop);
                clauses.push(Clause {
                    query: Box::new(BoostQuery::new(Box::new(q), boosts[fi] * tuning.pair_boost)),
                    field: fi,
                    kind: ClauseKind::Pair,
                    label: format!("\"{} {}\"", a.text, b.text),
                    surface: None,
                });
            }
        }
    }

    // Quoted text is a phrase (a strong SHOULD: a pasted line may contain quotes too).
    for q in quoted_spans(&text) {
        for fi in [F_SIG, F_TITLE, F_BODY, F_CODE] {
            let words: Vec<String> = analyze(q, TEXT_FIELDS[fi].analyzer)
                .into_iter()
                .filter(|t| t.part)
                .map(|t| t.text)
                .collect();
            if words.len() < 2 || words.iter().any(|w| dfc.df(fi, w) == 0) {
                continue;
            }
            for w in &words {
                field_terms[fi].entry(w.clone()).or_insert(0.0);
            }
            if let Some(query) = phrase_clause(kb, fi, &words, boosts[fi] * tuning.quoted_boost) {
                clauses.push(Clause {
                    query,
                    field: fi,
                    kind: ClauseKind::Quoted,
                    label: format!("\"{}\"", words.join(" ")),
                    surface: None,
                });
            }
        }
    }

    // Typo tolerance: short queries, words of 5+ letters that match nothing.
    let word_count = paste
        .lines
        .iter()
        .map(|l| l.text.split_whitespace().count())
        .sum::<usize>();
    if tuning.typo_tolerance && paste.lines.len() == 1 && word_count <= SHORT_QUERY_WORDS {
        for (s, surface) in surfaces.iter().enumerate() {
            if !unknown_surfaces[s]
                || surface.chars().count() < 5
                || !surface.chars().all(char::is_alphabetic)
            {
                continue;
            }
            for fi in [F_SIG, F_TITLE, F_BODY] {
                for tok in analyze(surface, TEXT_FIELDS[fi].analyzer) {
                    let term = Term::from_field_text(kb.text[fi], &tok.text);
                    let q = FuzzyTermQuery::new(term, 1, true);
                    let boost = boosts[fi] * 0.5;
                    clauses.push(Clause {
                        query: Box::new(BoostQuery::new(Box::new(q), boost)),
                        field: fi,
                        kind: ClauseKind::Fuzzy,
                        label: format!("~{}", tok.text),
                        surface: None,
                    });
                }
            }
        }
    }

    // Search as you type: in a short query whose last word may be unfinished (the text does
    // not end with a space or punctuation), that word is also a prefix (`kafka offs` finds
    // "offsets"). The clause scores a constant, so a finished word gains only a little from
    // it (measured neutral on the labelled sets). Prose fields hold stems, so the prefix is
    // the word's stem there.
    if tuning.prefix_last_word
        && paste.lines.len() == 1
        && word_count <= SHORT_QUERY_WORDS
        && let Some(word) = unfinished_last_word(&text)
    {
        for fi in [F_SIG, F_TITLE, F_BODY] {
            let Some(prefix) = analyze(&word, TEXT_FIELDS[fi].analyzer)
                .into_iter()
                .find(|t| t.part)
                .map(|t| t.text)
            else {
                continue;
            };
            let term = Term::from_field_text(kb.text[fi], &prefix);
            let q = FuzzyTermQuery::new_prefix(term, 0, true);
            clauses.push(Clause {
                query: Box::new(BoostQuery::new(
                    Box::new(q),
                    boosts[fi] * tuning.prefix_boost,
                )),
                field: fi,
                kind: ClauseKind::Fuzzy,
                label: format!("{prefix}*"),
                surface: None,
            });
        }
    }

    let kept: Vec<(String, f32)> = surfaces
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), if keep[i] { surface_score[i] } else { 0.0 }))
        .collect();
    let sig_lines = paste
        .lines
        .iter()
        .filter(|l| l.role != LineRole::Frame)
        .take(MAX_SIG_LINES)
        .map(|l| {
            analyze(
                crate::paste::message_part(l.text),
                TEXT_FIELDS[F_SIG].analyzer,
            )
            .into_iter()
            .filter(|t| t.part)
            .map(|t| t.text)
            .collect()
        })
        .collect();
    let content_words: Vec<bool> = surfaces
        .iter()
        .map(|w| !is_stopword(w) && w.chars().any(char::is_alphabetic))
        .collect();
    let words = content_words.iter().filter(|c| **c).count();
    let known = (0..surfaces.len())
        .filter(|&i| content_words[i] && !unknown_surfaces[i])
        .count();
    let known_share = if words > 0 {
        known as f32 / words as f32
    } else {
        0.0
    };
    BuiltQuery {
        clauses,
        surfaces: kept,
        field_terms,
        sig_lines,
        known_share,
    }
}

/// The baseline query: each distinct prose word of the text as a SHOULD term clause on title
/// and body, boost 1 (capped at `MAX_TERMS_UNCUT` words, in text order).
fn build_plain_bm25(text: &str, kb: &KbSchema) -> BuiltQuery {
    let mut clauses = Vec::new();
    let mut surfaces: Vec<(String, f32)> = Vec::new();
    let mut field_terms: [HashMap<String, f32>; 6] = Default::default();
    for tok in analyze(text, TEXT_FIELDS[F_BODY].analyzer) {
        if surfaces.iter().any(|(s, _)| *s == tok.text) {
            continue;
        }
        if surfaces.len() >= MAX_TERMS_UNCUT {
            break;
        }
        let s = surfaces.len();
        for fi in [F_TITLE, F_BODY] {
            clauses.push(Clause {
                query: term_clause(kb, fi, &tok.text, 1.0),
                field: fi,
                kind: ClauseKind::Term,
                label: tok.text.clone(),
                surface: Some(s),
            });
            field_terms[fi].insert(tok.text.clone(), 1.0);
        }
        surfaces.push((tok.text, 1.0));
    }
    BuiltQuery {
        clauses,
        surfaces,
        field_terms,
        sig_lines: Vec::new(),
        known_share: 1.0,
    }
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
                c.surface,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_spans_ignore_unbalanced() {
        assert_eq!(quoted_spans(r#"foo "bar baz" qux "open"#), vec!["bar baz"]);
        assert!(quoted_spans(r#"""""#).is_empty());
        assert!(quoted_spans("\"\n\"").is_empty());
    }

    #[test]
    fn stopwords_are_sorted_and_spare_negations() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stopword("how") && is_stopword("the") && is_stopword("does"));
        for w in ["no", "not", "cannot", "kafka", "timeout"] {
            assert!(!is_stopword(w), "{w}");
        }
    }

    #[test]
    fn plain_words_versus_pasted_errors() {
        let plain = |q: &str| is_plain_words(&split_paste(q));
        assert!(plain(
            "does flink detect new kafka partitions automatically"
        ));
        assert!(plain("should I declare the id as PRIMARY KEY for RDS?"));
        assert!(plain("I can't find any files"));
        assert!(!plain("ErrorMessage=Authorization Failed [4019]"));
        assert!(!plain("java.lang.OutOfMemoryError: Java heap space"));
        assert!(!plain("sls batchGetSize oom"));
        assert!(!plain("max_poll_records too small"));
        assert!(!plain("Caused by: x\n\tat a.b.C.m(C.java:1)"));
        assert!(!plain(""));
    }

    #[test]
    fn unfinished_last_word_needs_nothing_after_it() {
        assert_eq!(unfinished_last_word("kafka offs").as_deref(), Some("offs"));
        assert_eq!(unfinished_last_word("Rebal").as_deref(), Some("rebal"));
        assert_eq!(unfinished_last_word("kafka offs "), None);
        assert_eq!(unfinished_last_word("kafka offsets?"), None);
        assert_eq!(unfinished_last_word("kafka of"), None);
        assert_eq!(unfinished_last_word("error 4019"), None);
        assert_eq!(unfinished_last_word(""), None);
        assert_eq!(unfinished_last_word("schéma").as_deref(), Some("schéma"));
    }

    #[test]
    fn clamp_keeps_head_and_tail_on_char_boundaries() {
        let s = "é".repeat(MAX_QUERY_BYTES);
        let c = clamp_input(&s);
        assert!(c.len() <= MAX_QUERY_BYTES + 1);
        assert!(c.starts_with('é') && c.ends_with('é'));
    }
}
