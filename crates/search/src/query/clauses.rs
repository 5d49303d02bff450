//! The clauses of the built query: terms of the kept words, root-cause pairs, quoted
//! phrases, typo and prefix matches.

use super::text::{is_mask, quoted_spans};
use super::words::{Candidate, DfCache, Ranked, idf};
use super::{Clause, ClauseKind, Tuning};
use crate::analysis::{Tok, analyze, analyze_parts};
use crate::schema::{F_BODY, F_CODE, F_SIG, F_TAGS, F_TITLE, KbSchema, TEXT_FIELDS};
use std::collections::{BTreeMap, HashMap};
use tantivy::Term;
use tantivy::query::{BoostQuery, FuzzyTermQuery, PhraseQuery, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};

const MAX_PAIRS: usize = 24;

/// What the clause stages share: the schema, the tuning and this query's field boosts.
pub(super) struct Stage<'a> {
    pub kb: &'a KbSchema,
    pub tuning: &'a Tuning,
    pub boosts: [f32; 6],
    /// Whether the query is typed words (see `is_plain_words`), not pasted text.
    pub plain_words: bool,
}

/// The query terms the result assembly reads besides the clauses.
#[derive(Default)]
pub(super) struct QueryTerms {
    /// Per text field (see [`super::BuiltQuery::field_terms`]).
    pub fields: [HashMap<String, f32>; 6],
    /// See [`super::BuiltQuery::symptom_terms`].
    pub symptoms: BTreeMap<String, f32>,
}

pub(super) fn term_clause(kb: &KbSchema, field: usize, text: &str, boost: f32) -> Box<dyn Query> {
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

/// One term clause per kept candidate, boosted by field, weight and (with `shared_idf`) the
/// word's shared idf. In pasted text, a word's tags clause is weighed by `paste_tags_factor`
/// unless the word names a connector (`named`, by query word): tags hold the readers' words
/// for a problem, and a connector's name is no reader's word.
pub(super) fn term_clauses(
    stage: &Stage<'_>,
    cands: &[Candidate],
    ranked: &Ranked,
    n: u64,
    named: &[bool],
    clauses: &mut Vec<Clause>,
    terms: &mut QueryTerms,
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
        let names_connector = named.get(c.surface).copied().unwrap_or(false);
        // A connector's name in one entry's error text says no more about which of the
        // connector's entries answers than its name in all their tags (see
        // `Tuning::connector_mentions`); the short, boosted signature field would make it the
        // query's strongest word for that one entry.
        if names_connector && tuning.connector_mentions && c.field == F_SIG {
            continue;
        }
        // Tantivy scores with the field's own idf; rescale it to the word's shared idf.
        let idf_scale = if tuning.shared_idf {
            let own = idf(c.df, n).max(f32::EPSILON);
            let mix = tuning.shared_idf_mix.clamp(0.0, 1.0);
            (mix * idf(word_df(c), n) + (1.0 - mix) * own) / own
        } else {
            1.0
        };
        let readers_words =
            c.field == F_TAGS && tuning.query_intent && !stage.plain_words && !names_connector;
        let field_boost = if readers_words {
            stage.boosts[c.field] * tuning.paste_tags_factor.max(0.0)
        } else {
            stage.boosts[c.field]
        };
        let boost = field_boost * c.weight * idf_scale;
        clauses.push(Clause {
            query: term_clause(stage.kb, c.field, &c.text, boost),
            field: c.field,
            kind: ClauseKind::Term,
            label: c.text.clone(),
            surface: Some(c.surface),
            group: tuning.part_groups.then_some(c.group),
        });
        terms.fields[c.field].insert(c.text.clone(), c.weight * idf(word_df(c), n));
        if c.field == F_TAGS {
            // By idf alone: a connector's name weighs no more here than its rarity says.
            terms.symptoms.insert(c.text.clone(), idf(word_df(c), n));
        }
    }
}

/// Phrase pairs from the root-cause line (for a question, the question itself): adjacent
/// parts that both occur in the field, matched next to each other.
pub(super) fn pair_clauses(
    stage: &Stage<'_>,
    root: &str,
    dfc: &mut DfCache<'_>,
    clauses: &mut Vec<Clause>,
) {
    let (kb, tuning) = (stage.kb, stage.tuning);
    for fi in [F_SIG, F_TITLE, F_BODY] {
        let parts: Vec<Tok> = analyze(root, TEXT_FIELDS[fi].analyzer)
            .into_iter()
            .filter(|t| t.part)
            .collect();
        let mut seen: Vec<(String, String)> = Vec::new();
        for w in parts.windows(2) {
            if seen.len() >= MAX_PAIRS {
                break;
            }
            let (a, b) = (&w[0], &w[1]);
            if b.pos != a.pos + 1 || (is_mask(&a.text) && is_mask(&b.text)) || a.text == b.text {
                continue;
            }
            if straddles_compound(root, a, b) {
                continue;
            }
            let key = (a.text.clone(), b.text.clone());
            if seen.contains(&key) || dfc.df(fi, &a.text) == 0 || dfc.df(fi, &b.text) == 0 {
                continue;
            }
            // A pair of frequent words is weak evidence and costs its words' whole
            // positions lists (in a large book, most of what a paste downloads).
            let budget = tuning.pair_positions_budget;
            if budget > 0
                && (dfc.positions_bytes(fi, &a.text) > budget
                    || dfc.positions_bytes(fi, &b.text) > budget)
            {
                continue;
            }
            seen.push(key);
            // The two words next to each other, as in the paste.
            let terms = vec![
                (0, Term::from_field_text(kb.text[fi], &a.text)),
                (1, Term::from_field_text(kb.text[fi], &b.text)),
            ];
            let q = PhraseQuery::new_with_offset_and_slop(terms, 0);
            clauses.push(Clause {
                query: Box::new(BoostQuery::new(
                    Box::new(q),
                    stage.boosts[fi] * tuning.pair_boost,
                )),
                field: fi,
                kind: ClauseKind::Pair,
                label: format!("\"{} {}\"", a.text, b.text),
                surface: None,
                group: None,
            });
        }
    }
}

/// Whether two adjacent parts of different words pair a piece of a compound with the other
/// word: `sql server` in `The MySQL server` is no phrase of the paste, and it matches the
/// product `SQL Server`. Parts of one word (`my sql`) and whole words pair as usual.
fn straddles_compound(root: &str, a: &Tok, b: &Tok) -> bool {
    let alnum = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let between = root.get(a.to..b.from).unwrap_or("");
    !between.is_empty()
        && (alnum(root.get(..a.from).and_then(|s| s.chars().next_back()))
            || alnum(root.get(b.to..).and_then(|s| s.chars().next())))
}

/// Quoted text is a phrase (a strong SHOULD: a pasted line may contain quotes too).
pub(super) fn quoted_clauses(
    stage: &Stage<'_>,
    text: &str,
    dfc: &mut DfCache<'_>,
    clauses: &mut Vec<Clause>,
    field_terms: &mut [HashMap<String, f32>; 6],
) {
    for q in quoted_spans(text) {
        for fi in [F_SIG, F_TITLE, F_BODY, F_CODE] {
            let words = analyze_parts(q, TEXT_FIELDS[fi].analyzer);
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
                    group: None,
                });
            }
        }
    }
}

/// Misspelt words matched per query: each fuzzy clause walks a field's term dictionary and
/// reads the postings of every term it matches, which the browser fetches. A typed paragraph
/// of 300 misspelt words fetched 972 KB at 5,000 entries without a cap (and needed 27 fetch
/// rounds before the lazy planner walked the dictionaries itself). Measured on the misspelt
/// curated queries (`bench/typo-queries.mjs`): top-1 0.799 at 2, 0.825 at 3, 0.831 at 4 and
/// unlimited.
const MAX_TYPO_WORDS: usize = 4;

/// Typo tolerance: one-edit fuzzy clauses for words of 5+ letters that match nothing (the
/// longest [`MAX_TYPO_WORDS`] of them).
pub(super) fn typo_clauses(
    stage: &Stage<'_>,
    surfaces: &[String],
    unknown_surfaces: &[bool],
    clauses: &mut Vec<Clause>,
    walks: &mut Vec<(Field, FuzzyTermQuery)>,
) {
    let mut words: Vec<&String> = surfaces
        .iter()
        .enumerate()
        .filter(|&(s, surface)| {
            unknown_surfaces[s]
                && surface.chars().count() >= 5
                && surface.chars().all(char::is_alphabetic)
        })
        .map(|(_, surface)| surface)
        .collect();
    // The longest first (they say the most); a stable sort keeps the query's order among
    // equals, so the same query always gets the same clauses.
    words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    words.truncate(MAX_TYPO_WORDS);
    for surface in words {
        for fi in [F_SIG, F_TITLE, F_BODY] {
            for tok in analyze(surface, TEXT_FIELDS[fi].analyzer) {
                let term = Term::from_field_text(stage.kb.text[fi], &tok.text);
                let q = FuzzyTermQuery::new(term, 1, true);
                walks.push((stage.kb.text[fi], q.clone()));
                let boost = stage.boosts[fi] * 0.5;
                clauses.push(Clause {
                    query: Box::new(BoostQuery::new(Box::new(q), boost)),
                    field: fi,
                    kind: ClauseKind::Fuzzy,
                    label: format!("~{}", tok.text),
                    surface: None,
                    group: None,
                });
            }
        }
    }
}

/// Search as you type: the unfinished last `word` of a short query is also a prefix (`kafka
/// offs` finds "offsets"). The clause scores a constant, so a finished word gains only a
/// little from it (measured neutral on the labelled sets). Prose fields hold stems, so the
/// prefix is the word's stem there. A lone CJK character is looked up in the tags too, where
/// an English book keeps its readers' Chinese symptom lines.
pub(super) fn prefix_clauses(
    stage: &Stage<'_>,
    word: &str,
    clauses: &mut Vec<Clause>,
    walks: &mut Vec<(Field, FuzzyTermQuery)>,
) {
    let cjk = word.chars().all(crate::script::is_cjk);
    let fields: &[usize] = if cjk {
        &[F_SIG, F_TITLE, F_TAGS, F_BODY]
    } else {
        &[F_SIG, F_TITLE, F_BODY]
    };
    for &fi in fields {
        let Some(prefix) = analyze(word, TEXT_FIELDS[fi].analyzer)
            .into_iter()
            .find(|t| t.part)
            .map(|t| t.text)
        else {
            continue;
        };
        let term = Term::from_field_text(stage.kb.text[fi], &prefix);
        let q = FuzzyTermQuery::new_prefix(term, 0, true);
        walks.push((stage.kb.text[fi], q.clone()));
        clauses.push(Clause {
            query: Box::new(BoostQuery::new(
                Box::new(q),
                stage.boosts[fi] * stage.tuning.prefix_boost,
            )),
            field: fi,
            kind: ClauseKind::Fuzzy,
            label: format!("{prefix}*"),
            surface: None,
            group: None,
        });
    }
}
