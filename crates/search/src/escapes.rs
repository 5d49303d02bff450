//! Escapes a paste carries from where the log was kept or shown: a terminal's control
//! sequences (the colours of `kubectl logs` or a CI log, piped or downloaded raw), and the
//! backslash escapes of a string value that held a trace (`"java.sql.SQLException: …\n\tat …"`
//! copied out of a JSON or logfmt record, or out of a log viewer's field).

use std::borrow::Cow;

const ESC: char = '\u{1b}';
const BEL: char = '\u{7}';

/// `text` without the terminal's escape sequences (ECMA-48): control sequences (`ESC [ … m`,
/// colours and cursor moves), operating system commands (`ESC ] … BEL`, a window title) and
/// two-character escapes (`ESC ( B`). Tabs and line breaks stay: they are the printed text's.
pub(crate) fn strip_terminal_codes(text: &str) -> Cow<'_, str> {
    if !text.contains(ESC) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != ESC {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            // Control sequence: parameter and intermediate bytes, then one final byte.
            Some('[') => {
                chars.next();
                while chars
                    .next_if(|c| matches!(c, '\u{20}'..='\u{3f}'))
                    .is_some()
                {}
                chars.next_if(|c| matches!(c, '\u{40}'..='\u{7e}'));
            }
            // Operating system command: up to BEL or the string terminator `ESC \`, and
            // never past the line (an unterminated one would take the rest of the paste).
            Some(']') => {
                chars.next();
                while let Some(c) = chars.next_if(|c| *c != '\n') {
                    if c == BEL || (c == ESC && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            // Intermediate bytes (a character set designation), then one final byte.
            Some('\u{20}'..='\u{2f}') => {
                while chars
                    .next_if(|c| matches!(c, '\u{20}'..='\u{2f}'))
                    .is_some()
                {}
                chars.next_if(|c| matches!(c, '\u{30}'..='\u{7e}'));
            }
            // A two-character escape; a lone ESC before a tab, a line break or the end
            // goes alone.
            Some('\u{40}'..='\u{7e}') => {
                chars.next();
            }
            _ => {}
        }
    }
    Cow::Owned(out)
}

/// `text` with each line that holds an escaped multi-line string (its line breaks written
/// `\n`) unescaped: `\n`, `\r`, `\t`, `\"`, `\\`, `\/` and `\uXXXX`, as JSON and most
/// languages write them; other backslashes stay. A line counts when one of its `\n` escapes
/// is followed by what starts a printed line: not a lower-case word other than `at `, an
/// exception (`java.io.IOException:`), a logger or a Compose service with its replica number
/// (`kafka_1  | `), not a quote, a closing bracket or a regex operator.
/// `\new`, `C:\tmp\n1\x`, `'\n'` and `[^\n]` are a path's, a DDL's, a regex's. A line
/// that is a JSON text written as a string (`{\"level\":\"ERROR\",…}`: a record logged inside
/// another one) counts too. JSON records are read before this pass (see
/// [`crate::json_lines`]).
pub(crate) fn unescape_string_lines(text: &str) -> Cow<'_, str> {
    let escaped = |line: &str| escapes_line_breaks(line) || is_escaped_json(line);
    if !text.contains('\\') || !text.lines().any(escaped) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text
        .lines()
        .map(|line| {
            if escaped(line) {
                // A value copied with its quotes: they are the record's, not the message's.
                let t = line.trim();
                let value = t
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .filter(|v| !v.ends_with('\\'))
                    .unwrap_or(line);
                Cow::Owned(unescape(value))
            } else {
                Cow::Borrowed(line)
            }
        })
        .collect();
    Cow::Owned(lines.join("\n"))
}

/// `text` with byte escapes printed with their backslash escaped (`\\xF0\\x9F`, a string's
/// `repr` printed inside another string, as Python's and Ruby's database errors show them)
/// written once (`\xF0\x9F`), as the database printed them. Runs after the string passes:
/// a JSON text holds `\\x` for `\x`, which they undo.
pub(crate) fn collapse_doubled_byte_escapes(text: &str) -> Cow<'_, str> {
    if !text.contains("\\\\x") && !text.contains("\\\\X") {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let doubled = |i: usize| {
        bytes.get(i..i + 5).is_some_and(|b| {
            b[0] == b'\\'
                && b[1] == b'\\'
                && (b[2] == b'x' || b[2] == b'X')
                && b[3].is_ascii_hexdigit()
                && b[4].is_ascii_hexdigit()
        })
    };
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        if doubled(i) {
            // Both backslashes are ASCII: these are char boundaries.
            out.push_str(&text[from..i]);
            from = i + 1;
            i += 5;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[from..]);
    Cow::Owned(out)
}

/// Whether a line is a JSON object or array written as a string: it opens with `{\"` or
/// `[{\"` (or `[\"`) and closes with `}` or `]`.
fn is_escaped_json(line: &str) -> bool {
    let t = line.trim();
    ["{\\\"", "[{\\\"", "[\\\""]
        .iter()
        .any(|open| t.starts_with(open))
        && (t.ends_with('}') || t.ends_with(']'))
}

/// Whether a line writes its line breaks as `\n` escapes (see [`unescape_string_lines`]).
fn escapes_line_breaks(line: &str) -> bool {
    let mut rest = line;
    while let Some(i) = find_escape(rest, 'n') {
        let after = &rest[i + 2..];
        let next = after.trim_start_matches(' ');
        // What a printed line starts with; not what follows a `\n` inside a quoted value,
        // a regex or a path (`'\n'` in a DDL, `[^\n]+`, `C:\tmp\n1\x`), nor a lower-case
        // word other than `at ` or an exception (`\new`, `\nodes`).
        let starts_line = match next.chars().next() {
            Some(c) if c.is_lowercase() => {
                next.starts_with("at ")
                    || crate::paste::starts_with_exception(next)
                    || is_logger_name(next.split_whitespace().next().unwrap_or(""))
                    || crate::compose::after_service(next)
                        .is_some_and(|(name, _)| crate::compose::ends_with_replica(name))
            }
            Some(c) if c.is_ascii_digit() => {
                let run = next.trim_start_matches(|c: char| c.is_ascii_digit());
                !run.is_empty() && !run.starts_with('\\')
            }
            Some('.') => next.starts_with("..."),
            Some('\'' | '"' | ']' | ')' | '^' | '*' | '+' | '?') => false,
            Some(_) => true,
            None => false,
        };
        if starts_line {
            return true;
        }
        rest = after;
    }
    false
}

/// A logger's qualified class name, which starts a log4j record's message
/// (`o.a.k.c.c.i.ConsumerCoordinator`, `org.apache.kafka.clients.NetworkClient`): lower-case
/// packages, then a class.
fn is_logger_name(word: &str) -> bool {
    let ident =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    match word.rsplit_once('.') {
        Some((packages, class)) => {
            class.starts_with(|c: char| c.is_ascii_uppercase())
                && ident(class)
                && packages
                    .split('.')
                    .all(|p| p.starts_with(|c: char| c.is_ascii_lowercase()) && ident(p))
        }
        None => false,
    }
}

/// The byte offset of the first `\c` escape in `text` (a backslash not itself escaped).
fn find_escape(text: &str, c: char) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'\\' {
            if char::from(bytes[i + 1]) == c {
                return Some(i);
            }
            // An escaped character (`\\` included) is skipped whole.
            i += 2;
        } else {
            i += 1;
        }
    }
    None
}

/// `line` with its backslash escapes read (see [`unescape_string_lines`]).
fn unescape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('n') => out.push('\n'),
            // `\r\n` is one break; a lone `\r` one too.
            Some('r') => {
                chars.next();
                if !(chars.peek() == Some(&'\\') && chars.clone().nth(1) == Some('n')) {
                    out.push('\n');
                }
                continue;
            }
            Some('t') => out.push('\t'),
            Some(q @ ('"' | '\\' | '/')) => out.push(q),
            Some('u') => {
                let hex: String = chars.clone().skip(1).take(4).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) if hex.len() == 4 => {
                        out.push(ch);
                        for _ in 0..5 {
                            chars.next();
                        }
                    }
                    _ => out.push('\\'),
                }
                continue;
            }
            _ => {
                out.push('\\');
                continue;
            }
        }
        chars.next();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubled_byte_escapes_are_read_as_printed_once() {
        assert_eq!(
            collapse_doubled_byte_escapes(r"(1366, 'Incorrect string value: '\\xF0\\x9F\\x8D...')"),
            r"(1366, 'Incorrect string value: '\xF0\x9F\x8D...')"
        );
        // Other doubled backslashes are a path's or a regex's: they stay.
        for kept in [r"C:\\tmp\\x1", r"\\d+\\xZZ", r"'\xF0\x9F'"] {
            assert_eq!(collapse_doubled_byte_escapes(kept), kept, "{kept}");
        }
    }

    #[test]
    fn terminal_colours_and_titles_go_tabs_stay() {
        let coloured = "\u{1b}[1;31mERROR\u{1b}[0m\tTask failed\n\u{1b}]0;flink\u{7}\tat a.B.c(B.java:1)\u{1b}(B";
        assert_eq!(
            strip_terminal_codes(coloured),
            "ERROR\tTask failed\n\tat a.B.c(B.java:1)"
        );
        assert_eq!(strip_terminal_codes("x\u{1b}]2;t\u{1b}\\y\u{1b}"), "xy");
        // An unterminated title stops at the line; a lone ESC keeps the break after it.
        assert_eq!(
            strip_terminal_codes("\u{1b}]0;title\nERROR x\u{1b}\n\tat a.B.c(B.java:1)"),
            "\nERROR x\n\tat a.B.c(B.java:1)"
        );
        assert!(matches!(
            strip_terminal_codes("plain\ttext"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_json_text_written_as_a_string_is_unescaped() {
        let escaped =
            r#"{\"errors\":[{\"message\":\"Incorrect string value: '\\xE6' for column 'v'\"}]}"#;
        assert_eq!(
            unescape_string_lines(escaped),
            r#"{"errors":[{"message":"Incorrect string value: '\xE6' for column 'v'"}]}"#
        );
        // A JSON text as printed, and a line that only opens like one, stay.
        for kept in [
            r#"{"errors":[{"message":"x"}]}"#,
            r#"{\"errors\": cut off here"#,
        ] {
            assert_eq!(unescape_string_lines(kept), kept);
        }
    }

    #[test]
    fn an_escaped_trace_gets_its_lines_back() {
        let escaped = r#"java.sql.SQLException: No suitable driver for \"jdbc:x\"\n\tat java.sql.DriverManager.getConnection(DriverManager.java:689)\r\n\tat Foo.\u003cinit\u003e(Foo.java:3)"#;
        assert_eq!(
            unescape_string_lines(escaped),
            "java.sql.SQLException: No suitable driver for \"jdbc:x\"\n\tat java.sql.DriverManager.getConnection(DriverManager.java:689)\n\tat Foo.<init>(Foo.java:3)"
        );
        // Only the lines that escape their breaks; a Windows path is no trace.
        let mixed = "2024-05-01 ERROR x\nCaused by: a.B: y\\n\\tat a.C.d(C.java:1)";
        assert_eq!(
            unescape_string_lines(mixed),
            "2024-05-01 ERROR x\nCaused by: a.B: y\n\tat a.C.d(C.java:1)"
        );
        assert_eq!(
            unescape_string_lines(r#""a.B: x\n\tat a.C.d(C.java:1)""#),
            "a.B: x\n\tat a.C.d(C.java:1)"
        );
        // A line break before a capital, a timestamp or a qualified exception.
        assert_eq!(
            unescape_string_lines(r"WARN x (a.B)\n java.io.IOException: y\n2024-05-01 z"),
            "WARN x (a.B)\n java.io.IOException: y\n2024-05-01 z"
        );
        // A log4j record whose message starts with its logger's abbreviated name.
        assert_eq!(
            unescape_string_lines(
                r"TimeoutException: x\no.a.k.c.c.i.ConsumerCoordinator [Consumer] y"
            ),
            "TimeoutException: x\no.a.k.c.c.i.ConsumerCoordinator [Consumer] y"
        );
        // Compose's prefix, whose service name is lower case, starts each escaped line.
        assert_eq!(
            unescape_string_lines(
                r"kafka-manager_1  | a.B: x\nkafka-manager_1  | \tat a.C.d(C.java:1)"
            ),
            "kafka-manager_1  | a.B: x\nkafka-manager_1  | \tat a.C.d(C.java:1)"
        );
        for left in [
            r"FIELDS TERMINATED BY '\t' LINES TERMINATED BY '\n' STORED AS TEXTFILE",
            r"see C:\new.txt and C:\nodes.d\tmp",
            r"Invalid regex [^\n]+\s",
            r"FileNotFoundException: C:\tmp\n1\data.csv",
            r"C:\new\nodes\tmp failed",
            r"Invalid escape \\n in pattern",
            r"echo -e 'a\nb | c'",
            r"bad \u12 and \x",
        ] {
            assert_eq!(unescape_string_lines(left), left);
        }
        assert_eq!(
            unescape_string_lines(r#"error={\n  \"code\": 401,\n  \"msg\": \"no\"\n}"#),
            "error={\n  \"code\": 401,\n  \"msg\": \"no\"\n}"
        );
        // A malformed `\u` escape stays as written.
        assert_eq!(unescape(r"a\u00zz\n"), "a\\u00zz\n");
    }
}
