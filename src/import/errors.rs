//! Error texts proposed for an entry's `errors`: quoted errors in the question, inline code that
//! reads as an error, and the exception and ERROR lines of log- or stack-trace-shaped code
//! blocks. They are proposals: the import report lists each one for an author to review.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// At most this many proposals per entry (the root cause and outer error of a trace, a few
/// quoted messages).
const MAX_PER_ENTRY: usize = 5;
/// Longer lines are cut here (at a character boundary).
const MAX_LEN: usize = 300;
/// Shorter texts are too generic to be an entry's error.
const MIN_LEN: usize = 12;
/// Code languages that are programs or configuration, not output.
const NOT_OUTPUT: [&str; 16] = [
    "sql",
    "yaml",
    "yml",
    "json",
    "toml",
    "xml",
    "properties",
    "ini",
    "python",
    "py",
    "scala",
    "go",
    "rust",
    "js",
    "javascript",
    "ts",
];

/// Whether a text reads as an error message: an exception class, an `Error:`/`ERROR` marker,
/// or a message opening such as `Failed to …`.
pub fn looks_like_error(text: &str) -> bool {
    let t = text.trim();
    if t.chars().count() < MIN_LEN {
        return false;
    }
    const MARKS: [&str; 17] = [
        "Error:",
        "error:",
        "ERROR",
        "Exception",
        "Caused by:",
        "errno",
        "错误码",
        "报错",
        "异常",
        "FATAL",
        "refused",
        "denied",
        "timed out",
        "failed",
        "not found",
        "Invalid ",
        "Unknown ",
    ];
    const OPENINGS: [&str; 5] = [
        "Failed to ",
        "Could not ",
        "Cannot ",
        "Unable to ",
        "No such ",
    ];
    exception_class(t).is_some()
        || MARKS.iter().any(|m| t.contains(m))
        || OPENINGS.iter().any(|o| t.starts_with(o))
}

/// The first Java-style exception or error class in a text (`java.sql.SQLException`,
/// `OutOfMemoryError`), with its byte offset.
fn exception_class(text: &str) -> Option<(usize, &str)> {
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        let ident = c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$');
        match (ident, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let word = text[s..i].trim_end_matches('.');
                if word.len() > 9
                    && (word.ends_with("Exception") || word.ends_with("Error"))
                    && word.starts_with(|c: char| c.is_ascii_alphabetic())
                {
                    return Some((s, word));
                }
                start = None;
            }
            _ => {}
        }
    }
    None
}

/// Proposals for an entry, each with `file:line`: `title` and its inline `code` (at `line` of
/// `rel`), then what the body (its first line at `body_line`) quotes.
pub fn propose(
    title: &str,
    code: &[String],
    body: &str,
    rel: &str,
    (line, body_line): (usize, usize),
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |text: &str, at_line: usize| {
        let text = cut(tidy(text));
        if text.chars().count() >= MIN_LEN
            && out.len() < MAX_PER_ENTRY
            && !out.iter().any(|(t, _)| *t == text)
        {
            out.push((text, format!("{rel}:{at_line}")));
        }
    };
    // A bare class name (`TimeoutException`) says too little: quoted errors need a message.
    let quoted: Vec<&String> = code
        .iter()
        .filter(|c| looks_like_error(c) && c.trim().contains(' '))
        .collect();
    for c in &quoted {
        add(c, line);
    }
    if quoted.is_empty() {
        // A quoted error that holds the exception is the whole error (`This error "…:
        // FooException: …" occurs when …`); else the exception to the end of the title.
        if let Some(q) = quoted_span(title).filter(|q| looks_like_error(q)) {
            add(q, line);
        } else if let Some((at, _)) = exception_class(title)
            && title[at..].contains(": ")
        {
            add(&without_question_tail(&title[at..]), line);
        } else if let Some(quote) = reported_error(title) {
            add(&quote, line);
        } else if names_an_error(title) {
            // A question that names an error quotes its message (`How can I resolve the
            // RuntimeException saying `hbase-default.xml file seems to be for an older
            // version``), which need not read as an error by itself.
            for c in code.iter().filter(|c| reads_as_message(c)) {
                add(c, line);
            }
        }
    }
    let mut block: Option<(String, usize)> = None;
    let lines = crate::diagnostic::LineIndex::new(body);
    let parser = Parser::new(body).into_offset_iter();
    for (event, range) in parser {
        let at_line = body_line + lines.line(range.start) - 1;
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split([' ', ',', '{'])
                        .next()
                        .unwrap_or("")
                        .to_lowercase(),
                    CodeBlockKind::Indented => String::new(),
                };
                if !NOT_OUTPUT.contains(&lang.as_str()) {
                    block = Some((String::new(), at_line + 1));
                }
            }
            Event::Text(t) => {
                if let Some((text, _)) = block.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((text, first)) = block.take() {
                    for (text, n) in from_log(&text) {
                        add(&text, first + n);
                    }
                }
            }
            Event::Code(c) if block.is_none() && looks_like_error(&c) && c.trim().contains(' ') => {
                add(&c, at_line)
            }
            _ => {}
        }
    }
    out
}

/// Whether a title names an error: an exception class, or the words error or exception.
fn names_an_error(title: &str) -> bool {
    let lower = title.to_lowercase();
    exception_class(title).is_some()
        || lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| matches!(w, "error" | "exception"))
        || ["报错", "错误", "异常"].iter().any(|m| title.contains(m))
}

/// Whether inline code reads as a printed message: at least three words, none of them code
/// (`=`, brackets, quotes, semicolons, `*`, `|`: a setting, a statement or a pipeline).
fn reads_as_message(code: &str) -> bool {
    let words: Vec<&str> = code.split_whitespace().collect();
    words.len() >= 3
        && !code.contains([
            '=', '(', ')', '{', '}', '[', ']', ';', '\'', '"', '<', '>', '$', '*', '|',
        ])
        && words
            .iter()
            .filter(|w| w.chars().all(char::is_alphabetic))
            .count()
            * 2
            >= words.len()
}

/// The first double-quoted span of a title (`"…"` or `“…”`).
fn quoted_span(title: &str) -> Option<&str> {
    let (open, close) = [('"', '"'), ('“', '”')]
        .into_iter()
        .find(|(o, _)| title.contains(*o))?;
    let start = title.find(open)? + open.len_utf8();
    let end = start + title[start..].find(close)?;
    Some(title[start..end].trim())
}

/// What a question says a job reported: the text after "reports an error", "报错" and the
/// like, without the question that follows it (`…, what should I do?`).
fn reported_error(title: &str) -> Option<String> {
    const MARKERS: [&str; 9] = [
        "reports an error",
        "reported an error",
        "throws an error",
        "throws an exception",
        "fails with",
        "failed with",
        "报错",
        "抛出异常",
        "出现异常",
    ];
    let lower = title.to_lowercase();
    // Lowercasing keeps the offsets of these ASCII and CJK markers.
    let (at, marker) = MARKERS
        .iter()
        .filter_map(|m| lower.find(m).map(|i| (i, *m)))
        .min_by_key(|(i, _)| *i)?;
    if lower.len() != title.len() {
        return None;
    }
    // (`get`: the lowercased offsets are the title's for these markers, but never slice blind.)
    let rest = title
        .get(at + marker.len()..)?
        .trim_start_matches([' ', ':', '：', '"', '“', '.', ',']);
    let mut text = without_question_tail(rest);
    // A report told in the reader's own words (no Latin letters: `报错用户名密码错误, 但其他…`)
    // is a description, not the printed message; only its first clause is kept, and it must
    // still be long enough to stand as an error text.
    if !text.chars().any(|c| c.is_ascii_alphabetic())
        && let Some(i) = text.find([',', '，'])
    {
        text.truncate(i);
    }
    (text.chars().count() >= MIN_LEN).then_some(text)
}

/// A message without the question a FAQ title appends (`…,What should I do?`, `…，怎么办？`).
fn without_question_tail(text: &str) -> String {
    const TAILS: [&str; 10] = [
        "what should i do",
        "what can i do",
        "how to fix",
        "how do i fix",
        "what is the reason",
        "why",
        "怎么办",
        "如何解决",
        "是什么原因",
        "这是什么原因",
    ];
    let lower = text.to_lowercase();
    let mut end = text.len();
    if lower.len() == text.len() {
        for t in TAILS {
            if let Some(i) = lower.rfind(t) {
                let Some(before) = text.get(..i).map(str::trim_end) else {
                    continue;
                };
                if before.ends_with([',', '，', '.', '。', ';', '；', '?', '？']) && i < end {
                    end = before.len() - before.chars().last().map_or(0, char::len_utf8);
                }
            }
        }
    }
    text[..end]
        .trim()
        .trim_end_matches(['?', '？', ',', '，', '"', '”'])
        .trim()
        .to_string()
}

/// Error texts in code of log or stack-trace shape (see [`from_log`]), for pages that are
/// indexed as they are (`kbook index`).
pub fn log_errors(code: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (text, _) in from_log(code) {
        let text = cut(text.trim());
        if text.chars().count() >= MIN_LEN && out.len() < MAX_PER_ENTRY && !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

/// From a code block of log or stack-trace shape: the root cause (last `Caused by:`), the
/// outermost exception line, and ERROR log lines' messages, each with its 0-based line.
fn from_log(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let frames = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("at ") && l.contains('('))
        .count();
    let goroutines = lines.iter().any(|l| l.starts_with("goroutine "));
    let mut out = Vec::new();
    let mut exceptions: Vec<(String, usize)> = Vec::new();
    for (n, l) in lines.iter().enumerate() {
        let t = l.trim();
        let t = t.strip_prefix("Caused by:").map_or(t, str::trim);
        let t = uncaught_in_thread(t);
        if let Some((0, _)) = exception_class(t) {
            exceptions.push((t.to_string(), n));
        } else if frames > 0 && is_js_error(t) {
            // Node's `Error: read ECONNRESET` / `TypeError: …` above `at …` frames.
            exceptions.push((t.to_string(), n));
        } else if goroutines && t.starts_with("panic: ") {
            // Go's panic line, above its goroutines' stacks.
            out.push((t.to_string(), n));
        } else if let Some(msg) = log_error_message(t) {
            out.push((msg, n));
        }
    }
    // A lone exception line counts only in a trace (frames below it) or with a message.
    exceptions.retain(|(t, _)| frames > 0 || t.contains(": "));
    if let Some(last) = exceptions.last() {
        out.insert(0, last.clone());
    }
    if exceptions.len() > 1 {
        out.insert(1, exceptions[0].clone());
    }
    out
}

/// A Java trace's first line without the JVM's `Exception in thread "main" ` before the
/// exception.
fn uncaught_in_thread(line: &str) -> &str {
    line.strip_prefix("Exception in thread \"")
        .and_then(|rest| rest.split_once('"'))
        .map_or(line, |(_, exception)| exception.trim_start())
}

/// Whether a line is a JavaScript error with its message: `Error: …`, `TypeError: …`.
fn is_js_error(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(name, message)| {
        name.ends_with("Error")
            && name.chars().all(|c| c.is_ascii_alphabetic())
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && !message.trim().is_empty()
    })
}

/// The message of an ERROR/FATAL log line (after the logger's ` - ` when there is one).
fn log_error_message(line: &str) -> Option<String> {
    let level = ["ERROR", "FATAL"].iter().find_map(|lv| line.find(lv))?;
    let rest = &line[level..];
    let msg = match rest.find(" - ") {
        Some(i) => &rest[i + 3..],
        None => rest
            .split_once([' ', ':', ']'])
            .map_or("", |(_, m)| m)
            .trim_start_matches([' ', ':', ']']),
    };
    let msg = msg.trim();
    (msg.chars().count() >= MIN_LEN).then(|| msg.to_string())
}

/// A proposal without what surrounds the error in the sentence it was taken from: a closing
/// question mark or CJK full stop, and the end of a quoted key before a quoted message
/// (`Message": "[INTERNAL_ERROR]…` → `[INTERNAL_ERROR]…`): quotes left unpaired.
fn tidy(text: &str) -> &str {
    let mut t = text
        .trim()
        .trim_end_matches(['?', '？', '。', '，', '；'])
        .trim();
    // The end of a quoted key, then the quoted message.
    if let Some(i) = t.find("\": \"")
        && !t[..i].contains('"')
    {
        t = &t[i + 4..];
    }
    if t.matches('"').count() % 2 == 1 {
        t = t.strip_suffix('"').unwrap_or(t);
    }
    while t.matches('"').count() % 2 == 1 {
        match t.find('"') {
            Some(i) => t = t[i + 1..].trim_start_matches([' ', ':']).trim(),
            None => break,
        }
    }
    t
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_LEN) {
        Some((i, _)) => text[..i].to_string(),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `propose` proposes for a question alone: its title and inline code, a body
    /// without errors.
    fn from_title(title: &str, code: &[&str]) -> Vec<(String, String)> {
        let code: Vec<String> = code.iter().map(|c| c.to_string()).collect();
        propose(title, &code, "x\n", "q.md", (1, 1))
    }

    #[test]
    fn proposals_lose_what_surrounds_the_error() {
        assert_eq!(
            tidy("Message\": \"[INTERNAL_ERROR]single replica load is disabled on BE."),
            "[INTERNAL_ERROR]single replica load is disabled on BE."
        );
        assert_eq!(
            tidy("Unsupported command ( COM_STMT_PREPARED )。"),
            "Unsupported command ( COM_STMT_PREPARED )"
        );
        assert_eq!(
            tidy("Column \"id\" cannot be null?"),
            "Column \"id\" cannot be null"
        );
        assert_eq!(tidy("\"table is locked"), "table is locked");
        let p = propose(
            "This error \"get detail failed: org.example.FooException: meta failed: java.net.UnknownHostException:h1\" occurs when I query Hive",
            &[],
            "",
            "faq.md",
            (3, 4),
        );
        assert_eq!(
            p,
            [(
                "get detail failed: org.example.FooException: meta failed: java.net.UnknownHostException:h1".to_string(),
                "faq.md:3".to_string()
            )]
        );
    }

    #[test]
    fn traces_of_the_jvm_node_and_go_give_their_error() {
        let errors = |code: &str| log_errors(code);
        assert_eq!(
            errors(
                "Exception in thread \"main\" java.lang.IllegalStateException: Connection pool shut down\n\tat a.B.c(B.java:1)\n"
            ),
            ["java.lang.IllegalStateException: Connection pool shut down"]
        );
        assert_eq!(
            errors(
                "Error: read ECONNRESET\n    at TCP.onStreamRead (node:internal/stream_base_commons:217:20)\n"
            ),
            ["Error: read ECONNRESET"]
        );
        assert_eq!(
            errors(
                "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation]\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:9 +0x1d\n"
            ),
            ["panic: runtime error: invalid memory address or nil pointer dereference"]
        );
        // Without frames, a line that merely starts like an error name is not taken.
        assert!(errors("KeyError: 'x'\n").is_empty());
    }

    #[test]
    fn traces_give_root_cause_then_outer_error() {
        let body = "The job fails:\n\n```\n2024-01-01 10:00:00,000 ERROR org.apache.flink.runtime.Task - Source switched to FAILED\norg.apache.flink.runtime.JobException: Recovery is suppressed\n\tat org.apache.flink.A.b(A.java:1)\nCaused by: java.sql.SQLException: No suitable driver found for jdbc:mysql://h/db\n\tat java.sql.DriverManager.getConnection(DriverManager.java:689)\n```\n";
        let p = propose("Why does the job fail?", &[], body, "faq.md", (10, 10));
        let texts: Vec<&str> = p.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "java.sql.SQLException: No suitable driver found for jdbc:mysql://h/db",
                "org.apache.flink.runtime.JobException: Recovery is suppressed",
                "Source switched to FAILED",
            ]
        );
        assert_eq!(p[0].1, "faq.md:16");
    }

    #[test]
    fn quoted_errors_in_questions_and_text_but_not_programs() {
        let p = propose(
            "Why do I get `Connection refused: localhost/127.0.0.1:9092`?",
            &["Connection refused: localhost/127.0.0.1:9092".to_string()],
            "It logs `java.io.IOException: Broken pipe` and `retries`.\n\n```sql\nSELECT 'ERROR: not output';\n```\n",
            "a.md",
            (3, 3),
        );
        let texts: Vec<&str> = p.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "Connection refused: localhost/127.0.0.1:9092",
                "java.io.IOException: Broken pipe"
            ]
        );
        let p = from_title(
            "java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver",
            &[],
        );
        assert_eq!(
            p[0].0,
            "java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver"
        );
        assert!(propose("How do I upgrade?", &[], "Run `make`.\n", "c.md", (1, 1)).is_empty());
        // A question naming an error quotes its message; a setting or a statement is no
        // message, and neither is a quoted phrase in a question that names no error.
        let p = from_title(
            "How can I resolve the RuntimeException saying `hbase-default.xml file seems to be for an older version of HBase`?",
            &["hbase-default.xml file seems to be for an older version of HBase"],
        );
        assert_eq!(
            p[0].0,
            "hbase-default.xml file seems to be for an older version of HBase"
        );
        let setting = "SET 'table.exec.sink.not-null-enforcer' = 'DROP'".to_string();
        let title = format!("How do I avoid the error with `{setting}`?");
        assert!(from_title(&title, &[setting.as_str()]).is_empty());
        // The title's own exception stays the proposal; a command quoted beside it is none.
        let p = from_title(
            "How do I fix java.net.ConnectException: Connection refused when running `flink run my job`?",
            &["flink run my job"],
        );
        assert_eq!(p.len(), 1);
        assert!(
            p[0].0
                .starts_with("java.net.ConnectException: Connection refused")
        );
        let phrase = "exactly once delivery semantics".to_string();
        assert!(
            from_title(
                "How do I get `exactly once delivery semantics`?",
                &[phrase.as_str()]
            )
            .is_empty()
        );
        let p = from_title(
            "The job reports an error ConnectException: A slave with the same server_id has connected,What should I do?",
            &[],
        );
        assert_eq!(
            p[0].0,
            "ConnectException: A slave with the same server_id has connected"
        );
        let p = from_title(
            "The job reports an error replication slot \"x\" is active. What should I do?",
            &[],
        );
        assert_eq!(p[0].0, "replication slot \"x\" is active");
        let p = from_title(
            "作业报错 Public Key Retrieval is not allowed，怎么办？",
            &[],
        );
        assert_eq!(p[0].0, "Public Key Retrieval is not allowed");
        // A description in the reader's words is not proposed past its first clause.
        let p = from_title(
            "MongoDB CDC 报错用户名密码错误, 但其他组件使用该用户名密码都能正常连接，这是什么原因？",
            &[],
        );
        assert!(p.is_empty(), "{p:?}");
        assert!(!looks_like_error("Error handling"));
        assert!(looks_like_error("Failed to create new KafkaAdminClient"));
    }
}
