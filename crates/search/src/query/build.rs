//! Building the query, one function per stage: field boosts, candidate terms from the paste's
//! lines, connector mentions, document frequencies, function words, the rarity cut, then the
//! clauses (terms, root-cause pairs, quoted phrases, typo and prefix matches) and what the
//! result assembly needs besides.

use super::text::{
    clamp_input, is_mask, is_plain_words, is_short_number, is_stopword, quoted_spans,
    unfinished_last_word,
};
use super::{BuiltQuery, Clause, ClauseKind, MAX_TERMS_UNCUT, Tuning};
use crate::analysis::{Tok, analyze};
use crate::paste::{LineRole, Paste, split_paste};
use crate::schema::{F_BODY, F_CODE, F_SIG, F_TITLE, KbSchema, TEXT_FIELDS};
use std::collections::HashMap;
use tantivy::query::{BoostQuery, FuzzyTermQuery, PhraseQuery, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, Term};

const MAX_PAIRS: usize = 24;
/// Slop of word pairs in prose fields: up to two words between, or the two words swapped.
const PAIR_SLOP: u32 = 2;
/// Lines of a paste compared with the top entry's error texts (for confidence).
const MAX_SIG_LINES: usize = 64;
/// Short queries get typo tolerance.
const SHORT_QUERY_WORDS: usize = 6;

fn idf(df: u64, n: u64) -> f32 {
    let (df, n) = (df as f32, n as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// A possible term clause: one analyzed term of one field, from query word `surface`.
struct Candidate {
    field: usize,
    text: String,
    surface: usize,
    weight: f32,
    df: u64,
}

/// Candidates by (field, term), before document frequencies are known.
type Candidates = HashMap<(usize, String), Candidate>;

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

/// What the clause stages share: the schema, the tuning and this query's field boosts.
struct Stage<'a> {
    kb: &'a KbSchema,
    tuning: &'a Tuning,
    boosts: [f32; 6],
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
    let stage = Stage {
        kb,
        tuning,
        boosts: field_boosts(&paste, tuning),
    };
    let (surfaces, mut cands) = candidates(&paste, tuning);
    if tuning.connector_mentions {
        weigh_connector_mentions(&mut cands, &surfaces, searcher, kb, tuning);
    }
    let (mut cands, unknown_surfaces) = known_candidates(cands, surfaces.len(), &mut dfc);
    if tuning.stopwords {
        drop_function_words(&mut cands, &surfaces);
    }
    let ranked = rank_words(&mut cands, &surfaces, n, tuning);

    let mut clauses: Vec<Clause> = Vec::new();
    let mut field_terms: [HashMap<String, f32>; 6] = Default::default();
    term_clauses(&stage, &cands, &ranked, n, &mut clauses, &mut field_terms);
    if tuning.phrase_pairs
        && let Some(root) = paste.root_cause.and_then(|r| paste.lines.get(r))
    {
        pair_clauses(&stage, root.text, &mut dfc, &mut clauses);
    }
    quoted_clauses(&stage, &text, &mut dfc, &mut clauses, &mut field_terms);
    let short = is_short_query(&paste);
    if tuning.typo_tolerance && short {
        typo_clauses(&stage, &surfaces, &unknown_surfaces, &mut clauses);
    }
    if tuning.prefix_last_word
        && short
        && let Some(word) = unfinished_last_word(&text)
    {
        prefix_clauses(&stage, &word, &mut clauses);
    }

    let kept: Vec<(String, f32)> = surfaces
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let score = if ranked.keep[i] {
                ranked.surface_score[i]
            } else {
                0.0
            };
            (s.clone(), score)
        })
        .collect();
    BuiltQuery {
        clauses,
        surfaces: kept,
        field_terms,
        sig_lines: sig_lines(&paste),
        known_share: known_share(&surfaces, &unknown_surfaces),
    }
}

/// The field boosts for this query. Typed words are matched against what entries are about
/// (titles, bodies) more than against verbatim error strings, which are there for pasted
/// errors.
fn field_boosts(paste: &Paste<'_>, tuning: &Tuning) -> [f32; 6] {
    let mut boosts = tuning.field_boosts;
    if tuning.query_intent && is_plain_words(paste) {
        boosts[F_SIG] = boosts[F_SIG].min(tuning.plain_sig_boost);
    }
    boosts
}

/// The weight of a line by its role in the paste (`messages`: how many message lines it has).
fn line_weight(role: LineRole, root_cause: bool, messages: usize, tuning: &Tuning) -> f32 {
    if !tuning.paste_splitting {
        return 1.0;
    }
    match role {
        LineRole::Message if messages > 1 && !root_cause => tuning.outer_weight,
        LineRole::Message => 1.0,
        LineRole::Other => tuning.other_weight,
        LineRole::Frame => tuning.frame_weight,
    }
}

/// The query words (lowercased surface forms, in order of appearance) and every field's
/// terms for them, each with the largest weight of the lines it occurs on.
fn candidates(paste: &Paste<'_>, tuning: &Tuning) -> (Vec<String>, Candidates) {
    let mut surfaces: Vec<String> = Vec::new();
    let mut surface_ix: HashMap<String, usize> = HashMap::new();
    let mut cands: Candidates = HashMap::new();
    let messages = paste
        .lines
        .iter()
        .filter(|l| l.role == LineRole::Message)
        .count();
    for (li, line) in paste.lines.iter().enumerate() {
        let w = line_weight(line.role, paste.root_cause == Some(li), messages, tuning);
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
    (surfaces, cands)
}

/// Words naming a connector of the book say which entries the reader means. The connector
/// slug is a raw keyword field of every entry, so this is one exact term lookup per word.
fn weigh_connector_mentions(
    cands: &mut Candidates,
    surfaces: &[String],
    searcher: &Searcher,
    kb: &KbSchema,
    tuning: &Tuning,
) {
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

/// The candidates with their document frequencies, in (field, term) order, without those
/// the book does not contain (they cannot score); and which query words are unknown in every
/// field.
fn known_candidates(
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
fn drop_function_words(cands: &mut Vec<Candidate>, surfaces: &[String]) {
    let content = |c: &Candidate| !is_stopword(&surfaces[c.surface]);
    if cands.iter().any(content) {
        cands.retain(content);
    }
}

/// How informative each query word is, and which are kept.
struct Ranked {
    /// A word's document frequency: its largest over the fields (a lower bound of the entries
    /// that contain it anywhere).
    surface_df: Vec<u64>,
    /// A word's best weight × idf over its terms.
    surface_score: Vec<f32>,
    /// Whether the word is among the most informative ones.
    keep: Vec<bool>,
}

/// Scores the query words and keeps the most informative (the rarity cut); with the common
/// cut, drops terms found in more than half of the entries first.
fn rank_words(cands: &mut Vec<Candidate>, words: &[String], n: u64, tuning: &Tuning) -> Ranked {
    let surfaces = words.len();
    // Scoring every field with one idf per word, as BM25F does, stops a word common in bodies
    // from looking rare in a small field (a question's "writing" in one error string).
    let mut surface_df: Vec<u64> = vec![0; surfaces];
    for c in cands.iter() {
        surface_df[c.surface] = surface_df[c.surface].max(c.df);
    }
    // Common-term cut (off by default): drop terms in more than half of the entries (unless
    // nothing would remain). Measured: on a small book it removes words such as the connector
    // name that BM25's low idf already weighs correctly, and coverage needs them.
    if tuning.common_cut && n >= 4 {
        let rare = |c: &Candidate| c.df * 2 <= n;
        if cands.iter().any(rare) {
            cands.retain(rare);
        }
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

/// One term clause per kept candidate, boosted by field, weight and (with `shared_idf`) the
/// word's shared idf.
fn term_clauses(
    stage: &Stage<'_>,
    cands: &[Candidate],
    ranked: &Ranked,
    n: u64,
    clauses: &mut Vec<Clause>,
    field_terms: &mut [HashMap<String, f32>; 6],
) {
    let tuning = stage.tuning;
    let word_df = |c: &Candidate| {
        if tuning.shared_idf {
            ranked.surface_df[c.surface]
        } else {
            c.df
        }
    };
    for c in cands.iter().filter(|c| ranked.keep[c.surface]) {
        // Tantivy scores with the field's own idf; rescale it to the word's shared idf.
        let idf_scale = if tuning.shared_idf {
            let own = idf(c.df, n).max(f32::EPSILON);
            let mix = tuning.shared_idf_mix.clamp(0.0, 1.0);
            (mix * idf(word_df(c), n) + (1.0 - mix) * own) / own
        } else {
            1.0
        };
        let boost = stage.boosts[c.field] * c.weight * idf_scale;
        clauses.push(Clause {
            query: term_clause(stage.kb, c.field, &c.text, boost),
            field: c.field,
            kind: ClauseKind::Term,
            label: c.text.clone(),
            surface: Some(c.surface),
        });
        field_terms[c.field].insert(c.text.clone(), c.weight * idf(word_df(c), n));
    }
}

/// Phrase pairs from the root-cause line (for a question, the question itself): adjacent
/// parts that both occur in the field. With `word_pairs`, function words are skipped and
/// prose fields allow a little slop, so "partitions of a kafka topic" still pairs
/// "partitions" with "kafka topic" and "topic partitions".
fn pair_clauses(stage: &Stage<'_>, root: &str, dfc: &mut DfCache<'_>, clauses: &mut Vec<Clause>) {
    let (kb, tuning) = (stage.kb, stage.tuning);
    for fi in [F_SIG, F_TITLE, F_BODY] {
        let prose = fi != F_SIG;
        let parts: Vec<Tok> = analyze(root, TEXT_FIELDS[fi].analyzer)
            .into_iter()
            .filter(|t| t.part)
            .filter(|t| {
                !tuning.word_pairs
                    || !root
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
                query: Box::new(BoostQuery::new(
                    Box::new(q),
                    stage.boosts[fi] * tuning.pair_boost,
                )),
                field: fi,
                kind: ClauseKind::Pair,
                label: format!("\"{} {}\"", a.text, b.text),
                surface: None,
            });
        }
    }
}

/// Quoted text is a phrase (a strong SHOULD: a pasted line may contain quotes too).
fn quoted_clauses(
    stage: &Stage<'_>,
    text: &str,
    dfc: &mut DfCache<'_>,
    clauses: &mut Vec<Clause>,
    field_terms: &mut [HashMap<String, f32>; 6],
) {
    for q in quoted_spans(text) {
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
            let boost = stage.boosts[fi] * stage.tuning.quoted_boost;
            if let Some(query) = phrase_clause(stage.kb, fi, &words, boost) {
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
}

/// Whether the query is one line of few words (typo tolerance and prefix matching apply).
fn is_short_query(paste: &Paste<'_>) -> bool {
    let word_count = paste
        .lines
        .iter()
        .map(|l| l.text.split_whitespace().count())
        .sum::<usize>();
    paste.lines.len() == 1 && word_count <= SHORT_QUERY_WORDS
}

/// Typo tolerance: one-edit fuzzy clauses for words of 5+ letters that match nothing.
fn typo_clauses(
    stage: &Stage<'_>,
    surfaces: &[String],
    unknown_surfaces: &[bool],
    clauses: &mut Vec<Clause>,
) {
    for (s, surface) in surfaces.iter().enumerate() {
        if !unknown_surfaces[s]
            || surface.chars().count() < 5
            || !surface.chars().all(char::is_alphabetic)
        {
            continue;
        }
        for fi in [F_SIG, F_TITLE, F_BODY] {
            for tok in analyze(surface, TEXT_FIELDS[fi].analyzer) {
                let term = Term::from_field_text(stage.kb.text[fi], &tok.text);
                let q = FuzzyTermQuery::new(term, 1, true);
                let boost = stage.boosts[fi] * 0.5;
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

/// Search as you type: the unfinished last `word` of a short query is also a prefix (`kafka
/// offs` finds "offsets"). The clause scores a constant, so a finished word gains only a
/// little from it (measured neutral on the labelled sets). Prose fields hold stems, so the
/// prefix is the word's stem there.
fn prefix_clauses(stage: &Stage<'_>, word: &str, clauses: &mut Vec<Clause>) {
    for fi in [F_SIG, F_TITLE, F_BODY] {
        let Some(prefix) = analyze(word, TEXT_FIELDS[fi].analyzer)
            .into_iter()
            .find(|t| t.part)
            .map(|t| t.text)
        else {
            continue;
        };
        let term = Term::from_field_text(stage.kb.text[fi], &prefix);
        let q = FuzzyTermQuery::new_prefix(term, 0, true);
        clauses.push(Clause {
            query: Box::new(BoostQuery::new(
                Box::new(q),
                stage.boosts[fi] * stage.tuning.prefix_boost,
            )),
            field: fi,
            kind: ClauseKind::Fuzzy,
            label: format!("{prefix}*"),
            surface: None,
        });
    }
}

/// The signature-analyzed parts of the message and context lines (not frames), for
/// confidence.
fn sig_lines(paste: &Paste<'_>) -> Vec<Vec<String>> {
    paste
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
        .collect()
}

/// Share of the query's content words (not function words) that occur in the book.
fn known_share(surfaces: &[String], unknown_surfaces: &[bool]) -> f32 {
    let content_words: Vec<bool> = surfaces
        .iter()
        .map(|w| !is_stopword(w) && w.chars().any(char::is_alphabetic))
        .collect();
    let words = content_words.iter().filter(|c| **c).count();
    let known = (0..surfaces.len())
        .filter(|&i| content_words[i] && !unknown_surfaces[i])
        .count();
    if words > 0 {
        known as f32 / words as f32
    } else {
        0.0
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
