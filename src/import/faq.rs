//! FAQ pages: one entry per question.
//!
//! A page is a FAQ when at one heading level at least two headings, and at least half of that
//! level's headings, are questions (`### Q1: …`, `## How do I …?`, `## 为什么 …`, a quoted
//! error), or when it has at least two `<details><summary>` blocks. On a page that calls
//! itself a FAQ (`faq` in its path or title, `常见问题`, `Q&A`) one question among two
//! headings of a level is enough, and then every heading of that level is one: such pages
//! also word questions as statements (`## This error "…" occurs when …`, `## 导入失败：too
//! many filtered rows`). Each question
//! runs to the next heading of its level or above (or to its `</details>`); the rest of the
//! page is its introduction.

use crate::diagnostic::LineIndex;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A FAQ page cut into questions.
#[derive(Debug)]
pub struct FaqSplit {
    /// The text outside every question (introduction, non-question sections); empty when it
    /// holds only headings.
    pub intro: String,
    /// The questions in page order.
    pub questions: Vec<Question>,
}

/// One question and its answer.
#[derive(Debug)]
pub struct Question {
    /// The question without its `Q1:` numbering.
    pub title: String,
    /// Inline code in the question (candidate error texts).
    pub title_code: Vec<String>,
    /// The question with its inline code in backticks, as the error texts it quotes were
    /// printed (`"error: linker `cc` not found"`).
    pub title_quoting: String,
    /// The anchor the old page gave it.
    pub anchor: String,
    /// The answer.
    pub body: String,
    /// 1-based line of the question in the body.
    pub line: usize,
    /// 1-based line in the body of the answer's first line.
    pub body_line: usize,
    /// The heading above the questions it is grouped under (`## MySQL CDC FAQ`), if any.
    pub group: Option<String>,
}

struct Heading {
    level: usize,
    text: String,
    /// `text` with its inline code in backticks.
    quoting: String,
    code: Vec<String>,
    start: usize,
    end: usize,
    id: Option<String>,
}

/// Whether a page calls itself a FAQ, by its path (`docs/faq.md`, `faq/_index.md`) or title.
pub fn named_faq(path: &str, title: &str) -> bool {
    let named = |t: &str| {
        let lower = t.to_lowercase();
        lower.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            w == "faq"
                || w == "faqs"
                || w.starts_with("faq") && w[3..].bytes().all(|b| b.is_ascii_digit())
        }) || lower.contains("frequently asked")
            || lower.contains("q&a")
            || t.contains("常见问题")
            || t.contains("问答")
    };
    named(path) || named(title)
}

/// The questions of a FAQ page, or `None` when the page is not one; `named_faq`: the page
/// calls itself a FAQ (see [`named_faq`]).
pub fn split(body: &str, named_faq: bool) -> Option<FaqSplit> {
    let headings = headings(body);
    let mut best: Option<(usize, usize)> = None; // (count, level)
    for level in 1..=6 {
        let at: Vec<&Heading> = headings.iter().filter(|h| h.level == level).collect();
        let asked: Vec<String> = at
            .iter()
            .filter(|h| is_question(&h.text))
            .map(|h| h.text.trim().to_lowercase())
            .collect();
        // A question asked twice is a template's subheading (`### Why is this bad?` under
        // each lint of a reference page), not a FAQ's: a FAQ asks each once.
        if asked
            .iter()
            .enumerate()
            .any(|(i, q)| asked[..i].contains(q))
        {
            continue;
        }
        let questions = asked.len();
        let enough = if named_faq {
            questions >= 1 && at.len() >= 2
        } else {
            questions >= 2 && questions * 2 >= at.len()
        };
        if enough && best.is_none_or(|(n, _)| questions > n) {
            best = Some((questions, level));
        }
    }
    if let Some((_, level)) = best {
        return Some(split_at_level(body, &headings, level, named_faq));
    }
    split_details(body).or_else(|| split_bold(body, &headings, named_faq))
}

/// Gives the questions of `split` (from `body`) the anchors MkDocs gave their headings: its
/// ids count repeats and headings without ASCII words (`_1`, `_2`) over the whole page.
pub fn use_mkdocs_anchors(body: &str, split: &mut FaqSplit) {
    let lines = LineIndex::new(body);
    let mut used = std::collections::HashMap::new();
    let ids: Vec<(usize, String)> = headings(body)
        .iter()
        .map(|h| {
            let id = super::links::mkdocs_id(&h.text, &mut used);
            (lines.line(h.start), h.id.clone().unwrap_or(id))
        })
        .collect();
    for q in &mut split.questions {
        if let Some((_, id)) = ids.iter().find(|(line, _)| *line == q.line) {
            q.anchor = id.clone();
        }
    }
}

/// Questions written as paragraphs of bold text (`**Can I run it on bare metal?**`), each
/// answered by the paragraphs below it up to the next such question or heading: at least
/// two on a page named a FAQ, else three.
fn split_bold(body: &str, headings: &[Heading], named_faq: bool) -> Option<FaqSplit> {
    let bold: Vec<(usize, usize, String)> = bold_paragraphs(body)
        .into_iter()
        .filter(|(_, _, text)| is_question(text))
        .collect();
    if bold.len() < if named_faq { 2 } else { 3 } {
        return None;
    }
    let lines = LineIndex::new(body);
    let mut questions = Vec::new();
    let mut intro = String::new();
    let mut cursor = 0;
    for (i, (start, end, text)) in bold.iter().enumerate() {
        intro.push_str(&body[cursor..*start]);
        let next_question = bold.get(i + 1).map_or(body.len(), |b| b.0);
        // (Headings are in page order: a binary search, not a scan per question.)
        let next_heading = headings
            .get(headings.partition_point(|h| h.start < *end))
            .map_or(body.len(), |h| h.start);
        let stop = next_question.min(next_heading);
        let group = headings[..headings.partition_point(|h| h.start < *start)]
            .last()
            .map(|h| h.text.clone());
        questions.push(Question {
            title: clean_question(text),
            title_code: Vec::new(),
            title_quoting: clean_question(text),
            anchor: anchor(text),
            body: body[*end..stop].trim_matches('\n').to_string() + "\n",
            line: lines.line(*start),
            body_line: answer_line(&lines, body, *end),
            group,
        });
        cursor = stop;
    }
    intro.push_str(&body[cursor..]);
    Some(FaqSplit {
        intro: only_if_text(intro),
        questions,
    })
}

/// Paragraphs that are one bold span and nothing else: their byte range (with the newline
/// after them) and text.
fn bold_paragraphs(body: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    // Inside a paragraph: its start, its text, and whether it is still only one bold span
    // (0: nothing yet, 1: in the span, 2: the span closed).
    let mut current: Option<(usize, String, u8, bool)> = None;
    for (event, range) in Parser::new(body).into_offset_iter() {
        match (event, current.as_mut()) {
            (Event::Start(Tag::Paragraph), _) => {
                current = Some((range.start, String::new(), 0, true))
            }
            (Event::Start(Tag::Strong), Some((_, _, state, ok))) => {
                *ok &= *state == 0;
                *state = 1;
            }
            (Event::End(TagEnd::Strong), Some((_, _, state, _))) => *state = 2,
            (Event::Text(t) | Event::Code(t), Some((_, text, state, ok))) => {
                *ok &= *state == 1;
                text.push_str(&t);
            }
            (Event::SoftBreak, Some((_, text, _, _))) => text.push(' '),
            (Event::End(TagEnd::Paragraph), Some(_)) => {
                if let Some((start, text, state, ok)) = current.take()
                    && ok
                    && state == 2
                {
                    out.push((start, line_end(body, range.end), text.trim().to_string()));
                }
            }
            (_, Some((_, _, _, ok))) => *ok = false,
            _ => {}
        }
    }
    out
}

/// Splits at the headings of `level` that are questions (every one of them when `all`).
fn split_at_level(body: &str, headings: &[Heading], level: usize, all: bool) -> FaqSplit {
    let lines = LineIndex::new(body);
    let mut questions = Vec::new();
    let mut intro = String::new();
    let mut cursor = 0;
    // The last heading above the level, which groups the questions below it.
    let mut group: Option<&Heading> = None;
    for (i, h) in headings.iter().enumerate() {
        if h.level < level {
            group = Some(h);
        }
        // (A heading inside the previous question's text, e.g. in a container the previous
        // one opened, stays in that question.)
        if h.level != level || !(all || is_question(&h.text)) || h.start < cursor {
            continue;
        }
        intro.push_str(&body[cursor..h.start]);
        let end = headings[i + 1..]
            .iter()
            .find(|n| n.level <= level && n.start >= h.end)
            .map_or(body.len(), |n| n.start);
        let group = group.map(|g| g.text.clone());
        questions.push(Question {
            title: clean_question(&h.text),
            title_code: h.code.clone(),
            title_quoting: clean_question(&h.quoting),
            anchor: h.id.clone().unwrap_or_else(|| anchor(&h.text)),
            body: body[h.end..end].trim_matches('\n').to_string() + "\n",
            line: lines.line(h.start),
            body_line: answer_line(&lines, body, h.end),
            group,
        });
        cursor = end;
    }
    intro.push_str(&body[cursor..]);
    FaqSplit {
        intro: only_if_text(intro),
        questions,
    }
}

/// `<details><summary>Q</summary> A </details>` blocks (at least two).
fn split_details(body: &str) -> Option<FaqSplit> {
    let lines = LineIndex::new(body);
    let mut questions = Vec::new();
    let mut intro = String::new();
    let mut cursor = 0;
    while let Some(open) = body[cursor..].find("<details").map(|i| i + cursor) {
        let Some(close) = body[open..].find("</details>").map(|i| i + open) else {
            break;
        };
        let block = &body[open..close];
        let (Some(s), Some(e)) = (block.find("<summary>"), block.find("</summary>")) else {
            break;
        };
        if e < s {
            break;
        }
        let summary = strip_tags(&block[s + "<summary>".len()..e])
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        intro.push_str(&body[cursor..open]);
        questions.push(Question {
            title: clean_question(&summary),
            title_code: code_spans(&summary),
            title_quoting: clean_question(&summary),
            anchor: anchor(&summary),
            body: block[e + "</summary>".len()..]
                .trim_matches('\n')
                .to_string()
                + "\n",
            line: lines.line(open),
            body_line: answer_line(&lines, body, open + e + "</summary>".len()),
            group: None,
        });
        cursor = close + "</details>".len();
    }
    if questions.len() < 2 {
        return None;
    }
    intro.push_str(&body[cursor..]);
    Some(FaqSplit {
        intro: only_if_text(intro),
        questions,
    })
}

/// Every heading with its plain text, inline code, byte range of its line and explicit id.
fn headings(body: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut current: Option<Heading> = None;
    let parser = Parser::new_ext(body, Options::ENABLE_HEADING_ATTRIBUTES).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(Tag::Heading { level, id, .. }) => {
                current = Some(Heading {
                    level: heading_level(level),
                    text: String::new(),
                    quoting: String::new(),
                    code: Vec::new(),
                    start: range.start,
                    end: range.end,
                    id: id.map(|i| i.to_string()),
                });
            }
            Event::Text(t) => {
                if let Some(h) = current.as_mut() {
                    h.text.push_str(&t);
                    h.quoting.push_str(&t);
                }
            }
            Event::Code(c) => {
                if let Some(h) = current.as_mut() {
                    h.text.push_str(&c);
                    h.quoting.push_str(&format!("`{c}`"));
                    h.code.push(c.to_string());
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(mut h) = current.take() {
                    h.text = h.text.trim().to_string();
                    // The heading's own line(s), with the newline after them.
                    h.end = line_end(body, range.end).max(h.end);
                    out.push(h);
                }
            }
            _ => {}
        }
    }
    out
}

fn heading_level(level: HeadingLevel) -> usize {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Whether a heading asks something: a question mark, `Q1:`-style numbering, a question word
/// at the start (English or Chinese), or a quoted error.
pub fn is_question(text: &str) -> bool {
    let t = text.trim();
    let lower = t.to_lowercase();
    if t.ends_with('?') || t.ends_with('？') || numbered_q(&lower).is_some() {
        return true;
    }
    const WORDS: [&str; 19] = [
        "how ", "why ", "what ", "when ", "where ", "which ", "who ", "can ", "could ", "is ",
        "are ", "does ", "do ", "did ", "should ", "will ", "i get ", "i see ", "getting ",
    ];
    const ZH: [&str; 10] = [
        "为什么",
        "如何",
        "怎么",
        "怎样",
        "是否",
        "能否",
        "什么",
        "为何",
        "问：",
        "问:",
    ];
    // `How to create a queue` titles a guide's section; `How to create a queue?` asks.
    if lower.starts_with("how to ") {
        return false;
    }
    WORDS.iter().any(|w| lower.starts_with(w))
        || ZH.iter().any(|w| t.contains(w))
        || t.ends_with('吗')
        || super::errors::looks_like_error(t)
}

/// The length of a `Q1:` / `Q:` / `Question 3.` / `问题1：` prefix.
fn numbered_q(lower: &str) -> Option<usize> {
    let rest = lower
        .strip_prefix("question")
        .or_else(|| lower.strip_prefix('q'))
        .or_else(|| lower.strip_prefix("问题"))?;
    let digits = rest.trim_start().len();
    let rest2 = rest
        .trim_start()
        .trim_start_matches(|c: char| c.is_ascii_digit());
    let had_digits = rest2.len() < digits;
    let sep = rest2.chars().next()?;
    if matches!(sep, ':' | '：' | '.' | ')' | '、') || (had_digits && sep == ' ') {
        Some(lower.len() - rest2.len() + sep.len_utf8())
    } else {
        None
    }
}

/// The question without its numbering (`Q1: Why …` → `Why …`).
fn clean_question(text: &str) -> String {
    let t = text.trim();
    let lower = t.to_lowercase();
    let t = match numbered_q(&lower) {
        // Lowercasing keeps byte offsets for the ASCII and CJK prefixes numbered_q accepts.
        Some(n) if lower.len() == t.len() => t.get(n..).unwrap_or(t).trim(),
        _ => t,
    };
    let t = t
        .strip_prefix("问：")
        .or_else(|| t.strip_prefix("问:"))
        .unwrap_or(t);
    t.trim().to_string()
}

/// The anchor most generators give a heading: lowercase, punctuation dropped, spaces to `-`.
fn anchor(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// `at` when it starts a line (pulldown-cmark's range of a block may already end past its
/// newline), else just past the newline that ends its line: the next line is the answer's.
fn line_end(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    if at == 0 || text[..at].ends_with('\n') {
        return at;
    }
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// The line of an answer starting at `offset`, past the empty lines its body is trimmed of.
fn answer_line(lines: &LineIndex<'_>, text: &str, offset: usize) -> usize {
    let rest = text.get(offset..).unwrap_or("");
    lines.line(offset + (rest.len() - rest.trim_start_matches('\n').len()))
}

/// The text when it has words outside headings, else empty.
fn only_if_text(text: String) -> String {
    let words = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .count();
    if words == 0 { String::new() } else { text }
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `code` spans of inline Markdown.
fn code_spans(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, s)| i % 2 == 1 && !s.is_empty())
        .map(|(_, s)| s.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_faq_splits_per_question_and_keeps_the_intro() {
        let body = "Intro words here.\n\n## Kafka\n\n### Q1: Why is the lag growing?\n\nBecause.\n\n```text\n### not a heading\n```\n\n### Q2: How do I reset offsets?\n\nUse the tool.\n\n## About\n\nMore text.\n";
        let s = split(body, false).unwrap();
        assert_eq!(s.questions.len(), 2);
        assert_eq!(s.questions[0].title, "Why is the lag growing?");
        assert!(s.questions[0].body.contains("### not a heading"));
        assert_eq!(s.questions[0].anchor, "q1-why-is-the-lag-growing");
        assert_eq!(s.questions[0].line, 5);
        assert_eq!(s.questions[1].title, "How do I reset offsets?");
        assert_eq!(s.questions[1].body.trim(), "Use the tool.");
        assert!(s.intro.contains("Intro words") && s.intro.contains("More text"));
        assert_eq!(s.questions[1].group.as_deref(), Some("Kafka"));
    }

    #[test]
    fn an_answer_right_under_its_question_keeps_its_first_line() {
        // No blank line between a question and its answer.
        let body = "## Why is the lag growing?\nBecause the sink is slow.\n\nMore.\n\n## How do I reset offsets?\r\nUse the tool.\n";
        let s = split(body, false).unwrap();
        assert_eq!(
            s.questions[0].body.trim(),
            "Because the sink is slow.\n\nMore."
        );
        assert_eq!(s.questions[0].body_line, 2);
        assert_eq!(s.questions[1].body.trim(), "Use the tool.");
        let setext = "Why is the lag growing?\n-----------------------\nBecause.\n\nHow do I reset offsets?\n-----------------------\nUse the tool.\n";
        let s = split(setext, false).unwrap();
        assert_eq!(s.questions[0].body.trim(), "Because.");
        let bold = "**Why is the lag growing?**\n```text\nlag: 100\n```\n\n**How do I reset offsets?**\n\nUse the tool.\n\n**What is a group?**\n\nA name.\n";
        let s = split(bold, true).unwrap();
        assert_eq!(s.questions[0].body.trim(), "```text\nlag: 100\n```");
    }

    #[test]
    fn pages_that_are_not_faqs_are_not_split() {
        assert!(
            split(
                "## Symptom\n\nx\n\n## Cause\n\ny\n\n## Solution\n\nz\n",
                false
            )
            .is_none()
        );
        assert!(split("## Why?\n\nonly one question\n", false).is_none());
        assert!(split("## Why?\n\nonly one question\n", true).is_none());
        // A page named a FAQ whose headings ask nothing is not split.
        assert!(split("## Setup\n\nx\n\n## Usage\n\ny\n", true).is_none());
        // A reference page whose entries share question-like subheadings is a template.
        let lints = "## non_kebab_case\n\n### What it does\n\na\n\n### Why is this bad?\n\nb\n\n### Example\n\nc\n\n## redundant_feature\n\n### What it does\n\nd\n\n### Why is this bad?\n\ne\n\n### Example\n\nf\n";
        assert!(split(lints, false).is_none());
        // A guide's `How to …` sections ask nothing.
        let guide = "## Background\n\nx\n\n## How to create a link\n\ny\n\n## How to use it\n\nz\n";
        assert!(split(guide, false).is_none());
        assert!(is_question("How to create a link?"));
    }

    /// An error quoted in a question keeps the backticks it was printed with.
    #[test]
    fn a_quoted_error_keeps_its_inline_code() {
        let body = "## Why does `cargo build` fail with \"error: linker `cc` not found\"?\n\nInstall a C toolchain.\n\n## How do I enable logs?\n\nSet it.\n";
        let s = split(body, true).unwrap();
        let q = &s.questions[0];
        assert_eq!(
            q.title,
            "Why does cargo build fail with \"error: linker cc not found\"?"
        );
        let proposed = crate::import::errors::propose(
            &q.title_quoting,
            &q.title_code,
            &q.body,
            "faq.md",
            (1, 3),
        );
        assert_eq!(proposed[0].0, "error: linker `cc` not found");
    }

    #[test]
    fn mkdocs_questions_keep_mkdocs_anchors() {
        let body = "## 概述\n\n介绍。\n\n## 为什么作业失败？\n\n答一。\n\n## 如何重启？\n\n答二。\n\n## Why? {#why}\n\n答三。\n";
        let mut s = split(body, true).unwrap();
        use_mkdocs_anchors(body, &mut s);
        let anchors: Vec<&str> = s.questions.iter().map(|q| q.anchor.as_str()).collect();
        assert_eq!(anchors, ["_1", "_2", "_3", "why"]);
    }

    #[test]
    fn a_page_named_faq_splits_at_every_heading_of_its_question_level() {
        let body = "Intro.\n\n## 导入失败：too many filtered rows\n\n调大 max_filter_ratio。\n\n\
                    ## 当字段为 NULL 时结果为 NULL\n\n标准行为。\n\n## 如何查看版本？\n\n执行 select version()。\n\n\
                    ## This error \"table is locked\" occurs when I run ALTER\n\nWait for the job.\n\n\
                    ## How do I check disk usage?\n\nRun df.\n";
        // Two of five headings ask in a question's words: not a FAQ by its headings alone.
        assert!(split(body, false).is_none());
        let s = split(body, true).unwrap();
        let titles: Vec<&str> = s.questions.iter().map(|q| q.title.as_str()).collect();
        assert_eq!(
            titles,
            vec![
                "导入失败：too many filtered rows",
                "当字段为 NULL 时结果为 NULL",
                "如何查看版本？",
                "This error \"table is locked\" occurs when I run ALTER",
                "How do I check disk usage?",
            ]
        );
        assert_eq!(s.questions[1].body.trim(), "标准行为。");
        assert!(s.intro.contains("Intro."));
        assert!(named_faq("docs/zh/faq/Sql_faq.md", "查询相关问题"));
        assert!(named_faq("content/faq/_index.md", "Questions"));
        assert!(named_faq("docs/sql.md", "常见问题"));
        assert!(named_faq("docs/help.md", "Frequently Asked Questions"));
        assert!(!named_faq("docs/faqtory/setup.md", "Setting up"));
        assert!(!named_faq("docs/kafka.md", "Kafka connector"));
    }

    #[test]
    fn bold_paragraph_questions() {
        let body = "Intro text.\n\n**Can I run the operator on bare metal?**\n\nYes.\n\n\
                    More on that.\n\n**Why does the operator not use\nStatefulSets?**\n\n\
                    It manages volumes directly.\n\n## Other\n\n**Note:** a remark, not a question.\n";
        let s = split(body, true).unwrap();
        let titles: Vec<&str> = s.questions.iter().map(|q| q.title.as_str()).collect();
        assert_eq!(
            titles,
            vec![
                "Can I run the operator on bare metal?",
                "Why does the operator not use StatefulSets?"
            ]
        );
        assert_eq!(s.questions[0].body.trim(), "Yes.\n\nMore on that.");
        assert_eq!(s.questions[1].body.trim(), "It manages volumes directly.");
        assert_eq!(s.questions[1].line, 9);
        assert!(s.intro.contains("Intro text.") && s.intro.contains("a remark"));
        // Two bold questions on a page not named a FAQ are not enough.
        assert!(split(body, false).is_none());
    }

    #[test]
    fn details_blocks_and_chinese_questions() {
        let body = "<details>\n<summary>为什么作业重启后数据重复</summary>\n\n因为……\n</details>\n\n<details><summary>Q2: `Connection refused` on start</summary>\nCheck the port.\n</details>\n";
        let s = split(body, false).unwrap();
        assert_eq!(s.questions.len(), 2);
        assert_eq!(s.questions[0].title, "为什么作业重启后数据重复");
        assert_eq!(s.questions[1].title, "`Connection refused` on start");
        assert_eq!(
            s.questions[1].title_code,
            vec!["Connection refused".to_string()]
        );
        assert!(s.intro.is_empty());
        assert!(is_question("问题1：如何配置"));
        assert_eq!(clean_question("问题1：如何配置"), "如何配置");
        assert!(!is_question("Configuration"));
    }
}
