//! What a hit's matched clauses and documented error texts say about the query: the run a
//! paste shares with an error text, how much of the query's weight a hit covers, and from
//! those the decision whether the first hit is confident.

use super::Matches;
use crate::Signals;
use crate::analysis::{Analyzer, SENTENCE_END, analyze_sentences};
use crate::query::{BuiltQuery, ClauseKind, is_mask};
use crate::schema::{F_BODY, F_SIG};
use std::collections::{BTreeMap, HashSet};

/// How a query overlaps a hit's error texts: the longest run of tokens shared with one of
/// them, that run's share of the error's length, and whether both texts differ right after
/// (`after`) or right before (`before`) the run (see [`differ_around`]).
#[derive(Clone, Copy)]
pub(super) struct Overlap {
    pub(super) run: usize,
    pub(super) share: f32,
    pub(super) after: bool,
    before: bool,
}

impl Overlap {
    /// Another message of the same template.
    pub(super) fn diverges(&self) -> bool {
        self.after || self.before
    }
}

/// Whether the first hit is very likely right: the query repeats enough of one of its
/// documented error texts, and is not mostly words from outside the book (see
/// [`crate::Tuning::min_error_run`]), or it is one line in the hit's own words (see
/// [`crate::Tuning::word_confidence`]). The baseline claims every answer.
pub(super) fn is_confident(s: &Signals, tuning: &crate::Tuning) -> bool {
    if tuning.plain_bm25 {
        return true;
    }
    // In one typed or copied line, the error repeated must be a fair part of it: a long
    // question around a quoted error asks about more than the error (see
    // `Tuning::min_error_query_share`). A log record's line is the system's own words.
    let repeats_error = repeats_error_text(s.error_run, s.error_share, s.error_diverges, tuning)
        && s.known_share >= tuning.min_known_share
        && (!s.one_line || s.logged_line || s.error_query_share >= tuning.min_error_query_share);
    // One line nearly all in the first hit's words, with the hit well ahead; more than a
    // lone letter.
    let in_its_words = tuning.word_confidence
        && s.one_line
        && s.coverage >= tuning.min_word_coverage
        && s.known_share >= tuning.min_word_known_share
        && s.known_word
        && s.margin >= tuning.min_word_margin;
    // A message the JVM or Flink prints for any connector says little about which one the
    // reader runs: without the connector named, the entry is only one of its causes.
    let generic_only = tuning.generic_errors && s.generic_error && !s.names_connector;
    (repeats_error || in_its_words)
        && !(tuning.connector_agreement && s.other_connector)
        && !generic_only
}

/// Whether a run the query shares with an error text counts as repeating that error: long
/// enough, a large enough share of it, and (with `no_divergence`) not going on differently.
pub(super) fn repeats_error_text(
    run: usize,
    share: f32,
    diverges: bool,
    tuning: &crate::Tuning,
) -> bool {
    run >= tuning.min_error_run
        && share >= tuning.min_error_share
        && !(tuning.no_divergence && diverges)
}

/// Where an error text leaves something out (see [`error_tokens`]); no analyzer emits it.
const GAP: &str = "§gap";

/// The signature parts of each error text's message (error texts with none are dropped). A
/// writer's elision, ` ... ` or ` … ` standing alone between words (`Failed to deserialize
/// data of EventHeaderV4 .... Caused by: …`), becomes a [`GAP`] token: no run crosses it,
/// and a run next to it does not differ there, since what was left out is not known. With
/// `sentence_ends`, a [`SENTENCE_END`] stands between sentences (see
/// [`crate::Tuning::sentence_ends`]).
///
/// A message shorter than `min_words` keeps its exception classes, as the query's lines do
/// (see [`crate::paste::message_part_of_at_least`]).
pub(super) fn error_tokens(
    errors: &[&str],
    sentence_ends: bool,
    min_words: usize,
) -> Vec<Vec<String>> {
    errors
        .iter()
        .map(|e| {
            let message = crate::paste::message_part_of_at_least(e, min_words);
            let pieces: Vec<Vec<String>> = elided_pieces(message)
                .into_iter()
                .map(|piece| analyze_sentences(piece, Analyzer::Sig, sentence_ends))
                .filter(|toks| !toks.is_empty())
                .collect();
            pieces.join(&GAP.to_string())
        })
        .filter(|toks| !toks.is_empty())
        .collect()
}

/// The parts of `text` between elisions: words made only of three or more dots, or `…`,
/// outside quotes. Dots inside a word or a quoted value (`'\xF0\x9F...'`, `'UPDATE t ...
/// WHERE id=1'`) are printed text: the signature analyzer reads a quoted value as one value.
fn elided_pieces(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut from, mut at) = (0, 0);
    // The quote a word opened and no word has closed yet.
    let mut open: Option<char> = None;
    for word in text.split_inclusive(char::is_whitespace) {
        let w = word.trim_end();
        match open {
            Some(q) => {
                if closes_quote(w, q) {
                    open = None;
                }
            }
            None if w == "…" || (w.len() >= 3 && w.bytes().all(|b| b == b'.')) => {
                pieces.push(&text[from..at]);
                from = at + word.len();
            }
            None => {
                if let Some(q) = w.chars().next().filter(|c| matches!(c, '\'' | '"'))
                    && !closes_quote(&w[q.len_utf8()..], q)
                {
                    open = Some(q);
                }
            }
        }
        at += word.len();
    }
    pieces.push(&text[from..]);
    pieces
}

/// Whether `word` ends the quote `q` (punctuation after the closing quote allowed).
fn closes_quote(word: &str, q: char) -> bool {
    word.trim_end_matches(['.', ',', ';', ':', ')', ']'])
        .ends_with(q)
}

/// Whether a token is a word, not a mark ([`GAP`], [`SENTENCE_END`]).
pub(super) fn is_word(t: &str) -> bool {
    t != GAP && t != SENTENCE_END
}

/// The number of an error text's tokens that are words (not marks).
pub(super) fn word_count(toks: &[String]) -> usize {
    toks.iter().filter(|t| is_word(t)).count().max(1)
}

/// The longest run of consecutive tokens shared by a query line and one error text (see
/// [`Overlap`]).
pub(super) fn error_overlap(errors: &[Vec<String>], lines: &[Vec<String>]) -> Overlap {
    let mut best = Overlap {
        run: 0,
        share: 0.0,
        after: true,
        before: false,
    };
    for toks in errors {
        for line in lines {
            let (run, end_err, end_line) = longest_common_run(toks, line);
            let (after, before) = differ_around(toks, line, run, end_err, end_line);
            // A sentence end both texts share is no word of the run.
            let words = toks[end_err - run..end_err]
                .iter()
                .filter(|t| is_word(t))
                .count();
            let share = words as f32 / word_count(toks) as f32;
            let o = Overlap {
                run: words,
                share,
                after,
                before,
            };
            // Longer runs first; among equal ones the run that does not diverge, then the one
            // that does not go on differently (what the ranking penalty reads), so the choice
            // does not depend on the order of the lines.
            if (o.run, o.share, !o.diverges(), !o.after)
                > (best.run, best.share, !best.diverges(), !best.after)
            {
                best = o;
            }
        }
    }
    best
}

/// Whether an error text and a query line that share a run (ending at `end_err`,
/// `end_line`) differ right after it, both going on with different tokens (`… is not set`
/// against `… is /tmp/jaas.conf`), and right before it, both with a different plain word
/// (`Incorrect datetime value … at row 1` against `Incorrect string value … at row 1`).
/// Before the run only letters-only tokens count: a value with digits there (`partition
/// aaa-1 could be …`) is a value of the same message. A value made of letters only (`Topic
/// orders not present …` against `Topic xxx not present …`) also counts, so confidence can
/// be lost there (it never becomes confident from this). A writer's elision next to the run
/// is no difference on that side (see [`error_tokens`]; [`GAP`] is not letters only). A run
/// that starts right after a value of the error text, past two or more of its words, differs
/// before it too: it repeats the template's tail (`… for column '…' at row 1`, which MySQL
/// prints after `Incorrect string value: '…'` and `Data too long` alike), not the message.
fn differ_around(
    err: &[String],
    line: &[String],
    run: usize,
    end_err: usize,
    end_line: usize,
) -> (bool, bool) {
    let after = end_line < line.len() && err.get(end_err).is_some_and(|t| t != GAP);
    let word = |t: Option<&String>| t.is_some_and(|t| t.chars().all(char::is_alphabetic));
    let start = end_err - run;
    let other_word = start > 0
        && end_line > run
        && word(err.get(start - 1))
        && word(line.get(end_line - run - 1));
    let tail_only = start >= 3 && err.get(start - 1).is_some_and(|t| is_mask(t) && t != GAP);
    (after, other_word || tail_only)
}

/// The share of a hit's clause scores that came from signature clauses.
pub(super) fn sig_share(built: &BuiltQuery, m: &Matches) -> f32 {
    let (mut sig, mut all) = (0.0f32, 0.0f32);
    for &(ci, score) in m {
        all += score;
        if built.clauses.get(ci).is_some_and(|c| c.field == F_SIG) {
            sig += score;
        }
    }
    if all > 0.0 { sig / all } else { 0.0 }
}

/// The largest share of one error text's words that occur in the pasted words.
pub(super) fn error_cover(errors: &[Vec<String>], pasted: &HashSet<&str>) -> f32 {
    let mut best = 0.0f32;
    for toks in errors {
        let found = toks
            .iter()
            .filter(|t| pasted.contains(String::as_str(t)))
            .count();
        best = best.max(found as f32 / word_count(toks) as f32);
    }
    best
}

/// The longest common contiguous run of two token sequences and where it ends in each
/// (dynamic programming over one row; both sides are short: an error text and a paste line).
fn longest_common_run(a: &[String], b: &[String]) -> (usize, usize, usize) {
    let mut row = vec![0usize; b.len() + 1];
    let mut best = (0, 0, 0);
    for (i, x) in a.iter().enumerate() {
        let mut diag = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { 0 };
            if row[j + 1] > best.0 {
                best = (row[j + 1], i + 1, j + 1);
            }
            diag = up;
        }
    }
    best
}

/// The share of the query's informative weight a hit matches (any field), and whether a
/// phrase (pair or quoted) matched.
pub(super) fn coverage(built: &BuiltQuery, m: &Matches) -> (f32, bool) {
    let phrase = m.iter().any(|&(ci, _)| {
        built
            .clauses
            .get(ci)
            .is_some_and(|c| matches!(c.kind, ClauseKind::Pair | ClauseKind::Quoted))
    });
    (covered_share(built, m, None), phrase)
}

/// Per query word, the largest score its long-field clauses (body, code) give one of the
/// `hits`.
pub(super) fn best_word_scores<'m>(
    built: &BuiltQuery,
    hits: impl Iterator<Item = &'m Matches>,
) -> Vec<f32> {
    let mut best = vec![0.0f32; built.surfaces.len()];
    for m in hits {
        for (s, (_, score)) in word_scores(built, m) {
            if let Some(b) = best.get_mut(s) {
                *b = b.max(score);
            }
        }
    }
    best
}

/// Per query word a hit matches: whether a short field (signature, identifiers, title, tags)
/// has it, and the score its long-field clauses give (summed over body and code). Ordered,
/// so that sums over it add in the same order in every process (native and browser rank
/// alike).
fn word_scores(built: &BuiltQuery, m: &Matches) -> BTreeMap<usize, (bool, f32)> {
    let mut out: BTreeMap<usize, (bool, f32)> = BTreeMap::new();
    for &(ci, score) in m {
        let Some(c) = built.clauses.get(ci) else {
            continue;
        };
        let Some(s) = c.surface else {
            continue;
        };
        let e = out.entry(s).or_insert((false, 0.0));
        if c.field == F_BODY || c.field == crate::schema::F_CODE {
            e.1 += score;
        } else {
            e.0 = true;
        }
    }
    out
}

/// The share of the query's informative weight the hit covers. Every matched word counts
/// fully, or with `soft` (the best candidates' long-field scores per word, and a share): a
/// word the hit has only in its body or code counts by its score there against the best
/// candidate's (fully from that share of it on). One mention deep in a long page is weaker
/// evidence of what the page is about than the word in a short entry; a word in a short
/// field counts fully.
pub(super) fn covered_share(built: &BuiltQuery, m: &Matches, soft: Option<(&[f32], f32)>) -> f32 {
    let total: f32 = built.surfaces.iter().map(|s| s.1).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let got: f32 = word_scores(built, m)
        .into_iter()
        .filter_map(|(s, (short, score))| {
            let w = built.surfaces.get(s)?.1;
            match soft {
                Some((best, share)) if !short => {
                    let b = *best.get(s)?;
                    let share = share.clamp(f32::EPSILON, 1.0);
                    (b > 0.0).then(|| w * (score / b / share).min(1.0))
                }
                _ => Some(w),
            }
        })
        .sum();
    got / total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Vec<String> {
        crate::analysis::analyze_parts(crate::paste::message_part(text), Analyzer::Sig)
    }

    #[test]
    fn a_run_of_the_template_tail_after_a_value_differs() {
        let documented = error_tokens(
            &["Incorrect string value: '\\xF0\\x9F' for column 'test' at row 1"],
            true,
            4,
        );
        let other = [line(
            "com.mysql.jdbc.MysqlDataTruncation: Data truncation: Data too long for column 'name' at row 1",
        )];
        let o = error_overlap(&documented, &other);
        assert!(
            o.run >= 4 && o.share >= 0.5 && o.diverges(),
            "run {}",
            o.run
        );
        // The message itself, with other values, does not.
        let same = [line(
            "java.sql.SQLException: Incorrect string value: '\\xE9\\xA2' for column 'title' at row 3",
        )];
        let o = error_overlap(&documented, &same);
        assert!(!o.diverges(), "run {}", o.run);
        // One word before the value is a message of its own value, not a head cut off.
        let topic = error_tokens(
            &["Topic 'orders' not present in metadata after 60000 ms"],
            true,
            4,
        );
        let named = [line(
            "Topic payments not present in metadata after 60000 ms",
        )];
        assert!(!error_overlap(&topic, &named).diverges());
    }

    #[test]
    fn a_run_does_not_cross_a_sentence_end_the_other_text_goes_on_over() {
        let documented = "Value out of range. Value: 42";
        // MySQL's message of another template reads `out of range value` without the mark.
        let other = [line("Out of range value for column 'me' at row 1")];
        let marked = error_tokens(&[documented], true, 4);
        let unmarked = error_tokens(&[documented], false, 4);
        assert_eq!(error_overlap(&unmarked, &other).run, 4);
        assert_eq!(error_overlap(&marked, &other).run, 3);
        // The message itself goes on past the end both texts have; the mark is no word.
        let same = [analyze_sentences(
            "Value out of range. Value: 7",
            Analyzer::Sig,
            true,
        )];
        let o = error_overlap(&marked, &same);
        assert_eq!(word_count(&marked[0]), marked[0].len() - 1);
        assert_eq!((o.run, o.share), (word_count(&marked[0]), 1.0));
    }

    #[test]
    fn an_elision_splits_an_error_text_but_dots_in_a_value_do_not() {
        assert_eq!(
            elided_pieces("data of EventHeaderV4 .... Caused by: reset"),
            vec!["data of EventHeaderV4 ", "Caused by: reset"]
        );
        assert_eq!(elided_pieces("a … b ..."), vec!["a ", "b ", ""]);
        let quoted = "Incorrect string value: '\\xF0\\x9F...' for column 'c' at row 1";
        assert_eq!(elided_pieces(quoted), vec![quoted]);
        // Inside a quoted value with spaces the dots are the value's, up to its closing quote.
        let sql = "Received DML 'UPDATE t ... WHERE id=1' for processing ... at row 1";
        assert_eq!(
            elided_pieces(sql),
            vec![
                "Received DML 'UPDATE t ... WHERE id=1' for processing ",
                "at row 1"
            ]
        );
    }

    #[test]
    fn a_run_ending_at_an_elision_does_not_go_on_differently() {
        let paste = [line(
            "EventDataDeserializationException: Failed to deserialize data of \
             EventHeaderV4{timestamp=1631767918000, eventType=UPDATE_ROWS}",
        )];
        let elided = error_tokens(
            &[
                "EventDataDeserializationException: Failed to deserialize data of EventHeaderV4 \
             .... Caused by: java.net.SocketException: Connection reset",
            ],
            true,
            4,
        );
        let o = error_overlap(&elided, &paste);
        assert!(o.run >= 5 && !o.after, "run {} after {}", o.run, o.after);
        // The same words written without the elision are another message going on.
        let whole = error_tokens(
            &[
                "EventDataDeserializationException: Failed to deserialize data of EventHeaderV4 \
             Caused by: java.net.SocketException: Connection reset",
            ],
            true,
            4,
        );
        let o = error_overlap(&whole, &paste);
        assert!(o.run >= 5 && o.after, "run {} after {}", o.run, o.after);
        // The gap is not counted as a word of the text, and no run crosses it.
        assert!(elided[0].iter().filter(|t| *t == GAP).count() == 1);
        assert_eq!(word_count(&elided[0]), elided[0].len() - 1);
        let across = [line(
            "deserialize data of EventHeaderV4 Caused by: java.net.SocketException",
        )];
        let (split, joined) = (
            error_overlap(&elided, &across).run,
            error_overlap(&whole, &across).run,
        );
        assert!(
            split < joined,
            "the run stops at the gap: {split} vs {joined}"
        );
    }
}
