//! What a paste picks up on its way from the log to the search box, around the text as the
//! system printed it: quote markers of a reply (`> `), the service name Docker Compose writes
//! before each line (`kafka_1  | `), the source `kubectl logs --prefix` writes
//! (`[pod/…/…] `), line numbers of a viewer, HTML escapes of a web page (`&lt;init&gt;`); in
//! place of its characters, a web page's no-break spaces, curly quotes and zero-width
//! spaces; a terminal's colours, a string value's escapes and byte escapes a string's repr
//! doubled ([`crate::escapes`]); and lines broken at a fixed width ([`crate::hard_wraps`]).

use crate::compose::{after_service, ends_with_replica};
use crate::escapes::{collapse_doubled_byte_escapes, strip_terminal_codes, unescape_string_lines};
use crate::hard_wraps::join_hard_wraps;
use crate::json_lines::unwrap_json_lines_with;
use crate::line_breaks::restore_line_breaks;
use crate::long_log::focus_long_log;
use std::borrow::Cow;

/// The text as the system printed it: without a terminal's colours
/// ([`strip_terminal_codes`]), in its plain characters ([`undo_typography`]), without what
/// copying added around it ([`strip_decorations`]) and without the prefix a container
/// runtime writes before each line of its log files ([`strip_container_log_prefixes`]), with
/// the lines a mail client or a
/// terminal broke at its width joined ([`join_hard_wraps`]; after the quote markers a reply
/// puts before each piece), with each JSON record read by its values
/// ([`unwrap_json_values`]) and each escaped string's line breaks read
/// ([`unescape_string_lines`]; after the records, whose values are unescaped as JSON), the
/// colours such a value wrote as escapes ([`strip_terminal_codes`] again) and the byte
/// escapes a string's repr doubled ([`collapse_doubled_byte_escapes`]; after both, which
/// unescape a string once), and with the line breaks it lost put back ([`restore_line_breaks`]; after both, since a trace
/// inside a string is one line until then); a whole log, by its records that report trouble
/// ([`focus_long_log`]; last, when its records are lines).
pub(crate) fn as_printed(text: &str) -> Cow<'_, str> {
    let text = then(Cow::Borrowed(text), strip_terminal_codes);
    let text = then(text, undo_typography);
    let text = then(text, strip_decorations);
    let text = then(text, strip_container_log_prefixes);
    let text = then(text, join_hard_wraps);
    let text = then(text, unwrap_json_values);
    // An escaped string's lines are read like pasted ones once they are lines: a prefix on
    // each, or a terminal's cut, is inside the string.
    let text = match unescape_string_lines(&text) {
        Cow::Owned(lines) => Cow::Owned(reread_value(&lines).into_owned()),
        Cow::Borrowed(_) => text,
    };
    // Colours written as `\u001b` in a JSON or escaped value are real escapes only now.
    let text = then(text, strip_terminal_codes);
    let text = then(text, collapse_doubled_byte_escapes);
    let text = then(text, restore_line_breaks);
    then(text, focus_long_log)
}

/// Each JSON record read by its values ([`crate::json_lines`]), each value read as printed
/// text of its own: a Compose name, a terminal's cut or a record inside a value (a service
/// logging another program's JSON output) is read as in a paste. One value at a time, so
/// that no cut is seen across two values (ECS repeats the message as the stack trace's first
/// line, which can look like a line cut at its width).
fn unwrap_json_values(text: &str) -> Cow<'_, str> {
    unwrap_json_lines_with(text, reread_value)
}

/// A JSON value's lines, read like pasted ones; a record inside it by its values (one level).
fn reread_value(value: &str) -> Cow<'_, str> {
    then(reread_lines(value), unwrap_nested_json)
}

/// The records inside a JSON value, by their values.
fn unwrap_nested_json(text: &str) -> Cow<'_, str> {
    unwrap_json_lines_with(text, reread_lines)
}

/// The passes over printed lines, for the lines a JSON value or an escaped string held.
fn reread_lines(text: &str) -> Cow<'_, str> {
    let text = then(Cow::Borrowed(text), strip_decorations);
    let text = then(text, strip_container_log_prefixes);
    then(text, join_hard_wraps)
}

/// `text` after `pass`, still borrowed when no pass changed it.
fn then<'a>(text: Cow<'a, str>, pass: fn(&str) -> Cow<'_, str>) -> Cow<'a, str> {
    match pass(&text) {
        Cow::Owned(changed) => Cow::Owned(changed),
        Cow::Borrowed(_) => text,
    }
}

/// `text` without quote markers, source tags, Compose service names and line numbers before
/// its lines, without Markdown's code fences and the shell commands typed before the output
/// (`$ kubectl logs …`), without the Python side of a Java exception raised through Py4J
/// ([`drop_py4j_wrapping`]) and YARN's headers around an aggregated log
/// ([`drop_yarn_log_headers`]), and with HTML's escapes of `<`, `>`, `"`, `'` and `&` undone
/// when it has them.
fn strip_decorations(text: &str) -> Cow<'_, str> {
    let text = unescape_html(text);
    // Outermost first: a reply quotes what a viewer numbered, which Compose had prefixed.
    let mut lines: Vec<&str> = text.lines().map(after_quote_markers).collect();
    // What the reader typed or marked up is no printed line, unless it is all there is.
    let typed = |l: &&str| is_code_fence(l) || is_shell_command(l);
    if lines.iter().any(|l| has_words(l) && !typed(l)) {
        lines.retain(|l| !typed(l));
    }
    if numbered_lines(&lines) {
        for line in &mut lines {
            *line = line_number(line).map_or(*line, |(_, rest)| rest);
        }
    }
    if let Some(tag) = common_source_tag(&lines) {
        for line in &mut lines {
            if let Some(rest) = line.strip_prefix(tag) {
                *line = rest.strip_prefix(' ').unwrap_or(rest);
            }
        }
    }
    if let Some(name) = compose_service(&lines) {
        for line in &mut lines {
            if let Some((_, rest)) = after_service(line).filter(|(n, _)| *n == name) {
                *line = rest;
            }
        }
    }
    // After the prefixes: Compose or kubectl may have printed Py4J's lines.
    drop_py4j_wrapping(&mut lines);
    drop_yarn_log_headers(&mut lines);
    let kept: usize = lines.iter().map(|l| l.len()).sum();
    if lines.len() != text.lines().count() || kept != text.lines().map(str::len).sum::<usize>() {
        return Cow::Owned(lines.join("\n"));
    }
    text
}

/// `text` without the prefix a container runtime (containerd, CRI-O) writes before each line
/// of a pod's log file, `2024-05-01T10:00:00.123456789Z stderr F `, as a log shipper or a
/// node's `/var/log/pods` gives the lines: the time, the stream and whether the line is whole
/// (`F`) or the first part of one the runtime split (`P`, joined to the next). Only when every
/// line with words has it.
fn strip_container_log_prefixes(text: &str) -> Cow<'_, str> {
    let lines: Vec<&str> = text.lines().collect();
    let parsed: Vec<Option<(bool, &str)>> = lines.iter().map(|l| after_cri_prefix(l)).collect();
    let prefixed = lines
        .iter()
        .zip(&parsed)
        .filter(|(l, _)| has_words(l))
        .all(|(_, p)| p.is_some());
    if !prefixed || parsed.iter().all(Option::is_none) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (line, parsed) in lines.iter().zip(&parsed) {
        match parsed {
            Some((partial, rest)) => {
                out.push_str(rest);
                if !partial {
                    out.push('\n');
                }
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Cow::Owned(out)
}

/// Whether `line` is written by a container runtime (see [`strip_container_log_prefixes`]):
/// `(partial, the line as the container printed it)`.
fn after_cri_prefix(line: &str) -> Option<(bool, &str)> {
    let mut parts = line.splitn(4, ' ');
    let time = parts.next()?;
    let stream = parts.next()?;
    let tag = parts.next()?;
    let rest = parts.next().unwrap_or("");
    (crate::paste::is_iso_date_time(time)
        && matches!(stream, "stdout" | "stderr")
        && matches!(tag, "F" | "P"))
    .then_some((tag == "P", rest))
}

/// The line without the `>` markers of a quoted reply (`> `, `>> `, `> > `).
fn after_quote_markers(line: &str) -> &str {
    let t = line.trim_start();
    if !t.starts_with('>') {
        return line;
    }
    t.trim_start_matches(['>', ' '])
}

/// The service name of a paste from Docker Compose: one name before every line with words,
/// in two lines or more, or in one when it ends with Compose's replica number (`_1`, `-1`).
fn compose_service<'a>(lines: &[&'a str]) -> Option<&'a str> {
    let written: Vec<&str> = lines
        .iter()
        .filter(|l| has_words(l))
        .map(|l| after_service(l).map(|(name, _)| name))
        .collect::<Option<Vec<_>>>()?;
    let first = *written.first()?;
    (written.iter().all(|n| *n == first) && (written.len() >= 2 || ends_with_replica(first)))
        .then_some(first)
}

/// The tag of the source every line came from, as `kubectl logs --prefix` writes it
/// (`[pod/flink-taskmanager-1/flink] `): one bracketed word, not a level's capitals, the same
/// before two or more lines with words.
fn common_source_tag<'a>(lines: &[&'a str]) -> Option<&'a str> {
    let tag = |l: &'a str| -> Option<&'a str> {
        let end = l.strip_prefix('[')?.find(']')? + 2;
        let inner = &l[1..end - 1];
        (!inner.is_empty()
            && !inner.contains(char::is_whitespace)
            && inner.chars().any(|c| c.is_ascii_lowercase()))
        .then_some(&l[..end])
    };
    let tags: Vec<&str> = lines
        .iter()
        .filter(|l| has_words(l))
        .map(|l| tag(l))
        .collect::<Option<Vec<_>>>()?;
    let first = *tags.first()?;
    (tags.len() >= 2 && tags.iter().all(|t| *t == first)).then_some(first)
}

/// The headers `yarn logs -applicationId …` prints around each container's log file
/// (`Container: container_… on host_45454`, `LogType:taskmanager.log`, `LogLength:`,
/// `LogContents:`, `End of LogType:…`, rules of `=` or `*`): YARN's words, not the failing
/// program's. Only in a paste that has both a `LogType:` line and the start or end of a log's
/// contents.
fn drop_yarn_log_headers(lines: &mut Vec<&str>) {
    const HEADERS: [&str; 9] = [
        "Container: container_",
        "LogAggregationType:",
        "LogType:",
        "End of LogType:",
        "LogLastModifiedTime:",
        "Log Upload Time:",
        "LogLength:",
        "LogContents:",
        "Log Contents:",
    ];
    let starts = |l: &str, h: &str| l.trim_start().starts_with(h);
    let has = |h: &str| lines.iter().any(|l| starts(l, h));
    let dump =
        has("LogType:") && (has("LogContents:") || has("Log Contents:") || has("End of LogType:"));
    if !dump {
        return;
    }
    let rule = |l: &str| {
        let t = l.trim();
        t.len() >= 10 && (t.bytes().all(|b| b == b'=') || t.bytes().all(|b| b == b'*'))
    };
    lines.retain(|l| !rule(l) && !HEADERS.iter().any(|h| starts(l, h)));
}

/// Python's side of a Java exception raised through Py4J (PyFlink, PySpark): the Python
/// traceback, then `py4j.protocol.Py4JJavaError: An error occurred while calling o8.await.`
/// and the Java exception after a `: `. The traceback and that line are the bridge's, the
/// same for every error; the Java exception is what the system printed.
fn drop_py4j_wrapping(lines: &mut Vec<&str>) {
    const PY4J: &str = "py4j.protocol.Py4JJavaError: An error occurred while calling ";
    while let Some(at) = lines.iter().position(|l| l.trim_start().starts_with(PY4J)) {
        let Some(java) = lines
            .get(at + 1)
            .and_then(|l| l.strip_prefix(": "))
            .filter(|rest| crate::paste::starts_with_exception(rest))
        else {
            break;
        };
        lines[at + 1] = java;
        let from = lines[..at]
            .iter()
            .rposition(|l| {
                l.trim_start()
                    .starts_with("Traceback (most recent call last)")
            })
            .unwrap_or(at);
        lines.drain(from..=at);
    }
}

/// A Markdown code fence: three or more backticks or tildes and at most a language name
/// (` ```java`, ` ``` java`).
fn is_code_fence(line: &str) -> bool {
    let t = line.trim();
    let fence = t
        .bytes()
        .take_while(|&b| b == b'`')
        .count()
        .max(t.bytes().take_while(|&b| b == b'~').count());
    fence >= 3
        && t[fence..]
            .trim_start()
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.'))
}

/// A shell command with its prompt: `$ …`, or a prompt naming the user and host
/// (`[flink@tm-1 ~]$ …`, `root@tm-1:/opt/flink# …`).
fn is_shell_command(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with("$ ") {
        return true;
    }
    let prompt = if t.starts_with('[') {
        t.find(']').map(|i| &t[..=i])
    } else {
        t.split_whitespace().next()
    };
    let Some(prompt) = prompt else {
        return false;
    };
    let after = &t[prompt.len()..];
    let ends = prompt.ends_with(['$', '#']) || after.starts_with(['$', '#']);
    let after = after.trim_start_matches(['$', '#']);
    prompt.contains('@') && ends && after.starts_with(' ') && has_words(after)
}

fn has_words(line: &str) -> bool {
    line.chars().any(char::is_alphanumeric)
}

/// A leading line number and the line after it (`  12  …`, `12: …`, `12 | …`).
fn line_number(line: &str) -> Option<(u64, &str)> {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let number = t[..digits].parse().ok()?;
    let rest = &t[digits..];
    let rest = rest
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix(" |"))
        .or_else(|| rest.strip_prefix('|'))
        .unwrap_or(rest);
    let rest = if rest.starts_with([' ', '\t']) {
        rest.trim_start()
    } else if rest.is_empty() {
        rest
    } else {
        return None;
    };
    Some((number, rest))
}

/// Whether the lines are numbered one after another: two or more lines with words (a code
/// fence around them has none), each with a number one more than the line before.
fn numbered_lines(lines: &[&str]) -> bool {
    let numbers: Option<Vec<u64>> = lines
        .iter()
        .filter(|l| has_words(l))
        .map(|l| line_number(l).map(|(n, _)| n))
        .collect();
    numbers.is_some_and(|n| n.len() >= 2 && n.windows(2).all(|w| w[0].checked_add(1) == Some(w[1])))
}

/// `text` in the characters a system prints where a web page, a word processor or an input
/// method set others: no-break spaces as spaces, curly quotes as straight ones (a quoted value
/// is read as one value only between straight quotes), a full-width colon after a Latin
/// letter or digit (`Caused by：`, typed with a Chinese input method) as `: `, and without the
/// invisible zero-width spaces, word joiners and byte-order marks some pages put inside long
/// words (`org.\u{200b}apache.\u{200b}flink`), which split them.
fn undo_typography(text: &str) -> Cow<'_, str> {
    const SET: [char; 11] = [
        '\u{a0}', '\u{2007}', '\u{202f}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '：',
        '\u{200b}', '\u{2060}', '\u{feff}',
    ];
    if !text.contains(SET) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut before: Option<char> = None;
    while let Some(c) = chars.next() {
        match c {
            '\u{a0}' | '\u{2007}' | '\u{202f}' => out.push(' '),
            '\u{2018}' | '\u{2019}' => out.push('\''),
            '\u{201c}' | '\u{201d}' => out.push('"'),
            '\u{200b}' | '\u{2060}' | '\u{feff}' => continue,
            '：' if before.is_some_and(|b| b.is_ascii_alphanumeric()) => {
                out.push(':');
                if chars.peek().is_some_and(|n| !n.is_whitespace()) {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
        before = Some(c);
    }
    Cow::Owned(out)
}

/// `text` with HTML's escapes of `<`, `>`, `"`, `'` and `&` undone, when it has one of the
/// first four (a page showed a log; `&amp;` alone is also how a URL is written in XML).
fn unescape_html(text: &str) -> Cow<'_, str> {
    const MARKS: [&str; 5] = ["&lt;", "&gt;", "&quot;", "&#39;", "&#x27;"];
    if !MARKS.iter().any(|m| text.contains(m)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&#x27;", "'")
            .replace("&amp;", "&"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decorations_are_stripped() {
        let trace = "java.sql.SQLException: No suitable driver\n\tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        let quoted = "> java.sql.SQLException: No suitable driver\n> \tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        assert_eq!(strip_decorations(quoted), trace);
        let compose = "jobmanager_1  | java.sql.SQLException: No suitable driver\njobmanager_1  | \tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        assert_eq!(strip_decorations(compose), trace);
        let numbered = "```java\n  7  java.sql.SQLException: No suitable driver\n  8  \tat java.sql.DriverManager.getConnection(DriverManager.java:689)\n```";
        assert_eq!(
            strip_decorations(numbered),
            "java.sql.SQLException: No suitable driver\nat java.sql.DriverManager.getConnection(DriverManager.java:689)"
        );
        // The command typed before the output, and Py4J's `: ` before the Java exception.
        for typed in [
            "$ ./bin/flink run -py job.py",
            "[flink@tm-1 ~]$ kubectl logs tm-1",
            "root@tm-1:/opt/flink# ./bin/flink run x.jar",
        ] {
            assert_eq!(strip_decorations(&format!("{typed}\n{trace}")), trace);
        }
        let pyflink = format!(
            "Traceback (most recent call last):\n  File \"/opt/job.py\", line 41, in <module>\n    t_env.execute_sql(\"INSERT INTO t SELECT 1\").wait()\npy4j.protocol.Py4JJavaError: An error occurred while calling o8.await.\n: {trace}"
        );
        assert_eq!(strip_decorations(&pyflink), trace);
        let composed: Vec<String> = pyflink.lines().map(|l| format!("jm_1  | {l}")).collect();
        assert_eq!(strip_decorations(&composed.join("\n")), trace);
        assert_eq!(strip_decorations(&format!("``` java\n{trace}\n```")), trace);
        // Not followed by the Java exception, the line stays.
        let alone = "py4j.protocol.Py4JJavaError: An error occurred while calling o8.await.";
        assert_eq!(strip_decorations(alone), alone);
        // Alone, a command is the query; a `#` line of a JVM crash log is printed text.
        assert_eq!(strip_decorations("$ flink run x.jar"), "$ flink run x.jar");
        let crash =
            "# A fatal error has been detected by the Java Runtime Environment:\n#  SIGSEGV (0xb)";
        assert_eq!(strip_decorations(crash), crash);
        assert_eq!(
            strip_decorations("at Foo.&lt;init&gt;(Foo.java:3) &quot;x&quot; a&amp;b"),
            "at Foo.<init>(Foo.java:3) \"x\" a&b"
        );
        let kubectl = "[pod/tm-1/flink] java.sql.SQLException: No suitable driver\n[pod/tm-1/flink] \tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        assert_eq!(strip_decorations(kubectl), trace);
        // A reply quoting a numbered log.
        assert_eq!(
            strip_decorations("> 13436 2021-08-30 ERROR Fatal error\n> 13437 java.lang.Error: x"),
            "2021-08-30 ERROR Fatal error\njava.lang.Error: x"
        );
        assert_eq!(
            strip_decorations("kafka-manager_1  | WARN Connection to node 1 failed"),
            "WARN Connection to node 1 failed"
        );
        // The largest number has no next one (no overflow): these lines are not numbered.
        let wrapped = "18446744073709551615 a\n0 b";
        assert_eq!(strip_decorations(wrapped), wrapped);
    }

    #[test]
    fn a_json_records_values_are_read_like_pasted_text() {
        let message = "Deadlock found when trying to get lock; try restarting transaction";
        // A record logged inside a record's value (a service logging another's JSON output).
        let inner = format!(r#"{{"level":"fatal","msg":"output exec error: {message}"}}"#);
        let outer = serde_json::json!({"log.level": "ERROR", "message": inner}).to_string();
        assert_eq!(as_printed(&outer), format!("output exec error: {message}"));
        // A Compose name inside a value goes as it does before a pasted line.
        let composed = serde_json::json!({"message": format!("kafdrop_1  | WARN {message}")});
        assert_eq!(as_printed(&composed.to_string()), format!("WARN {message}"));
        // A terminal's cut is joined inside a value, never across two values: ECS repeats
        // the message (here as long as the cut line) as the stack trace's first line.
        let line = "java.sql.SQLException: The last packet successfully received from the se";
        let cut = format!(
            "{line}\\nrver was 30,030 milliseconds ago.\\n\\tat com.mysql.jdbc.Util.a(Util.java:425)"
        );
        let ecs = format!(r#"{{"message":"{line}","error.stack_trace":"{cut}"}}"#);
        let printed = as_printed(&ecs);
        let lines: Vec<&str> = printed.lines().collect();
        assert_eq!(lines.len(), 3, "{printed}");
        assert_eq!(lines[0], line, "{printed}");
        assert!(
            lines[1].starts_with(line) && lines[1].ends_with("30,030 milliseconds ago."),
            "{printed}"
        );
    }

    #[test]
    fn yarn_log_headers_are_dropped() {
        let trace = "java.sql.SQLException: No suitable driver\n\tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        let dump = format!(
            "Container: container_e17_1700000000000_0001_01_000002 on node-1_45454\nLogAggregationType: AGGREGATED\n==================================================================\nLogType:taskmanager.err\nLogLastModifiedTime:Wed May 01 10:00:00 +0800 2024\nLogLength:2048\nLogContents:\n{trace}\nEnd of LogType:taskmanager.err\n*******************************************************************************"
        );
        assert_eq!(strip_decorations(&dump), trace);
        // Without a log's contents, a `LogType:` line is printed text.
        let alone = "LogType:taskmanager.err\nLogLength:0";
        assert_eq!(strip_decorations(alone), alone);
    }

    #[test]
    fn container_log_prefixes_are_stripped() {
        let trace = "java.sql.SQLException: No suitable driver\n\tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        let cri = "2024-05-01T10:00:00.123456789Z stderr F java.sql.SQLException: No suitable driver\n2024-05-01T10:00:00.123456789Z stderr F \tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        assert_eq!(strip_container_log_prefixes(cri).trim_end(), trace);
        // A line the runtime split (`P`) goes on in the next one.
        let split = "2024-05-01T10:00:00.1+08:00 stdout P java.sql.SQLException: No suit\n2024-05-01T10:00:00.1+08:00 stdout F able driver";
        assert_eq!(
            strip_container_log_prefixes(split).trim_end(),
            "java.sql.SQLException: No suitable driver"
        );
        // Not on every line with words, or not a runtime's stream and tag: left alone.
        for text in [
            "2024-05-01T10:00:00Z stderr F a\nCaused by: b",
            "2024-05-01T10:00:00Z ERROR F something",
            "2024-05-01 stderr F x",
            trace,
        ] {
            assert_eq!(strip_container_log_prefixes(text), text);
        }
    }

    /// The lines an escaped string holds are read like pasted lines: a reply's quote marker
    /// before each is dropped, and a word a terminal cut at its width is joined.
    #[test]
    fn an_escaped_strings_lines_are_read_like_pasted_ones() {
        let quoted = r"> java.sql.SQLException: No suitable driver\n> \tat java.sql.DriverManager.getConnection(DriverManager.java:689)";
        let printed = as_printed(quoted);
        assert!(!printed.contains('>'), "{printed}");
        assert!(
            printed.contains("\n\tat java.sql.DriverManager"),
            "{printed}"
        );
        let line = |n: usize| {
            format!(
                "Caused by: java.lang.IllegalStateException: the writer of partition {n} was \
                 closed before the last batch of records was flushed to the sink"
            )
        };
        let (a, b) = (line(1), line(2));
        let cut = |l: &str| format!(r"{}\n{}", &l[..80], &l[80..]);
        let escaped = format!(r"{}\n{}", cut(&a), cut(&b));
        let printed = as_printed(&escaped);
        assert!(printed.contains(&a) && printed.contains(&b), "{printed}");
    }

    #[test]
    fn typography_is_undone() {
        assert_eq!(
            undo_typography(
                "\u{feff}Caused by：java.\u{200b}sql.\u{200b}SQLException：Can\u{2019}t\u{a0}connect to \u{201c}db\u{201d} \u{2018}x\u{2019}"
            ),
            "Caused by: java.sql.SQLException: Can't connect to \"db\" 'x'"
        );
        // A full-width colon in Chinese prose stays.
        for text in ["同步时报错如下：", "plain 'text' \"as printed\"", ""] {
            assert_eq!(undo_typography(text), text);
        }
    }

    #[test]
    fn printed_text_is_left_alone() {
        for text in [
            "java.sql.SQLException: No suitable driver",
            // A table the job printed, and one line of a table of options.
            "| +I | 1 | 2025-04-25 09:44:25.000 |",
            "scan.startup.mode | initial",
            // Two services: each line has its own name.
            "kafka_1  | broker started\nzookeeper_1  | session expired",
            // Levels, and one tag before one line.
            "[ERROR] a\n[ERROR] b",
            "[main] ERROR x",
            // A number in the message, and numbers that do not count lines.
            "13436 2021-08-30 10:38:11,378 ERROR Fatal error",
            "500 Internal Server Error\n404 Not Found",
            // `&amp;` alone: an XML-escaped URL.
            "jdbc:mysql://h:3306/db?useSSL=false&amp;serverTimezone=UTC",
            "",
        ] {
            assert_eq!(strip_decorations(text), text);
        }
    }
}
