//! Line breaks a paste lost on its way to the search box. A single-line field (every page's
//! search `<input>`) turns a pasted trace's line breaks into spaces, and so do many web pages
//! and chat tools: the whole trace arrives as one line, its frames and causes read as one long
//! message. They are put back where a printed line began: before a stack frame
//! (`at org.a.B.m(B.java:12)`), a cause (`Caused by:`, `Suppressed:`), `... 12 more`, an
//! exception after a logged message (`…NetworkClient) java.io.IOException: …`), and each log
//! record (a date and time, then a level).

use std::borrow::Cow;

/// `text` with a line break before each place in a line where a printed line began (see the
/// module's doc); borrowed when there is none.
pub(crate) fn restore_line_breaks(text: &str) -> Cow<'_, str> {
    let lines: Vec<(&str, Vec<usize>)> = text.split('\n').map(|l| (l, line_starts(l))).collect();
    if lines.iter().all(|(_, starts)| starts.is_empty()) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 64);
    for (i, (line, starts)) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut from = 0;
        for &at in starts {
            out.push_str(line[from..at].trim_end());
            out.push('\n');
            from = at;
        }
        out.push_str(&line[from..]);
    }
    Cow::Owned(out)
}

/// Byte offsets in `line`, after its first word, where a printed line began, in order.
fn line_starts(line: &str) -> Vec<usize> {
    // Nothing but spaces before: the line already starts there.
    let first = line.len() - line.trim_start().len();
    // In order, so each is met by a cursor as the loop passes it.
    let mut records = repeated_records(line, first).into_iter().peekable();
    let mut starts: Vec<usize> = Vec::new();
    // The character before `at`, and the last one before it that is not a space: kept as the
    // loop goes, so a long run of spaces is not walked again at each of its positions.
    let mut before: Option<char> = None;
    let mut before_spaces: Option<char> = None;
    for (at, c) in line.char_indices() {
        if at > first {
            let rest = &line[at..];
            let after_space = before.is_some_and(char::is_whitespace);
            let after_word = before.is_some_and(char::is_alphanumeric);
            while records.next_if(|&r| r < at).is_some() {}
            let starts_here = (after_space && (is_frame_start(rest) || is_more_frames(rest)))
                || (!after_word
                    && (rest.starts_with("Caused by:") || rest.starts_with("Suppressed:")))
                || (after_space && after_sentence(before_spaces) && is_exception_start(rest))
                || records.next_if_eq(&at).is_some();
            if starts_here {
                starts.push(at);
            }
        }
        if !c.is_whitespace() {
            before_spaces = Some(c);
        }
        before = Some(c);
    }
    starts
}

/// A Java frame: `at `, then a method qualified by at least one dot, then its parenthesis
/// (`at org.a.B.m(B.java:12)`, `at java.base/jdk.internal.X.y(Native Method)`).
pub(crate) fn is_frame_start(rest: &str) -> bool {
    let Some(word) = rest.strip_prefix("at ") else {
        return false;
    };
    let word = word.split(char::is_whitespace).next().unwrap_or("");
    word.split_once('(')
        .is_some_and(|(method, _)| is_qualified_method(method))
}

/// A method qualified by at least one dot, as a frame names it (`org.a.B.m`,
/// `java.base/jdk.internal.X.<init>`, `B.lambda$run$0`).
pub(crate) fn is_qualified_method(method: &str) -> bool {
    method
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && method.contains('.')
        && !method.ends_with('.')
        && method.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$' | '/' | '<' | '>' | '-')
        })
}

/// Whether the text before, whose last character other than spaces is `last`, ends a
/// sentence, a bracket or a parenthesis (`… failed.`, `(org.apache.kafka.clients.NetworkClient)`,
/// `[WorkerSinkTask]`): an exception after it starts a line. After `cause:` or a word it is the
/// value of the sentence (`failure cause: java.lang.…`, `due to the java.sql.SQLException: …`).
fn after_sentence(last: Option<char>) -> bool {
    last.is_some_and(|c| matches!(c, '.' | '!' | ';' | ')' | ']' | '}'))
}

/// A qualified exception class and its message (`java.io.IOException: …`): an exception line
/// ([`crate::paste::starts_with_exception`]) whose class has two dots or more and starts with
/// a lower-case package.
fn is_exception_start(rest: &str) -> bool {
    // `starts_with_exception` first: it looks for the colon near the start only.
    if !crate::paste::starts_with_exception(rest) {
        return false;
    }
    let class = rest.split(':').next().unwrap_or("");
    class.matches('.').count() >= 2 && class.starts_with(|c: char| c.is_ascii_lowercase())
}

/// `... 12 more`, `... 3 common frames omitted`.
pub(crate) fn is_more_frames(rest: &str) -> bool {
    let Some(r) = rest.strip_prefix("... ") else {
        return false;
    };
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && {
        let r = &r[digits..];
        r.starts_with(" more") || r.starts_with(" common frames omitted")
    }
}

/// Where the records of a log line joined into one begin: a date and time after a space (or a
/// `[` after one) followed within three words by a level (`2023-04-21 14:14:49.959
/// [0-0-0-writer] ERROR`), or by the same word as the record the line starts with (`… MSK
/// [1484-2]`). A time in a record's message is followed by neither.
fn repeated_records(line: &str, first: usize) -> Vec<usize> {
    let stamps: Vec<usize> = line
        .char_indices()
        .filter(|&(at, _)| is_date_time(&line[at..]))
        .map(|(at, _)| at)
        .filter(|&at| {
            at == 0
                || line[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_whitespace() || c == '[')
        })
        .collect();
    let Some(&lead) = stamps.first() else {
        return Vec::new();
    };
    // The word after the line's own leading timestamp, if it starts with one.
    let lead_word = (!line[first..lead].chars().any(char::is_alphanumeric))
        .then(|| words_after_stamp(&line[lead..]).next())
        .flatten();
    stamps
        .iter()
        .filter(|&&at| {
            let mut words = words_after_stamp(&line[at..]).take(3).peekable();
            let next = words.peek().copied();
            next.is_some() && (next == lead_word || words.any(crate::paste::is_level))
        })
        .map(|&at| {
            if line[..at].ends_with('[') {
                at - 1
            } else {
                at
            }
        })
        .filter(|&at| at > first)
        .collect()
}

/// The words after a date and time and what is glued to them (`,794]`, `.311Z`), without
/// brackets: `INFO` of `2021-05-07 22:41:50,794] INFO`, of `… [INFO ]`.
fn words_after_stamp(s: &str) -> impl Iterator<Item = &str> {
    let mut words = s.split_whitespace();
    // The date, then the time with its glued fraction, zone or bracket.
    if words.next().is_some_and(|date| date.len() == 10) {
        words.next();
    }
    words
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
}

/// `2024-06-19 16:14:56` or `2020-09-22T08:51:55` at the start of `s`.
fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 19 {
        return false;
    }
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b' ' | b'T')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_joined_into_one_line_gets_its_lines_back() {
        let joined = "Caused by: java.sql.BatchUpdateException: Deadlock found when trying to get lock; try restarting transaction \tat com.mysql.cj.jdbc.ClientPreparedStatement.executeBatch(ClientPreparedStatement.java:412) ~[mysql.jar:8.0] \tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method) Caused by: java.sql.SQLException: Lock wait timeout exceeded \tat Foo.<init>(Unknown Source) ... 12 more";
        assert_eq!(
            restore_line_breaks(joined),
            "Caused by: java.sql.BatchUpdateException: Deadlock found when trying to get lock; try restarting transaction\n\
             at com.mysql.cj.jdbc.ClientPreparedStatement.executeBatch(ClientPreparedStatement.java:412) ~[mysql.jar:8.0]\n\
             at java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n\
             Caused by: java.sql.SQLException: Lock wait timeout exceeded\n\
             at Foo.<init>(Unknown Source)\n\
             ... 12 more"
        );
        // An exception after a logged message.
        assert_eq!(
            restore_line_breaks(
                "WARN [Producer clientId=p] Error connecting to node k:9092 (org.apache.kafka.clients.NetworkClient) java.net.UnknownHostException: k"
            ),
            "WARN [Producer clientId=p] Error connecting to node k:9092 (org.apache.kafka.clients.NetworkClient)\njava.net.UnknownHostException: k"
        );
        // The other lines, empty ones too, stay as they were.
        assert_eq!(
            restore_line_breaks("a\n\nx.Y: b at a.B.c(B.java:1)\n\nend"),
            "a\n\nx.Y: b\nat a.B.c(B.java:1)\n\nend"
        );
        // Joined without a space, as a field that strips line breaks does.
        assert_eq!(
            restore_line_breaks("x.Y: a\tat a.B.c(B.java:1)Caused by: x.Z: b"),
            "x.Y: a\nat a.B.c(B.java:1)\nCaused by: x.Z: b"
        );
    }

    #[test]
    fn log_records_joined_into_one_line_are_split() {
        let joined = "[2021-05-07 22:41:50,794] INFO Attempting to open connection #1 [2021-05-07 22:41:50,795] INFO Unable to connect to database on attempt 1/3. 2021-05-07 22:41:51,001 ERROR Failed";
        assert_eq!(
            restore_line_breaks(joined),
            "[2021-05-07 22:41:50,794] INFO Attempting to open connection #1\n\
             [2021-05-07 22:41:50,795] INFO Unable to connect to database on attempt 1/3.\n\
             2021-05-07 22:41:51,001 ERROR Failed"
        );
        assert_eq!(
            restore_line_breaks(
                "2020-09-22T08:51:55.311Z ERROR a 2020-09-22T08:52:25.485Z ERROR b"
            ),
            "2020-09-22T08:51:55.311Z ERROR a\n2020-09-22T08:52:25.485Z ERROR b"
        );
        // The first record's prefix was left out of the copy; the next one has a level.
        assert_eq!(
            restore_line_breaks(
                "WARN Task - retrying. 2023-04-21 14:14:49.959 [0-0-0-writer] ERROR WriterRunner - failed"
            ),
            "WARN Task - retrying.\n2023-04-21 14:14:49.959 [0-0-0-writer] ERROR WriterRunner - failed"
        );
        // The same word after each timestamp (a PostgreSQL log's time zone).
        assert_eq!(
            restore_line_breaks(
                "2022-03-30 13:48:14.812 MSK [1484-1] FATAL: x 2022-03-30 13:48:14.812 MSK [1484-2] DETAIL: y"
            ),
            "2022-03-30 13:48:14.812 MSK [1484-1] FATAL: x\n2022-03-30 13:48:14.812 MSK [1484-2] DETAIL: y"
        );
    }

    #[test]
    fn printed_lines_are_left_alone() {
        for text in [
            // A trace as printed: each frame and cause starts its own line already.
            "java.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\nCaused by: java.io.IOException: y\n\t... 3 more",
            // `at` in a message: no qualified method and parenthesis after it.
            "Connection refused at host:9092",
            "Error at line 3 (column 7)",
            "Failed at step 2. Retrying at a later time",
            // A timestamp inside a message whose line does not start with one.
            "Checkpoint 5 expired at 2024-01-01 10:00:00 before completing",
            // One record whose message mentions a time.
            "2024-01-01 10:00:00 INFO restored the state of 2024-01-01T09:59:59",
            "2024-01-01 10:00:00 INFO restored the state of 2024-01-01 09:59:59 from s3",
            // An exception named as the value of the sentence.
            "switched to FAILED with failure cause: java.lang.IllegalArgumentException: Too large",
            "Mining session stopped due to the java.sql.SQLException: ORA-06550",
            // A cause glued to a word is part of the word.
            "NotCaused by: x",
            "",
        ] {
            assert_eq!(restore_line_breaks(text), text);
        }
    }

    #[test]
    fn hostile_input() {
        for text in [
            "at",
            "at (",
            " at a.(",
            "... ",
            "... 1",
            "[",
            "2024-01-01 10:00:0",
            "é at é.é(",
            "\n\n",
        ] {
            // None of them has a place where a printed line began.
            assert_eq!(restore_line_breaks(text), text);
        }
    }
}
