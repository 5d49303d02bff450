//! Highlighting for Java and Flink logs and stack traces (```` ```log ````, `trace`,
//! `stacktrace`), which no tree-sitter grammar covers: log levels, timestamps, `Caused by:`,
//! exception classes, frames and their locations. The classes are the highlight categories
//! the code grammars use (`hl-keyword`, `hl-function`, …), so one stylesheet colours both.

use crate::html::escape;
use regex::Regex;
use std::sync::OnceLock;

/// The patterns a line is read with.
struct Patterns {
    /// A frame: `at` with the method and its location (`at a.b.C.m(C.java:12)`).
    frame: Regex,
    /// Everything else a line of a log or a trace marks, each alternative a named group.
    marks: Regex,
}

/// The patterns, compiled once (`None` only if a pattern did not compile, which the tests
/// would show: the code is then shown plain).
fn patterns() -> Option<&'static Patterns> {
    static PATTERNS: OnceLock<Option<Patterns>> = OnceLock::new();
    PATTERNS
        .get_or_init(|| {
            Some(Patterns {
                frame: Regex::new(r"^(\s*)(at)(\s+)([\w$.<>/]+)(\([^)]*\))").ok()?,
                marks: Regex::new(concat!(
                    r"(?P<time>^\[?\d{4}-\d{2}-\d{2}[ T][0-9:,.]+\]?)",
                    r"|^\s*(?P<caused>Caused by:)",
                    r"|^\s*(?P<more>\.\.\. \d+ more)",
                    r"|(?P<error>\b(?:ERROR|FATAL|SEVERE)\b)",
                    r"|(?P<warning>\b(?:WARN|WARNING)\b)",
                    r"|(?P<routine>\b(?:INFO|DEBUG|TRACE)\b)",
                    r"|(?P<class>\b(?:[a-z_]\w*\.)+[A-Z][\w$]*(?:Exception|Error)\b)",
                ))
                .ok()?,
            })
        })
        .as_ref()
}

/// The highlight category of each group of [`Patterns::marks`].
/// (Categories the bundled themes colour: an error level red as keywords are, a warning
/// orange as types are, a routine level grey as comments.)
const CATEGORIES: [(&str, &str); 7] = [
    ("time", "constant"),
    ("caused", "keyword"),
    ("more", "comment"),
    ("error", "keyword"),
    ("warning", "type"),
    ("routine", "comment"),
    ("class", "function"),
];

/// Whether a block marked as Java code is a stack trace or a log excerpt: it has a frame or
/// a `Caused by:` line, or its first line names an exception with a message. Authors fence
/// traces as `java`; a Java grammar reads them as broken code.
pub fn is_trace(code: &str) -> bool {
    let Some(p) = patterns() else {
        return false;
    };
    let first = code.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    code.lines()
        .any(|l| p.frame.is_match(l) || l.trim_start().starts_with("Caused by:"))
        || p.marks.captures_iter(first).any(|c| {
            c.name("class")
                .is_some_and(|m| first[m.end()..].starts_with(':'))
        })
}

/// `code` as HTML, its marks in `<span class="hl-…">`, the rest escaped.
pub fn highlight(code: &str) -> String {
    let Some(p) = patterns() else {
        return escape(code);
    };
    let mut out = String::with_capacity(code.len() + code.len() / 4);
    for line in code.split_inclusive('\n') {
        highlight_line(p, line, &mut out);
    }
    out
}

fn highlight_line(p: &Patterns, line: &str, out: &mut String) {
    let mut rest = line;
    if let Some(c) = p.frame.captures(line) {
        let part = |i: usize| c.get(i).map_or("", |m| m.as_str());
        out.push_str(part(1));
        span("keyword", part(2), out);
        out.push_str(part(3));
        span("function", part(4), out);
        span("comment", part(5), out);
        rest = &line[c.get(0).map_or(0, |m| m.end())..];
    }
    let mut at = 0;
    for c in p.marks.captures_iter(rest) {
        let Some((category, m)) = CATEGORIES
            .iter()
            .find_map(|&(group, category)| c.name(group).map(|m| (category, m)))
        else {
            continue;
        };
        out.push_str(&escape(&rest[at..m.start()]));
        span(category, m.as_str(), out);
        at = m.end();
    }
    out.push_str(&escape(&rest[at..]));
}

fn span(category: &str, text: &str, out: &mut String) {
    out.push_str("<span class=\"hl-");
    out.push_str(category);
    out.push_str("\">");
    out.push_str(&escape(text));
    out.push_str("</span>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_levels_causes_classes_and_frames() {
        let html = highlight(concat!(
            "2024-05-01 10:00:00,123 ERROR org.apache.flink.runtime.Task - failed <x>\n",
            "Caused by: java.io.EOFException: SSL peer shut down incorrectly\n",
            "\tat com.mysql.cj.Foo.<init>(Foo.java:12)\n",
            "\t... 30 more\n",
        ));
        for part in [
            "<span class=\"hl-constant\">2024-05-01 10:00:00,123</span>",
            "<span class=\"hl-keyword\">ERROR</span>",
            "failed &lt;x&gt;\n",
            "<span class=\"hl-keyword\">Caused by:</span>",
            "<span class=\"hl-function\">java.io.EOFException</span>: SSL peer",
            "\t<span class=\"hl-keyword\">at</span> <span class=\"hl-function\">com.mysql.cj.Foo.&lt;init&gt;</span><span class=\"hl-comment\">(Foo.java:12)</span>\n",
            "\t<span class=\"hl-comment\">... 30 more</span>\n",
        ] {
            assert!(html.contains(part), "{part} not in {html}");
        }
    }

    #[test]
    fn a_trace_fenced_as_java_is_told_from_java_code() {
        for trace in [
            "Caused by: java.io.EOFException: x",
            "java.lang.ClassCastException: class A cannot be cast to class B",
            "2023-07-11 03:42:17\njava.lang.RuntimeException: y\n    at a.b.C.m(C.java:1)",
        ] {
            assert!(is_trace(trace), "{trace}");
        }
        for code in [
            "public class A {\n  void m() throws java.io.IOException {}\n}",
            "throw new java.lang.IllegalStateException(\"at a.b(c)\");",
            "",
        ] {
            assert!(!is_trace(code), "{code}");
        }
    }

    #[test]
    fn text_without_marks_is_only_escaped() {
        let text = "a plain line & <b>\nno newline at the end";
        assert_eq!(highlight(text), escape(text));
    }
}
