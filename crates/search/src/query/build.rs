//! Building the query, one function per stage: field boosts, the query words and their
//! weights ([`super::words`]), the rarity cut, then the clauses ([`super::clauses`]) and what
//! the result assembly needs besides.

use super::clauses::{
    QueryTerms, Stage, pair_clauses, prefix_clauses, quoted_clauses, term_clause, term_clauses,
    typo_clauses,
};
use super::text::{
    cjk_pair, clamp_input, is_plain_words, is_printed_value, is_stopword, unfinished_last_word,
    with_alias_slugs,
};
use super::words::{
    DfCache, alias_slugs, candidates, compound_forms, connectors_named_anywhere,
    drop_function_words, known_candidates, named_connectors, rank_words, weigh_connector_mentions,
};
use super::{BuiltQuery, Clause, ClauseKind, MAX_TERMS_UNCUT, Tuning};
use crate::analysis::{analyze, analyze_sentences};
use crate::decoration::as_printed;
use crate::paste::{LineRole, Paste, split_paste_with};
use crate::schema::{F_BODY, F_SIG, F_TITLE, KbSchema, TEXT_FIELDS};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use tantivy::Searcher;

/// Lines of a paste compared with the top entry's error texts (for confidence).
const MAX_SIG_LINES: usize = 64;
/// Short queries get typo tolerance and prefix matching.
const SHORT_QUERY_WORDS: usize = 6;

/// Builds the query for `text`.
pub(crate) fn build_query(
    text: &str,
    searcher: &Searcher,
    kb: &KbSchema,
    tuning: &Tuning,
) -> BuiltQuery {
    let clamped = clamp_input(text);
    if tuning.plain_bm25 {
        return build_plain_bm25(&clamped, kb);
    }
    let text = if tuning.paste_splitting {
        as_printed(&clamped)
    } else {
        Cow::Borrowed(&*clamped)
    };
    let n = searcher.num_docs().max(1);
    let mut dfc = DfCache::new(searcher, kb);
    let paste = split_paste_with(&text, tuning.reader_prose);
    let plain_words = is_plain_words(&paste, tuning.punctuated_questions);
    let stage = Stage {
        kb,
        tuning,
        boosts: field_boosts(plain_words, tuning),
        plain_words,
    };
    let aliased = words_text(&text, plain_words, searcher, kb, &mut dfc, tuning);
    let aliased_paste = match &aliased {
        Cow::Owned(t) => Some(split_paste_with(t, tuning.reader_prose)),
        Cow::Borrowed(_) => None,
    };
    let (surfaces, uncounted, mut cands) =
        candidates(aliased_paste.as_ref().unwrap_or(&paste), tuning);
    let named = named_connectors(&surfaces, searcher, kb);
    if tuning.connector_mentions {
        weigh_connector_mentions(&mut cands, &named, tuning);
    }
    let (mut cands, unknown_surfaces) = known_candidates(cands, surfaces.len(), &mut dfc);
    if tuning.stopwords {
        drop_function_words(&mut cands, &surfaces);
    }
    let ranked = rank_words(&cands, &surfaces, n, tuning);

    let mut clauses: Vec<Clause> = Vec::new();
    let mut terms = QueryTerms::default();
    term_clauses(&stage, &cands, &ranked, n, &named, &mut clauses, &mut terms);
    if tuning.phrase_pairs
        && let Some(root) = paste.root_cause.and_then(|r| paste.lines.get(r))
    {
        pair_clauses(
            &stage,
            crate::paste::message_part(root.text),
            &mut dfc,
            &mut clauses,
        );
    }
    quoted_clauses(&stage, &text, &mut dfc, &mut clauses, &mut terms.fields);
    let short = is_short_query(&paste);
    // Typed words may be misspelt (a question, keywords); a paste is copied text, where a word
    // the book lacks is a name or a value, except in a short one (search as you type).
    let mut walks = Vec::new();
    if tuning.typo_tolerance && (short || plain_words) {
        typo_clauses(
            &stage,
            &surfaces,
            &unknown_surfaces,
            &mut clauses,
            &mut walks,
        );
    }
    if tuning.prefix_last_word
        && short
        && let Some(word) = unfinished_last_word(&text)
    {
        prefix_clauses(&stage, &word, &mut clauses, &mut walks);
    }

    // The reader's prose around a one-line paste, or the exception class printed above its
    // message, does not make it two lines.
    let pasted_lines = || {
        paste
            .lines
            .iter()
            .filter(|l| !matches!(l.role, LineRole::Prose | LineRole::Wrapper))
    };
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
        field_terms: terms.fields,
        symptom_terms: terms.symptoms,
        sig_lines: sig_lines(&paste, tuning.sentence_ends, tuning.min_error_run),
        one_line: pasted_lines().count() == 1,
        logged_line: pasted_lines().count() == 1 && pasted_lines().all(|l| l.logged),
        plain_words,
        known_share: known_share(&surfaces, &unknown_surfaces, &uncounted, tuning),
        known_word: has_known_word(&surfaces, &unknown_surfaces, &uncounted),
        named_connectors: connectors_named_anywhere(
            &text,
            &surfaces,
            searcher,
            kb,
            tuning.cross_connector,
        ),
        walks,
    }
}

/// The text the query words are read from: `text` with each alias's slug written beside it
/// and, for typed words, the book's spellings of compounds after it. The phrase pairs, quoted
/// spans and the lines confidence compares keep `text` as written.
fn words_text<'a>(
    text: &'a str,
    plain_words: bool,
    searcher: &Searcher,
    kb: &KbSchema,
    dfc: &mut DfCache<'_>,
    tuning: &Tuning,
) -> Cow<'a, str> {
    let mut out = if tuning.alias_slugs {
        with_alias_slugs(text, &alias_slugs(searcher, kb))
    } else {
        Cow::Borrowed(text)
    };
    // A paste is printed text: its words are as the book's error texts have them.
    if tuning.compounds && plain_words {
        let forms = compound_forms(&out, dfc);
        if !forms.is_empty() {
            out = Cow::Owned(format!("{out} {}", forms.join(" ")));
        }
    }
    out
}

/// The field boosts for this query. Typed words are matched against what entries are about
/// (titles, bodies) more than against verbatim error strings, which are there for pasted
/// errors. (A paste's own adjustment, for the readers' words in tags, is per word: see
/// [`super::clauses::term_clauses`].)
fn field_boosts(plain_words: bool, tuning: &Tuning) -> [f32; 6] {
    let mut boosts = tuning.field_boosts;
    if tuning.query_intent && plain_words {
        boosts[F_SIG] = boosts[F_SIG].min(tuning.plain_sig_boost);
    }
    boosts
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

/// The signature-analyzed parts of the message and context lines (not frames, not the
/// reader's prose, not a class whose message is on the next line), for confidence; with
/// `sentence_ends`, sentence ends marked as in error texts.
fn sig_lines(paste: &Paste<'_>, sentence_ends: bool, min_words: usize) -> Vec<Vec<String>> {
    paste
        .lines
        .iter()
        .filter(|l| {
            !matches!(
                l.role,
                LineRole::Frame | LineRole::Prose | LineRole::Wrapper
            )
        })
        .take(MAX_SIG_LINES)
        .map(|l| {
            analyze_sentences(
                crate::paste::message_part_of_at_least(l.text, min_words),
                TEXT_FIELDS[F_SIG].analyzer,
                sentence_ends,
            )
        })
        .collect()
}

/// Share of the query's content words (not function words) that occur in the book; words
/// `uncounted` do not count: those only in the reader's prose around a paste (the pasted
/// error is what an entry repeats, not the reader's sentence about it) or only in the Java
/// runtime's frames (see [`Tuning::runtime_frames`]). With `seams`, an unknown CJK bigram whose
/// first character ends a known bigram and whose second starts one does not count either:
/// overlapping bigrams read `文件看不到` as `文件`, `件看`, `看不`, `不到`, and `件看` is the
/// seam between two words, not a word the book lacks. With `printed_values`, values the
/// reader's system printed (hex bytes and ids, addresses, numbered names) that the book
/// lacks are not words, as decimal numbers are not. A CJK bigram counts `cjk_bigram_weight`
/// of a word.
fn known_share(
    surfaces: &[String],
    unknown_surfaces: &[bool],
    uncounted: &[bool],
    tuning: &Tuning,
) -> f32 {
    let mut content_words: Vec<bool> = surfaces
        .iter()
        .zip(uncounted)
        .zip(unknown_surfaces)
        .map(|((w, &uncounted), &unknown)| {
            // A printed value the book has (`utf-8`) is still one of its words.
            let value = !w.chars().any(char::is_alphabetic)
                || (tuning.printed_values && unknown && is_printed_value(w));
            !uncounted && !is_stopword(w) && !value
        })
        .collect();
    if tuning.cjk_seams {
        let known_pairs: Vec<(char, char)> = (0..surfaces.len())
            .filter(|&i| content_words[i] && !unknown_surfaces[i])
            .filter_map(|i| cjk_pair(&surfaces[i]))
            .collect();
        for i in 0..surfaces.len() {
            if content_words[i]
                && unknown_surfaces[i]
                && let Some((a, b)) = cjk_pair(&surfaces[i])
                && known_pairs.iter().any(|&(_, end)| end == a)
                && known_pairs.iter().any(|&(start, _)| start == b)
            {
                content_words[i] = false;
            }
        }
    }
    let weight = |i: usize| {
        if cjk_pair(&surfaces[i]).is_some() {
            tuning.cjk_bigram_weight
        } else {
            1.0
        }
    };
    let words: f32 = (0..surfaces.len())
        .filter(|&i| content_words[i])
        .map(weight)
        .sum();
    let known: f32 = (0..surfaces.len())
        .filter(|&i| content_words[i] && !unknown_surfaces[i])
        .map(weight)
        .sum();
    if words > 0.0 { known / words } else { 0.0 }
}

/// Whether a word of the query (not of the reader's prose around a paste, not a function
/// word) that the book has is two characters or more: a lone letter (`b`, the first key of a
/// search as you type) is no word a reader means.
fn has_known_word(surfaces: &[String], unknown_surfaces: &[bool], uncounted: &[bool]) -> bool {
    (0..surfaces.len()).any(|i| {
        let w = &surfaces[i];
        !uncounted[i] && !unknown_surfaces[i] && !is_stopword(w) && w.chars().count() >= 2
    })
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
                group: None,
            });
            field_terms[fi].insert(tok.text.clone(), 1.0);
        }
        surfaces.push((tok.text, 1.0));
    }
    BuiltQuery {
        clauses,
        surfaces,
        field_terms,
        symptom_terms: BTreeMap::new(),
        sig_lines: Vec::new(),
        known_share: 1.0,
        known_word: true,
        named_connectors: Vec::new(),
        one_line: false,
        logged_line: false,
        plain_words: true,
        walks: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(words: &[(&str, bool)], seams: bool) -> f32 {
        let tuning = Tuning {
            cjk_seams: seams,
            ..Tuning::default()
        };
        share_with(words, &tuning)
    }

    fn share_with(words: &[(&str, bool)], tuning: &Tuning) -> f32 {
        let surfaces: Vec<String> = words.iter().map(|(w, _)| w.to_string()).collect();
        let unknown: Vec<bool> = words.iter().map(|(_, known)| !known).collect();
        known_share(&surfaces, &unknown, &vec![false; words.len()], tuning)
    }

    #[test]
    fn printed_values_are_not_words_the_book_lacks() {
        // `Incorrect string value: '\xF0\x9F\x98\x81' for column 'nick'` as the analyzer
        // reads it (the escapes and their parts, and the column's name), with an id, a host
        // and port, a client's numbered name and a charset the book knows beside it.
        let surfaces: Vec<String> = [
            "incorrect",
            "string",
            "value",
            "xf0\\x9f\\x98\\x81",
            "x98",
            "b6",
            "4a045a11",
            "db:3306",
            "consumer-1",
            "nick",
            "utf-8",
        ]
        .iter()
        .map(|w| w.to_string())
        .collect();
        let unknown = [
            false, false, false, true, true, true, true, true, true, true, false,
        ];
        let prose = vec![false; surfaces.len()];
        let on = Tuning::default();
        let off = Tuning {
            printed_values: false,
            ..Tuning::default()
        };
        assert!((known_share(&surfaces, &unknown, &prose, &off) - 4.0 / 11.0).abs() < 1e-6);
        // Only the column's name is left unknown; `utf-8`, which the book has, counts.
        assert!((known_share(&surfaces, &unknown, &prose, &on) - 4.0 / 5.0).abs() < 1e-6);
    }

    #[test]
    fn printed_values_are_told_from_words() {
        let values = [
            "xf0\\x9f\\x98",
            "\\xac\\xed",
            "x9f",
            "b6",
            "e2",
            "4a045a11",
            "24f229b949cc",
            "kafka1:9092",
            "localhost/127.0.0.1:9094",
            "jdbc:mysql://db:3306/shop",
            "s3://warehouse/t/manifest",
            "/opt/flink/conf/flink-conf.yaml",
            "192.168.0.102",
            "consumer-1",
            "__consumer_offsets-13",
            "pool-3",
        ];
        for value in values {
            assert!(is_printed_value(value), "{value}");
        }
        // Words, even of hex letters; three characters with a digit (`db2`); a frame's
        // position in code; a label and a value; a version.
        let words = [
            "ef",
            "cafe",
            "deadbeef",
            "db2",
            "x9",
            "xg0",
            "s3",
            "mysql",
            "x9f\\",
            "sqlerror.java:1163",
            "flinksink.scala:47",
            "msg:code",
            "and/or",
            "8.0.21",
            ":9092",
            "host:",
            "pool-3-thread-7",
            "-1",
            "iso-8859-1",
        ];
        for word in words {
            assert!(!is_printed_value(word), "{word}");
        }
    }

    #[test]
    fn a_seam_between_two_known_words_is_not_a_word_the_book_lacks() {
        // `文件看不到`: `件看` joins `文件` and `看不`.
        let words = [
            ("文件", true),
            ("件看", false),
            ("看不", true),
            ("不到", true),
        ];
        assert_eq!(share(&words, false), 0.75);
        assert_eq!(share(&words, true), 1.0);
        // A bigram with an end no known word has is counted: `目录里全是` with only `目录`
        // known leaves `录里`, `里全` and `全是` unknown.
        let words = [
            ("目录", true),
            ("录里", false),
            ("里全", false),
            ("全是", false),
        ];
        assert_eq!(share(&words, true), 0.25);
        // Latin words are never seams.
        let words = [("file", true), ("missing", false), ("found", true)];
        assert!((share(&words, true) - 2.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn a_chinese_word_counts_once_beside_english_ones() {
        let at = |weight: f32, words: &[(&str, bool)]| {
            let tuning = Tuning {
                cjk_bigram_weight: weight,
                cjk_seams: false,
                ..Tuning::default()
            };
            share_with(words, &tuning)
        };
        // `回滚写入 因为: Incorrect string value`, the Chinese words unknown: three bigrams
        // (`因为` is a function word) for two words.
        let mixed = [
            ("回滚", false),
            ("滚写", false),
            ("写入", false),
            ("因为", false),
            ("incorrect", true),
            ("string", true),
            ("value", true),
        ];
        assert!((at(1.0, &mixed) - 3.0 / 6.0).abs() < 1e-6);
        assert!((at(0.5, &mixed) - 3.0 / 4.5).abs() < 1e-6);
        // A text in one script keeps its share whatever the weight.
        let chinese = [
            ("文件", true),
            ("件看", false),
            ("看不", true),
            ("不到", true),
        ];
        for weight in [1.0, 0.5, 0.35] {
            let got = at(weight, &chinese);
            assert!((got - 0.75).abs() < 1e-6, "{weight}: {got}");
        }
    }
}
