//! Lines a paste had broken at a fixed width. A mail client or an editor breaks long lines at
//! the last space before its width (72–78 columns in a mailing-list post); a terminal
//! multiplexer or a pager cuts them at the terminal's width, mid-word. A trace copied from
//! either arrives with its messages cut in two and its frames split after `at`: the message
//! an entry documents no longer stands on one line. The pieces of each cut line are joined
//! back when the paste shows that width: several lines end at it (two or more lines of
//! exactly the widest length for a cut, two or more lines whose next line's first word would
//! not have fitted for a break at spaces), and the next line does not start a printed line
//! of its own (a frame, a cause, a log record, a JSON record, a Go dump's lines; for a break
//! at spaces also an exception, a Python traceback's lines and a label such as `DETAIL:`).
//! Where it cannot tell, a piece stays its own line, as it was.

use crate::line_breaks::{is_frame_start, is_more_frames, is_qualified_method};
use crate::long_log::starts_record;
use crate::paste::{is_timestamp, starts_with_exception};
use std::borrow::Cow;

/// Narrowest width read as a wrap: narrower lines are a paste's own short lines.
const MIN_WIDTH: usize = 40;
/// Widest width at which text is broken at spaces (mail clients break at 72–78, editors at
/// about 100); terminals cut wider ones too.
const MAX_SPACE_WIDTH: usize = 100;
/// Widths a terminal commonly has: a single line cut at one of them is read as cut.
const TERMINAL_WIDTHS: [usize; 6] = [80, 100, 120, 132, 160, 200];

/// `text` with the lines it had broken at a fixed width joined (see the module's doc);
/// borrowed when it shows no such width.
pub(crate) fn join_hard_wraps(text: &str) -> Cow<'_, str> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    if lines.len() < 2 {
        return Cow::Borrowed(text);
    }
    let joins = match (cut_joins(&lines), space_joins(&lines)) {
        (Some(cut), Some(space)) => Some(if reads_as_cut(&lines, &cut.0, &space.0) {
            cut
        } else {
            space
        }),
        (cut, space) => cut.or(space),
    };
    let Some((joins, separator)) = joins else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push_str(if joins[i - 1] { separator } else { "\n" });
        }
        out.push_str(
            if joins.get(i).copied().unwrap_or(false) && separator == " " {
                line.trim_end()
            } else {
                line
            },
        );
    }
    Cow::Owned(out)
}

/// Which of the two readings a paste that fits both is: broken at spaces when a line it
/// breaks is narrower than the widest (a frame's lone `at`, a line whose next word did not
/// fit) since a cut leaves every line it breaks at the full width; cut when a cut starts or
/// ends with a space, which a break at spaces drops; else by the width (a mail client breaks
/// at 72–78 columns, a terminal is seldom narrower than 80).
fn reads_as_cut(lines: &[&str], cut: &[bool], space: &[bool]) -> bool {
    let widest = lines.iter().map(|l| width(l)).max().unwrap_or(0);
    let narrower = (0..lines.len()).any(|i| space[i] && !cut[i] && width(lines[i]) + 1 < widest);
    if narrower {
        return false;
    }
    let spaced = (0..lines.len()).any(|i| {
        cut[i] && (lines[i].ends_with(' ') || lines.get(i + 1).is_some_and(|n| n.starts_with(' ')))
    });
    spaced || widest >= TERMINAL_WIDTHS[0] - 1
}

/// Length in characters, as a mail client counts it when it breaks lines (a terminal counts
/// columns, see [`width`]).
fn chars(line: &str) -> usize {
    line.chars().count()
}

/// Whether `line` ends where Java goes on with an exception on the same line: after an
/// exception class and its colon (`Caused by: java.lang.RuntimeException:` before
/// `org.apache.flink…JobException: …`), after `Caused by:` or after `Exception in thread
/// "main"`.
fn goes_on_with_exception(line: &str) -> bool {
    let t = line.trim();
    t.ends_with("Caused by:")
        || (t.ends_with('"') && t.contains("Exception in thread \""))
        || t.split_whitespace()
            .next_back()
            .is_some_and(|w| w.ends_with(':') && starts_with_exception(w))
}

/// Display width in terminal columns: a Han character takes two, a tab runs to the next
/// multiple of eight.
fn width(line: &str) -> usize {
    line.chars().fold(0, |at, c| match c {
        '\t' => (at / 8 + 1) * 8,
        c => at + if is_wide(c) { 2 } else { 1 },
    })
}

/// The number of spaces and tabs `line` starts with.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// Whether `line` starts with a character two columns wide, which a terminal moves to the
/// next line when one column is left.
fn starts_wide(line: &str) -> bool {
    line.chars().next().is_some_and(is_wide)
}

/// Characters a terminal shows two columns wide, in the scripts pastes carry: Hangul jamo,
/// CJK punctuation, kana and Han, Hangul syllables, compatibility ideographs, vertical and
/// full-width forms. (The `unicode-width` crate in its place made the browser module 3.9 KB
/// brotli larger, for characters no trace holds; the tests measure with the crate.)
fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{303E}'
        | '\u{3041}'..='\u{33FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{A000}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}'
        | '\u{20000}'..='\u{3FFFD}')
}

/// For a paste cut at a terminal's width: which lines (by index) go on in the next one, and
/// the empty separator (the cut dropped nothing). Two or more lines of exactly the widest
/// length (one column less before a wide character) with a line after them, or one when that
/// length is a common terminal width.
fn cut_joins(lines: &[&str]) -> Option<(Vec<bool>, &'static str)> {
    let widest = lines.iter().map(|l| width(l)).max()?;
    if widest < MIN_WIDTH {
        return None;
    }
    let joins: Vec<bool> = (0..lines.len())
        .map(|i| {
            lines.get(i + 1).is_some_and(|next| {
                let full = width(lines[i]) == widest
                    || (width(lines[i]) + 1 == widest && starts_wide(next));
                // A cut's rest starts at the terminal's first column; a line indented as the
                // one before it is the next item of a listing (`kubectl describe`).
                let listed = indent_of(next) > 0 && indent_of(next) == indent_of(lines[i]);
                full && !next.trim().is_empty() && !listed && !starts_line_after_cut(next)
            })
        })
        .collect();
    let cuts: Vec<usize> = (0..joins.len()).filter(|&i| joins[i]).collect();
    // One line of a common width can be that wide by chance: its rest must not look like a
    // line of its own (indented, or an exception).
    let lone_cut = |i: usize| {
        let next = lines[i + 1];
        TERMINAL_WIDTHS.contains(&widest)
            && !next.starts_with("  ")
            && !next.starts_with('\t')
            && !starts_with_exception(next.trim_start())
    };
    match cuts.as_slice() {
        [] => None,
        [one] if !lone_cut(*one) => None,
        _ => Some((joins, "")),
    }
}

/// For a paste broken at spaces: which lines go on in the next one, and the space the break
/// took. Lengths are counted in characters. The width is the widest line with a space in it (a word longer than the width
/// stands alone on a wider line); a line was broken when the next line's first word would
/// not have fitted on it. Two or more such lines; one when the next line goes on mid-sentence
/// (a lower-case word, a digit, a quote or a parenthesis).
fn space_joins(lines: &[&str]) -> Option<(Vec<bool>, &'static str)> {
    let has_space = |l: &str| l.trim().contains(' ');
    let widest = lines
        .iter()
        .filter(|l| has_space(l))
        .map(|l| chars(l.trim_end()))
        .max()?;
    if !(MIN_WIDTH..=MAX_SPACE_WIDTH).contains(&widest) {
        return None;
    }
    let joins: Vec<bool> = (0..lines.len())
        .map(|i| {
            let line = lines[i].trim_end();
            let Some(next) = lines.get(i + 1) else {
                return false;
            };
            let first = next.split(' ').next().unwrap_or("");
            !line.trim().is_empty()
                && !next.trim().is_empty()
                && !next.starts_with(char::is_whitespace)
                // A lone `at` is always followed by its frame.
                && (!starts_printed_line(next)
                    || goes_on_with_exception(line)
                    || line.trim() == "at")
                // A Go frame's file line ends with its offset; the function follows.
                && !line.rsplit(' ').next().is_some_and(|w| w.starts_with("+0x"))
                && chars(line) + 1 + chars(first) > widest
        })
        .collect();
    let breaks: Vec<usize> = (0..joins.len()).filter(|&i| joins[i]).collect();
    let mid_sentence = |i: usize| {
        lines[i + 1].starts_with(|c: char| {
            c.is_lowercase() || c.is_ascii_digit() || matches!(c, '\'' | '"' | '(')
        })
    };
    match breaks.as_slice() {
        [] => None,
        [one] if !mid_sentence(*one) => None,
        _ => Some((joins, " ")),
    }
}

/// Whether `line` starts a printed line of its own, so no break is read before it: what
/// starts one after a cut ([`starts_line_after_cut`]), and a lone `at` (a mail client broke
/// the frame after it), a Go dump's lines, a Python traceback's lines, an exception with its
/// message, a timestamp or an upper-case label (`DETAIL:`).
fn starts_printed_line(line: &str) -> bool {
    let t = line.trim_start();
    let first = t.split_whitespace().next().unwrap_or("");
    starts_line_after_cut(line)
        || t.trim_end() == "at"
        || t.starts_with("goroutine ")
        || t.starts_with("created by ")
        || is_call_line(t)
        || t.starts_with("Traceback (most recent call last)")
        || t.starts_with("File \"")
        || starts_with_exception(t)
        || is_timestamp(first.trim_matches(['[', ']', '(', ')']))
        || is_label(first)
}

/// Whether `line`, after a line of the full width, still starts a printed line of its own:
/// a frame (also one cut before its parenthesis), a cause, `... 12 more`, a JSON record, or
/// a log record ([`starts_record`]: a date or time of day first, not one inside an id). Anything
/// else there is the rest of a cut line, even when it looks like the start of one
/// (`tionException: …` of a class cut in two, `01-01 00:00:00` of a value).
fn starts_line_after_cut(line: &str) -> bool {
    let t = line.trim_start();
    is_frame_start(t)
        || t.strip_prefix("at ")
            .and_then(|r| r.split_whitespace().next())
            .is_some_and(is_qualified_method)
        || is_more_frames(t)
        || t.starts_with("Caused by:")
        || t.starts_with("Suppressed:")
        || t.starts_with("{\"")
        || starts_record(t)
}

/// A function called on its line, as a Go dump prints its frames
/// (`main.(*Server).handle(0xc000010000, {0x7ffd, 0x10})`, `github.com/a/b.New.func1()`): a
/// qualified name right before the first parenthesis, and the line ends with the closing one.
fn is_call_line(t: &str) -> bool {
    t.split_once('(').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.contains('.')
            && !name.contains(char::is_whitespace)
            && t.trim_end().ends_with(')')
    })
}

/// An upper-case label before a line's text (`DETAIL:`, `HINT:`, `STATEMENT:`).
fn is_label(word: &str) -> bool {
    word.strip_suffix(':')
        .is_some_and(|w| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::join_hard_wraps;

    const MESSAGE: &str = "org.apache.kafka.common.errors.TimeoutException: Timeout of 60000ms expired before the position for partition orders-0 could be determined";

    /// `text` broken at spaces before `width` columns, as a mail client does.
    fn fill(text: &str, width: usize) -> String {
        let mut lines: Vec<String> = Vec::new();
        for line in text.lines() {
            let mut current = String::new();
            for word in line.split(' ') {
                if !current.is_empty() && current.len() + 1 + word.len() > width {
                    lines.push(std::mem::take(&mut current));
                } else if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(word);
            }
            lines.push(current);
        }
        lines.join("\n")
    }

    /// `text` as a terminal of `width` columns shows it: tabs expanded (to the next multiple
    /// of eight), lines cut at the width, a Han character (two columns) that does not fit
    /// moved to the next line.
    fn cut(text: &str, width: usize) -> String {
        let mut rows: Vec<String> = Vec::new();
        for line in expand_tabs(text).lines() {
            let (mut row, mut used) = (String::new(), 0);
            for c in line.chars() {
                let w = if c.is_ascii() { 1 } else { 2 };
                if used + w > width {
                    rows.push(std::mem::take(&mut row));
                    used = 0;
                }
                row.push(c);
                used += w;
            }
            rows.push(row);
        }
        rows.join("\n")
    }

    fn expand_tabs(text: &str) -> String {
        text.replace('\t', "        ")
    }

    fn trace() -> String {
        format!(
            "{MESSAGE}\n\tat org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader.fetch(KafkaPartitionSplitReader.java:141)\n\tat org.apache.flink.connector.base.source.reader.fetcher.FetchTask.run(FetchTask.java:58)"
        )
    }

    #[test]
    fn a_trace_broken_at_spaces_gets_its_lines_back() {
        let wrapped = fill(&trace(), 76);
        assert!(wrapped.lines().count() > 3, "{wrapped}");
        assert_eq!(join_hard_wraps(&wrapped), trace());
    }

    #[test]
    fn a_trace_cut_at_a_terminals_width_gets_its_lines_back() {
        for width in [80, 97] {
            let wrapped = cut(&trace(), width);
            assert!(wrapped.lines().count() > 3, "{wrapped}");
            assert_eq!(
                join_hard_wraps(&wrapped),
                expand_tabs(&trace()),
                "width {width}"
            );
        }
    }

    #[test]
    fn one_message_broken_once_is_joined_when_it_goes_on_mid_sentence() {
        let wrapped = fill(MESSAGE, 76);
        assert_eq!(wrapped.lines().count(), 2);
        assert_eq!(join_hard_wraps(&wrapped), MESSAGE);
        assert_eq!(join_hard_wraps(&cut(MESSAGE, 80)), MESSAGE);
    }

    #[test]
    fn a_cut_that_looks_like_a_start_is_joined() {
        let text = "java.sql.BatchUpdateException: Data truncation: Incorrect datetime value: '1970-01-01 00:00:00.0' for column 'operation_ts' at row 1 (a java.sql.SQLNonTransientConnectionException: No operations allowed)";
        let wrapped = cut(text, 80);
        assert_eq!(wrapped.lines().count(), 3, "{wrapped}");
        assert_eq!(join_hard_wraps(&wrapped), text);
    }

    #[test]
    fn a_frame_cut_before_its_parenthesis_starts_a_line() {
        let text = format!(
            "{}\n        at org.apache.rocketmq.flink.legacy.RocketMQSourceFunction.lambda$null$1\n(RocketMQSourceFunction.java:247)",
            "x".repeat(80)
        );
        let joined = join_hard_wraps(&text);
        assert!(
            joined.contains("\n        at org.apache.rocketmq"),
            "{joined}"
        );
    }

    #[test]
    fn a_lone_at_starts_a_line() {
        // A mail client broke a message at spaces, then a frame after its `at`: the message's
        // lines are joined, the `at` starts a line and its frame goes on it.
        let message = [
            "java.io.IOException: Insufficient number of network buffers: required 2, but only",
            "0 available. The total number of network buffers is currently set to 2048 of 32768",
        ];
        let frame = "org.apache.flink.runtime.io.network.buffer.LocalBufferPool.requestMemorySegment(LocalBufferPool.java:251)";
        let text = format!("{}\n{}\nat\n{frame}", message[0], message[1]);
        assert_eq!(
            join_hard_wraps(&text),
            format!("{} {}\nat {frame}", message[0], message[1])
        );
    }

    #[test]
    fn han_text_is_measured_in_columns() {
        let line = "回滚此次写入, 采用每次写入一行方式提交. 因为:Incorrect string value: '\\xF0\\x9F\\x98\\x81' for column 'name' at row 1 回滚此次写入, 采用每次写入一行方式提交. 因为:Incorrect string value: '\\xF0\\x9F\\x98\\x82' for column 'name' at row 2";
        // A terminal of 80 columns holds 40 Han characters.
        for width in [80, 81] {
            let wrapped = cut(line, width);
            assert!(wrapped.lines().count() >= 3, "{wrapped}");
            assert_eq!(join_hard_wraps(&wrapped), line, "width {width}");
        }
    }

    /// Three syslog records of one repeated message: every line has the widest width, as lines
    /// a terminal cut have.
    fn syslog_records() -> String {
        ["08:51:55", "08:52:25", "08:52:55"]
            .map(|t| format!("Dec 04 13:31:04 flink-host java[12345]: 2020-09-22T{t}.311Z ERROR org.apache.flink.runtime.rest.handler.job.JobDetailsHandler [] - Exception occurred in REST handler: Job ed952687752d2a5b2c60d843d7e5605f8 not found"))
            .join("\n")
    }

    #[test]
    fn printed_lines_stay_apart() {
        for text in [
            // Frames, causes and records start lines whatever their lengths.
            trace().as_str(),
            "Caused by: java.sql.SQLException: Incorrect string value: '\\xF0\\x9F\\x98\\x8A' for column 'name' at row 1\nCaused by: java.io.EOFException: SSL peer shut down incorrectly at the end of it",
            "2024-05-01 10:00:00,123 WARN  org.apache.kafka.clients.NetworkClient - Connection to node 1 could not be established\n2024-05-01 10:00:01,123 WARN  org.apache.kafka.clients.NetworkClient - Connection to node 2 could not be established",
            "FATAL:  permission denied for database \"postgres\" while the replication user connects\nDETAIL:  User does not have CONNECT privilege.",
            // Records after syslog's time, as wide as each other (a message repeated).
            &syslog_records(),
            // A message's own second sentence, after the longest line.
            "com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure\nThe last packet sent successfully to the server was 0 milliseconds ago.",
            // Short lines.
            "ERROR: relation does not exist\nLINE 1: select * from t",
            // JSON records, whose first word never fits.
            "{\"ts\":\"2024-05-01T10:00:00Z\",\"level\":\"error\",\"msg\":\"connection to node 1 could not be established\"}\n{\"ts\":\"2024-05-01T10:00:01Z\",\"level\":\"error\",\"msg\":\"connection to node 2 could not be established\"}\n{\"ts\":\"2024-05-01T10:00:02Z\",\"level\":\"error\",\"msg\":\"connection to node 3 could not be established\"}",
            // A Go dump: a file line, then the next function.
            "goroutine 1 [running]:\ngithub.com/segmentio/kafka-go.(*Writer).WriteMessages(0xc000132000, {0x1012e68, 0xc00012c000})\n\t/go/pkg/mod/github.com/segmentio/kafka-go@v0.4.47/writer.go:621 +0x1d\ngithub.com/example/app/producer.(*Producer).Send(0xc00010e000)\n\t/src/producer/producer.go:88 +0x2b5",
            // A listing whose items are indented alike (`kubectl describe`).
            "    Last State:     Terminated\n      Reason:       Error\n      Message:      org.apache.kafka.common.errors.TimeoutException: Timeout expired after 60000ms\n      Exit Code:    1",
        ] {
            assert_eq!(join_hard_wraps(text), text);
        }
    }
}
