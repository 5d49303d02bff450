//! Which query words count and how much: candidate terms from the paste's lines, weighted
//! by line role, connector mentions and document frequency, then the rarity cut.

use super::MAX_TERMS_UNCUT;
use super::Tuning;
use super::text::{is_function_pair, is_mask, is_short_number, is_stopword};
use crate::analysis::analyze;
use crate::paste::{LineRole, Paste};
use crate::schema::{F_BODY, F_SIG, F_TITLE, KbSchema, TEXT_FIELDS};
use std::collections::HashMap;
use tantivy::{Searcher, Term};

pub(super) fn idf(df: u64, n: u64) -> f32 {
    let (df, n) = (df as f32, n as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// A possible term clause: one analyzed term of one field, from query word `surface`.
pub(super) struct Candidate {
    pub field: usize,
    pub text: String,
    pub surface: usize,
    /// The identifier segment the word is a part of (see [`crate::query::Clause::group`]).
    pub group: usize,
    pub weight: f32,
    pub df: u64,
}

/// Candidates by (field, term), before document frequencies are known.
pub(super) type Candidates = HashMap<(usize, String), Candidate>;

/// Term lookups, cached (long pastes repeat terms across lines and fields): per (field,
/// term) the document frequency and the bytes of its positions, from one term-info read.
pub(super) struct DfCache<'a> {
    searcher: &'a Searcher,
    kb: &'a KbSchema,
    cache: HashMap<(usize, String), (u64, usize)>,
}

impl<'a> DfCache<'a> {
    pub(super) fn new(searcher: &'a Searcher, kb: &'a KbSchema) -> Self {
        DfCache {
            searcher,
            kb,
            cache: HashMap::new(),
        }
    }

    pub(super) fn df(&mut self, field: usize, text: &str) -> u64 {
        self.lookup(field, text).0
    }

    /// Bytes of the positions of `text` in `field` over all segments: what a phrase clause
    /// on it reads (in the browser, fetches).
    pub(super) fn positions_bytes(&mut self, field: usize, text: &str) -> usize {
        self.lookup(field, text).1
    }

    fn lookup(&mut self, field: usize, text: &str) -> (u64, usize) {
        if let Some(&v) = self.cache.get(&(field, text.to_string())) {
            return v;
        }
        let term = Term::from_field_text(self.kb.text[field], text);
        // A lookup failure means "unknown term": it then simply does not contribute.
        let mut found = (0u64, 0usize);
        for reader in self.searcher.segment_readers() {
            let info = reader
                .inverted_index(term.field())
                .ok()
                .map(|inv| inv.get_term_info(&term));
            match info {
                Some(Ok(Some(info))) => {
                    found.0 += u64::from(info.doc_freq);
                    found.1 += info.positions_range.len();
                }
                Some(Ok(None)) => {}
                _ => {
                    found = (0, 0);
                    break;
                }
            }
        }
        self.cache.insert((field, text.to_string()), found);
        found
    }
}

/// The weight of a line by its role in the paste. Every message line weighs the same: outer
/// layers of a cause chain weighed less (0.7) for a while, which moved no query of any set
/// (0.3 lost two machine texts); the root cause is still read apart, for its phrase pairs.
fn line_weight(role: LineRole, tuning: &Tuning) -> f32 {
    if !tuning.paste_splitting {
        return 1.0;
    }
    match role {
        LineRole::Message => 1.0,
        LineRole::Other => tuning.other_weight,
        LineRole::Wrapper => tuning.wrapper_weight,
        LineRole::Frame => tuning.frame_weight,
        LineRole::Prose => tuning.prose_weight,
    }
}

/// The query words (lowercased surface forms, in order of appearance), which of them the
/// known share does not count (they occur only in the reader's prose around a paste, or in the
/// Java runtime's frames), and every field's terms for them, each with the largest weight of
/// the lines it occurs on.
pub(super) fn candidates(
    paste: &Paste<'_>,
    tuning: &Tuning,
) -> (Vec<String>, Vec<bool>, Candidates) {
    let mut surfaces: Vec<String> = Vec::new();
    let mut uncounted: Vec<bool> = Vec::new();
    let mut surface_ix: HashMap<String, usize> = HashMap::new();
    let mut cands: Candidates = HashMap::new();
    let mut group_ix: HashMap<String, usize> = HashMap::new();
    for line in &paste.lines {
        let w = line_weight(line.role, tuning);
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
        // The known share counts the words of the query's own lines only (see
        // `Tuning::runtime_frames`).
        let uncounted_line = line.role == LineRole::Prose
            || (tuning.runtime_frames
                && line.role == LineRole::Frame
                && crate::paste::is_runtime_frame(line.text));
        let message_from = if tuning.paste_splitting && line.role != LineRole::Frame {
            crate::paste::message_start(line.text).unwrap_or(0)
        } else {
            0
        };
        for (fi, f) in TEXT_FIELDS.iter().enumerate() {
            for tok in analyze(line.text, f.analyzer) {
                if is_mask(&tok.text)
                    || within_value(&values, tok.from, tok.to)
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
                // Not in any field's query: a bigram across a word boundary matches any text
                // with that character next to the particle.
                if tuning.stopwords && is_function_pair(&surface_text) {
                    continue;
                }
                let next = surfaces.len();
                let s = *surface_ix.entry(surface_text.clone()).or_insert(next);
                if s == next {
                    surfaces.push(surface_text);
                    uncounted.push(true);
                }
                uncounted[s] &= uncounted_line;
                let segment = ascii_segment(line.text, tok.from, tok.to).to_ascii_lowercase();
                let next = group_ix.len();
                let g = *group_ix.entry(segment).or_insert(next);
                let c = cands.entry((fi, tok.text.clone())).or_insert(Candidate {
                    field: fi,
                    text: tok.text,
                    surface: s,
                    group: g,
                    weight: 0.0,
                    df: 0,
                });
                c.weight = c.weight.max(w);
            }
        }
    }
    (surfaces, uncounted, cands)
}

/// Whether `from..to` lies inside one of `values`, spans in text order that do not overlap
/// (the analyzer's masked values): a binary search, as a pasted blob can hold thousands.
fn within_value(values: &[(usize, usize)], from: usize, to: usize) -> bool {
    let after = values.partition_point(|&(a, _)| a <= from);
    after > 0 && to <= values[after - 1].1
}

/// The run of ASCII letters and digits around `text[from..to]` (an identifier segment:
/// `MongoDB` for its part `mongo`); the span itself when it is not ASCII alphanumeric, or when
/// the run is longer than [`MAX_SEGMENT_BYTES`] (a blob, not an identifier; walking it for each
/// of its parts would take time quadratic in its length).
fn ascii_segment(text: &str, from: usize, to: usize) -> &str {
    let bytes = text.as_bytes();
    let span = text.get(from..to).unwrap_or("");
    let alnum = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphanumeric);
    if from >= to || !(from..to).all(alnum) {
        return span;
    }
    let mut a = from;
    while a > 0 && alnum(a - 1) {
        a -= 1;
        if to - a > MAX_SEGMENT_BYTES {
            return span;
        }
    }
    let mut b = to;
    while alnum(b) {
        b += 1;
        if b - a > MAX_SEGMENT_BYTES {
            return span;
        }
    }
    text.get(a..b).unwrap_or("")
}

/// The longest identifier segment whose parts count as one word: as long as the longest chunk
/// the analyzers emit whole.
const MAX_SEGMENT_BYTES: usize = 160;

/// Words naming a connector of the book say which entries the reader means.
pub(super) fn weigh_connector_mentions(cands: &mut Candidates, named: &[bool], tuning: &Tuning) {
    // The extra weight is shared by the connectors named: a question about moving data from
    // one to another is about both, and the rarer name alone should not decide.
    let n = named.iter().filter(|n| **n).count().max(1) as f32;
    let w = 1.0 + (tuning.connector_weight.max(0.0) - 1.0) / n;
    for c in cands.values_mut() {
        if named[c.surface] {
            c.weight *= w;
        }
    }
}

/// Which query words name one of the book's connectors. The connector slug is a raw keyword
/// field of every entry, so this is one exact term lookup per word. A word that is only a
/// part of a named hyphenated slug (`kafka` of `upsert-kafka`) names nothing by itself.
pub(super) fn named_connectors(
    surfaces: &[String],
    searcher: &Searcher,
    kb: &KbSchema,
) -> Vec<bool> {
    let named: Vec<bool> = surfaces
        .iter()
        .map(|w| in_keyword_field(w, kb.connector, searcher))
        .collect();
    let part_of_named = |w: &str| {
        surfaces
            .iter()
            .zip(&named)
            .any(|(other, &n)| n && other != w && other.split('-').any(|p| p == w))
    };
    surfaces
        .iter()
        .zip(&named)
        .map(|(w, &n)| n && !part_of_named(w))
        .collect()
}

/// The book's connector aliases, each with the slug it names: the whole dictionary of the
/// `alias_of` keyword field (one `alias slug` term per alias of a connector with entries).
pub(super) fn alias_slugs(searcher: &Searcher, kb: &KbSchema) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for reader in searcher.segment_readers() {
        // A read failure leaves the query without aliases (in the browser, the planner
        // fetches the dictionary and the search runs again).
        let Ok(inv) = reader.inverted_index(kb.alias_of) else {
            continue;
        };
        let Ok(mut terms) = inv.terms().stream() else {
            continue;
        };
        while terms.advance() {
            let pair = std::str::from_utf8(terms.key())
                .ok()
                .and_then(|t| t.split_once(' '));
            if let Some((alias, slug)) = pair {
                out.push((alias.to_string(), slug.to_string()));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Other spellings of the reader's words that the book uses: two adjacent words the book
/// writes as one (`fail over` → `failover`, `job manager` → `jobmanager`), and a word the book
/// lacks split into two words it has (`bulkindexer` → `bulk indexer`, whose prose tokens are
/// `bulk` and `index`), and a name with a release glued to it (`kafka10` → `kafka`).
/// Only lowercase ASCII words (a glued name in any case: `Flink1.13`); a form counts as the
/// book's when it is one prose token with a document frequency in titles or bodies.
pub(super) fn compound_forms(text: &str, dfc: &mut DfCache<'_>) -> Vec<String> {
    let known = |dfc: &mut DfCache<'_>, w: &str| -> bool {
        match analyze(w, TEXT_FIELDS[F_BODY].analyzer).as_slice() {
            [t] => dfc.df(F_BODY, &t.text) > 0 || dfc.df(F_TITLE, &t.text) > 0,
            _ => false,
        }
    };
    let lower = |w: &str| w.bytes().all(|b| b.is_ascii_lowercase());
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2)
        .collect();
    let mut out: Vec<String> = Vec::new();
    for w in &words {
        if !(MIN_SPLIT_WORD..=MAX_SPLIT_WORD).contains(&w.len()) || !lower(w) || known(dfc, w) {
            continue;
        }
        // The first split into two known parts of three letters or more.
        let split = (MIN_COMPOUND_PART..=w.len() - MIN_COMPOUND_PART)
            .map(|i| w.split_at(i))
            .find(|(a, b)| known(dfc, a) && known(dfc, b));
        if let Some((a, b)) = split {
            out.push(format!("{a} {b}"));
        }
    }
    // A release glued to a name (`kafka10Reader`, `flink1.13`, `mysql8`): the name, when the
    // book has it and not the glued word.
    for run in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let letters = run.bytes().take_while(u8::is_ascii_alphabetic).count();
        let digits = run[letters..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let (name, glued) = (&run[..letters], &run[..letters + digits]);
        if letters >= MIN_COMPOUND_PART
            && digits > 0
            && !known(dfc, &glued.to_ascii_lowercase())
            && known(dfc, name)
        {
            out.push(name.to_string());
        }
    }
    for pair in words.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.len() >= MIN_COMPOUND_PART && b.len() >= MIN_COMPOUND_PART && lower(a) && lower(b) {
            let joined = format!("{a}{b}");
            if known(dfc, &joined) {
                out.push(joined);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Parts of a compound, and words joined into one, have at least this many letters.
const MIN_COMPOUND_PART: usize = 3;
/// Only words of at least this many letters are split.
const MIN_SPLIT_WORD: usize = 7;
/// Nor words longer than this: a run of letters that long is a blob (a hash, base64), not two
/// words, and trying each split point of a pasted blob would take time quadratic in its length.
const MAX_SPLIT_WORD: usize = 40;

/// Whether some entry has `word` in the keyword field `field`.
fn in_keyword_field(word: &str, field: tantivy::schema::Field, searcher: &Searcher) -> bool {
    searcher
        .doc_freq(&Term::from_field_text(field, word))
        .unwrap_or(0)
        > 0
}

/// The connectors the query names anywhere, by slug or alias: in its words, and in the ASCII
/// words of the whole text, log prefixes and stack frames included (a logger or package name
/// tells which system wrote the lines; reading a paste drops those). With `cross_connector`,
/// the slug of a section for every connector names none (`general` of `General error`).
pub(super) fn connectors_named_anywhere(
    text: &str,
    surfaces: &[String],
    searcher: &Searcher,
    kb: &KbSchema,
    cross_connector: bool,
) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .chain(surfaces.iter().cloned())
        .collect();
    words.sort_unstable();
    words.dedup();
    words.retain(|w| {
        (in_keyword_field(w, kb.connector, searcher) || in_keyword_field(w, kb.aliases, searcher))
            && !(cross_connector && in_keyword_field(w, kb.cross_connector, searcher))
    });
    words
}

/// The candidates with their document frequencies, in (field, term) order, without those
/// the book does not contain (they cannot score); and which query words are unknown in every
/// field.
pub(super) fn known_candidates(
    cands: Candidates,
    surfaces: usize,
    dfc: &mut DfCache<'_>,
) -> (Vec<Candidate>, Vec<bool>) {
    let mut cands: Vec<Candidate> = cands.into_values().collect();
    cands.sort_by(|a, b| (a.field, &a.text).cmp(&(b.field, &b.text)));
    for c in &mut cands {
        c.df = dfc.df(c.field, &c.text);
    }
    let mut unknown_surfaces: Vec<bool> = vec![true; surfaces];
    for c in &cands {
        if c.df > 0 {
            unknown_surfaces[c.surface] = false;
        }
    }
    cands.retain(|c| c.df > 0);
    (cands, unknown_surfaces)
}

/// Function and question words go, unless nothing else would be left.
pub(super) fn drop_function_words(cands: &mut Vec<Candidate>, surfaces: &[String]) {
    let content = |c: &Candidate| !is_stopword(&surfaces[c.surface]);
    if cands.iter().any(content) {
        cands.retain(content);
    }
}

/// How informative each query word is, and which are kept.
pub(super) struct Ranked {
    /// A word's document frequency: its largest over the fields (a lower bound of the entries
    /// that contain it anywhere).
    pub surface_df: Vec<u64>,
    /// A word's best weight × idf over its terms.
    pub surface_score: Vec<f32>,
    /// Whether the word is among the most informative ones.
    pub keep: Vec<bool>,
}

/// Scores the query words and keeps the most informative (the rarity cut).
pub(super) fn rank_words(cands: &[Candidate], words: &[String], n: u64, tuning: &Tuning) -> Ranked {
    let surfaces = words.len();
    // Scoring every field with one idf per word, as BM25F does, stops a word common in bodies
    // from looking rare in a small field (a question's "writing" in one error string).
    let mut surface_df: Vec<u64> = vec![0; surfaces];
    for c in cands.iter() {
        surface_df[c.surface] = surface_df[c.surface].max(c.df);
    }
    let mut surface_score: Vec<f32> = vec![0.0; surfaces];
    for c in cands.iter() {
        let s = c.weight * idf(c.df, n);
        if s > surface_score[c.surface] {
            surface_score[c.surface] = s;
        }
    }
    let mut ranked: Vec<usize> = (0..surfaces).filter(|&s| surface_score[s] > 0.0).collect();
    ranked.sort_by(|&a, &b| {
        surface_score[b]
            .total_cmp(&surface_score[a])
            .then(words[a].cmp(&words[b]))
    });
    // Keep the most informative words; even without the rarity cut a whole log pasted in
    // must not become thousands of clauses.
    ranked.truncate(if tuning.rarity_cut {
        tuning.max_terms.max(1)
    } else {
        MAX_TERMS_UNCUT
    });
    let mut keep = vec![false; surfaces];
    for &s in &ranked {
        keep[s] = true;
    }
    Ranked {
        surface_df,
        surface_score,
        keep,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_inside_a_masked_value_is_found_by_its_span() {
        let values = [(0, 4), (10, 20), (30, 31)];
        assert!(within_value(&values, 0, 4));
        assert!(within_value(&values, 12, 15));
        assert!(within_value(&values, 30, 31));
        assert!(!within_value(&values, 4, 6));
        assert!(!within_value(&values, 18, 22));
        assert!(!within_value(&values, 9, 12));
        assert!(!within_value(&[], 0, 1));
    }

    #[test]
    fn an_identifier_segment_is_its_ascii_run_unless_a_blob() {
        assert_eq!(ascii_segment("use MongoDB now", 4, 9), "MongoDB");
        assert_eq!(ascii_segment("a-b", 0, 1), "a");
        assert_eq!(ascii_segment("中文", 0, 6), "中文");
        // A run longer than any identifier is a blob: each part is its own segment.
        let blob = "aB".repeat(200);
        assert_eq!(ascii_segment(&blob, 10, 12), "aB");
        let long_ident = "aB".repeat(40);
        assert_eq!(ascii_segment(&long_ident, 10, 12), long_ident);
    }
}
