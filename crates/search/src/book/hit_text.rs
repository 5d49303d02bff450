//! The texts a hit shows: the error of the entry the query matched, a snippet of the body
//! around the query's words, and the explanation of its score.

use super::Matches;
use crate::Snippet;
use crate::analysis::{Analyzer, Tok, analyze};
use crate::query::{BuiltQuery, ClauseKind, field_name};
use crate::schema::{F_IDS, F_SIG};
use std::collections::HashMap;

/// Characters of body text a snippet shows.
const SNIPPET_CHARS: usize = 220;

/// The entry error that shares the most informative terms with the query.
pub(super) fn best_error(errors: &[&str], built: &BuiltQuery) -> Option<String> {
    let mut best: Option<(f32, &str)> = None;
    for e in errors {
        let mut score = 0.0f32;
        let mut seen: Vec<String> = Vec::new();
        for (fi, a) in [(F_SIG, Analyzer::Sig), (F_IDS, Analyzer::Ident)] {
            for t in analyze(e, a) {
                // A function word (`a`, `the`) or one of no weight names no error.
                if let Some(&w) = built.field_terms[fi].get(&t.text)
                    && w > 0.0
                    && !crate::query::is_stopword(&t.text)
                    && !seen.contains(&t.text)
                {
                    score += w;
                    seen.push(t.text);
                }
            }
        }
        if score > 0.0 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, e));
        }
    }
    best.map(|(_, e)| e.to_string())
}

/// The tokens of `text` that are query terms. A term of one CJK character (a query of one
/// character) is found inside the bigrams the text is read as (`很慢` holds `慢`), as the
/// index finds it, and only that character is the match.
fn matched_tokens(text: &str, terms: &HashMap<String, f32>, analyzer: Analyzer) -> Vec<Tok> {
    let lone: Vec<char> = terms
        .keys()
        .filter_map(|t| {
            let mut cs = t.chars();
            cs.next()
                .filter(|&c| cs.next().is_none() && crate::script::is_cjk(c))
        })
        .collect();
    let mut out = Vec::new();
    for t in analyze(text, analyzer) {
        if terms.contains_key(&t.text) {
            out.push(t);
        } else if !lone.is_empty() {
            for (at, c) in text[t.from..t.to].char_indices() {
                if lone.contains(&c) {
                    let from = t.from + at;
                    // The character ends one bigram and starts the next: found once.
                    if out.last().is_none_or(|o: &Tok| o.from != from) {
                        out.push(Tok {
                            text: c.to_string(),
                            from,
                            to: from + c.len_utf8(),
                            ..t.clone()
                        });
                    }
                }
            }
        }
    }
    out
}

/// A passage of `text` around the densest cluster of query terms, with char-offset highlights.
/// Headings (between two [`crate::HEADING_MARK`]s) are never part of the passage: it stays
/// inside one section, and names that section's heading.
/// `anchors` are the ids of the headings, in order: the section's is the snippet's anchor.
pub(super) fn snippet(
    text: &str,
    anchors: &[&str],
    terms: &HashMap<String, f32>,
    analyzer: Analyzer,
) -> Snippet {
    let text = text.trim_matches(|c: char| c.is_whitespace() && c != crate::HEADING_MARK);
    if text.trim().is_empty() {
        return Snippet::default();
    }
    let mark = crate::HEADING_MARK.len_utf8();
    // Byte ranges of the headings' texts (marks paired in order; an odd last one is no heading).
    let marks: Vec<usize> = text
        .match_indices(crate::HEADING_MARK)
        .map(|(i, _)| i)
        .collect();
    let headings: Vec<(usize, usize)> =
        marks.chunks_exact(2).map(|p| (p[0] + mark, p[1])).collect();
    let toks = matched_tokens(text, terms, analyzer);
    // Window start: the matched token whose following 2 × SNIPPET_CHARS bytes of its own
    // section hold the most distinct terms (weighted); no match: the beginning of the text.
    // A window that ran on into the next section would credit this one with a heading's
    // words that name the other (a FAQ's next question).
    let mut best = (0.0f32, 0usize);
    for (i, t) in toks.iter().enumerate() {
        let section_end = headings
            .iter()
            .find(|h| h.0 > t.from)
            .map_or(text.len(), |h| h.0 - mark);
        let mut seen: Vec<&str> = Vec::new();
        let mut score = 0.0;
        for u in &toks[i..] {
            if u.to > t.from + SNIPPET_CHARS * 2 || u.from >= section_end {
                break;
            }
            if !seen.contains(&u.text.as_str()) {
                seen.push(&u.text);
                score += terms.get(&u.text).copied().unwrap_or(0.0).max(0.1);
            }
        }
        if score > best.0 {
            best = (score, t.from);
        }
    }
    // No match: the first words, those of the first section when a heading comes first.
    if best.0 == 0.0
        && let Some(h) = headings
            .first()
            .filter(|h| text[..h.0 - mark].trim().is_empty())
    {
        best.1 = h.0;
    }
    // The section of that token: the last heading that starts at or before it. A match in
    // the heading itself shows the section's first words.
    let section = headings.iter().rev().find(|h| h.0 <= best.1).copied();
    let floor = section.map_or(0, |h| h.1 + mark);
    let anchor = best.1.max(floor);
    // Start a little before the first match, on a char boundary, preferably at a word start.
    let mut start = anchor.saturating_sub(40).max(floor);
    while start > floor && !text.is_char_boundary(start) {
        start -= 1;
    }
    // After the first whitespace, whatever its width (a no-break or ideographic space is
    // more than one byte).
    if start > floor
        && let Some((sp, c)) = text[start..anchor]
            .char_indices()
            .find(|(_, c)| c.is_whitespace())
    {
        start += sp + c.len_utf8();
    }
    // The section ends where the next heading starts.
    let section_end = headings
        .iter()
        .find(|h| h.0 > start)
        .map_or(text.len(), |h| h.0 - mark);
    let end = text[start..section_end]
        .char_indices()
        .nth(SNIPPET_CHARS)
        .map_or(section_end, |(off, _)| start + off);
    let raw = &text[start..end];
    let window = raw.trim_end();
    let end = start + window.len();
    let prefix = if start > floor { "…" } else { "" };
    let suffix = if end < section_end && !text[end..section_end].trim().is_empty() {
        "…"
    } else {
        ""
    };
    let lead = window.len() - window.trim_start().len();
    let shown = format!("{prefix}{}{suffix}", window.trim_start());
    let shift = prefix.chars().count();
    // Byte ranges inside the window, merged, then converted to char offsets.
    let mut ranges: Vec<(usize, usize)> = toks
        .iter()
        .filter(|t| t.from >= start + lead && t.to <= end)
        .map(|t| (t.from - start - lead, t.to - start - lead))
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.0 <= last.1 => last.1 = last.1.max(r.1),
            _ => merged.push(r),
        }
    }
    let body = window.trim_start();
    let char_at = |b: usize| body[..b].chars().count() + shift;
    let highlights = merged
        .into_iter()
        .map(|(a, b)| (char_at(a), char_at(b)))
        .collect();
    // The body's first section starts the page (under its title and error texts): a link
    // to it opens the page at its top.
    let index = section.and_then(|s| headings.iter().position(|h| *h == s));
    let starts_page = index == Some(0) && text[..headings[0].0 - mark].trim().is_empty();
    let anchor = index
        .filter(|_| !starts_page)
        .and_then(|i| anchors.get(i))
        .filter(|a| !a.is_empty())
        .map(|a| a.to_string());
    let section = section
        .map(|h| text[h.0..h.1].trim().to_string())
        .filter(|h| !h.is_empty());
    Snippet {
        text: shown,
        highlights,
        section,
        anchor,
    }
}

/// The `--explain` text of a hit: its score per field, then each matched clause.
pub(super) fn explain_text(built: &BuiltQuery, score: f32, m: &Matches) -> String {
    let mut lines: Vec<(f32, String)> = m
        .iter()
        .map(|&(ci, s)| {
            let c = &built.clauses[ci];
            let kind = match c.kind {
                ClauseKind::Term => "term",
                ClauseKind::Pair => "pair",
                ClauseKind::Quoted => "phrase",
                ClauseKind::Fuzzy => "fuzzy",
            };
            (
                s,
                format!(
                    "{:>7.3}  {:<5} {:<6} {}",
                    s,
                    field_name(c.field),
                    kind,
                    c.label
                ),
            )
        })
        .collect();
    lines.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut by_field: HashMap<&str, f32> = HashMap::new();
    for &(ci, s) in m {
        *by_field
            .entry(field_name(built.clauses[ci].field))
            .or_default() += s;
    }
    let mut fields: Vec<(&str, f32)> = by_field.into_iter().collect();
    fields.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let summary: Vec<String> = fields.iter().map(|(f, s)| format!("{f}={s:.2}")).collect();
    let sum: f32 = fields.iter().map(|(_, s)| s).sum();
    // The clauses' sum, then what the reranking (coverage of the query, a repeated error's
    // template, the connector named, a symptom line) multiplied it by.
    let mut out = format!(
        "score {score:.3} = ({}) × {:.3}\n",
        summary.join(" + "),
        if sum > 0.0 { score / sum } else { 1.0 }
    );
    for (_, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A space wider than one byte before the passage start (a no-break space from
    /// `&nbsp;`, a Chinese full-width space) must not cut a character.
    #[test]
    fn a_snippet_starts_after_a_wide_space() {
        let terms: HashMap<String, f32> = [("kafka".to_string(), 1.0)].into();
        for space in ['\u{a0}', '\u{3000}', '\u{2003}'] {
            let body = format!("{}{space}kafka lag", "x".repeat(50));
            let s = snippet(&body, &[], &terms, Analyzer::Prose);
            assert_eq!(s.text, "…kafka lag", "space {space:?}");
            assert_eq!(s.highlights, vec![(1, 6)]);
            assert_eq!(s.section, None);
        }
    }

    /// A passage stays inside the section of its match and names that section; a heading
    /// that matches shows its section's first words.
    #[test]
    fn a_snippet_names_its_sections_anchor_but_not_the_first_sections() {
        let m = crate::HEADING_MARK;
        let text = format!("{m}Cause{m} one {m}Example{m} alpha {m}Fix{m} two {m}Example{m} beta");
        let anchors = ["cause", "example", "fix", "example-1"];
        let at = |word: &str| {
            let terms: HashMap<String, f32> = [(word.to_string(), 1.0)].into();
            let s = snippet(&text, &anchors, &terms, Analyzer::Prose);
            (s.section, s.anchor)
        };
        let some = |s: &str| Some(s.to_string());
        assert_eq!(at("beta"), (some("Example"), some("example-1")));
        assert_eq!(at("alpha"), (some("Example"), some("example")));
        assert_eq!(at("one"), (some("Cause"), None));
        // Text before the first heading: that heading's section no longer starts the page.
        let text = format!("intro {m}Cause{m} one");
        let terms: HashMap<String, f32> = [("one".to_string(), 1.0)].into();
        let s = snippet(&text, &["cause"], &terms, Analyzer::Prose);
        assert_eq!(s.anchor.as_deref(), Some("cause"));
        // No ids known: no anchor.
        let s = snippet(&text, &[], &terms, Analyzer::Prose);
        assert_eq!(s.anchor, None);
        // A question whose heading holds the words wins over the end of the question before
        // it, whose window would run on into that heading.
        let text = format!(
            "{m}Q11: Received DML{m} The binlog is not what was expected. {m}Q12: Public Key Retrieval is not allowed{m} Set allowPublicKeyRetrieval."
        );
        let terms: HashMap<String, f32> = ["public", "key", "retrieval", "is", "not", "allowed"]
            .iter()
            .map(|w| (w.to_string(), 1.0))
            .collect();
        let s = snippet(&text, &["q11", "q12"], &terms, Analyzer::Prose);
        assert_eq!(s.anchor.as_deref(), Some("q12"), "{s:?}");
    }

    /// A query of one Han character finds it inside the text's bigrams, and marks only it.
    #[test]
    fn a_snippet_marks_one_cjk_character_inside_running_text() {
        let terms: HashMap<String, f32> = [("慢".to_string(), 1.0)].into();
        let body = format!("{}。作业处理得很慢。慢查询也多。", "开头".repeat(40));
        let s = snippet(&body, &[], &terms, Analyzer::Prose);
        let marked: Vec<String> = s
            .highlights
            .iter()
            .map(|&(a, b)| s.text.chars().skip(a).take(b - a).collect())
            .collect();
        assert_eq!(marked, ["慢", "慢"], "{s:?}");
        assert!(s.text.contains("处理得很慢"), "{}", s.text);
    }

    #[test]
    fn a_snippet_stays_in_its_section_and_names_it() {
        let m = crate::HEADING_MARK;
        let terms: HashMap<String, f32> = [("offset".to_string(), 1.0)].into();
        let body = format!(
            "{m}Symptom{m}The job reads nothing. {m}Cause{m}The committed offset is gone. {m}Fix{m}Reset it."
        );
        let s = snippet(&body, &[], &terms, Analyzer::Prose);
        assert_eq!(s.text, "The committed offset is gone.");
        assert_eq!(s.section.as_deref(), Some("Cause"));
        let hl: String = s
            .text
            .chars()
            .skip(s.highlights[0].0)
            .take(s.highlights[0].1 - s.highlights[0].0)
            .collect();
        assert_eq!(hl, "offset");
        // Without a match: the first section's words, not its heading.
        let s = snippet(&body, &[], &HashMap::new(), Analyzer::Prose);
        assert_eq!(s.text, "The job reads nothing.");
        assert_eq!(s.section.as_deref(), Some("Symptom"));
        // A match in a heading.
        let terms: HashMap<String, f32> = [("fix".to_string(), 1.0)].into();
        let s = snippet(&body, &[], &terms, Analyzer::Prose);
        assert_eq!(
            (s.text.as_str(), s.section.as_deref()),
            ("Reset it.", Some("Fix"))
        );
        // A long section is cut with an ellipsis, before the next heading.
        let long = format!(
            "{m}Cause{m}{} offset here. {m}Fix{m}Reset.",
            "word ".repeat(100)
        );
        let terms: HashMap<String, f32> = [("offset".to_string(), 1.0)].into();
        let s = snippet(&long, &[], &terms, Analyzer::Prose);
        assert!(
            s.text.starts_with('…') && s.text.ends_with("offset here."),
            "{}",
            s.text
        );
        assert!(!s.text.contains("Fix"));
    }
}
