//! A whole log piped or pasted (`kubectl logs tm-1 | kbook search --stdin`): hundreds of
//! routine records around the few that report the failure. Their words would outweigh the
//! error's, so a long log is read by its records that report something going wrong.

use crate::paste::{after_syslog_time, is_date_or_time, is_level, is_timestamp};
use std::borrow::Cow;

/// A paste of at least this many lines is a log, not an excerpt: the excerpts people paste
/// (every labelled real-world text) have at most 18.
pub(crate) const LONG_LOG: usize = 40;

/// Records of the worst rank with more than this many others between them are apart: of
/// two such bursts only the last is read. (A log that goes on long after its failure and
/// ends with an unrelated error of the same rank is read by that error.)
const BURST_GAP: usize = LONG_LOG;

/// Words of a record that reports something going wrong, in any letter case.
const TROUBLE: [&str; 14] = [
    "exception",
    "error",
    "fail",
    "caused by",
    "refused",
    "denied",
    "timed out",
    "timeout",
    "cannot",
    "unable",
    "错误",
    "失败",
    "异常",
    "超时",
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Level {
    /// TRACE, DEBUG, INFO, NOTICE.
    Routine,
    /// WARN, WARNING.
    Warning,
    /// ERROR, SEVERE, FATAL, CRITICAL.
    Error,
    /// A timestamp and no level.
    Unknown,
}

/// `text` without the records of a long log that are not its worst: each record (a line that
/// starts with a timestamp or a level, and the lines after it without one, a trace included)
/// is ranked by what it reports: an error level or an exception (Flink logs a task's failure
/// and its trace at INFO), else a warning, else words of trouble (`failed`, `refused`,
/// `超时`), else nothing; the records of the highest rank any record has are kept (their last
/// burst, see [`BURST_GAP`]), with the lines before the first record. A short text, and a log
/// whose records all rank the same, stay as they are.
pub(crate) fn focus_long_log(text: &str) -> Cow<'_, str> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.iter().filter(|l| !l.trim().is_empty()).count() < LONG_LOG {
        return Cow::Borrowed(text);
    }
    // (first line, end, level) of each record; the lines before the first one are kept.
    let mut records: Vec<(usize, usize, Level)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(level) = record_level(line) {
            records.push((i, i + 1, level));
        } else if let Some(last) = records.last_mut() {
            last.1 = i + 1;
        }
    }
    let rank = |&(from, to, level): &(usize, usize, Level)| {
        let text = &lines[from..to];
        if level == Level::Error || text.iter().any(|l| has_exception(l)) {
            3
        } else if level == Level::Warning {
            2
        } else if text.iter().any(|l| reports_trouble(l)) {
            1
        } else {
            0
        }
    };
    let ranks: Vec<u8> = records.iter().map(rank).collect();
    let (Some(&top), Some(&bottom)) = (ranks.iter().max(), ranks.iter().min()) else {
        return Cow::Borrowed(text);
    };
    if top == bottom {
        return Cow::Borrowed(text);
    }
    let worst: Vec<usize> = (0..records.len()).filter(|&i| ranks[i] == top).collect();
    // The last burst of them: a failure is reported at the end of the log that shows it, and
    // warnings every start prints (Flink's `Unable to load native-hadoop library`) stand
    // hundreds of records before it.
    let burst = worst
        .windows(2)
        .rposition(|w| w[1] - w[0] - 1 > BURST_GAP)
        .map_or(0, |i| i + 1);
    let first = records.first().map_or(lines.len(), |r| r.0);
    let mut out: Vec<&str> = lines[..first].to_vec();
    for &i in &worst[burst..] {
        let r = records[i];
        out.extend_from_slice(&lines[r.0..r.1]);
    }
    Cow::Owned(out.join("\n"))
}

/// Whether `line` starts a log record: a date or a time of day first (syslog's `Dec 04
/// 13:31:04` too), or a level (see [`record_level`]).
pub(crate) fn starts_record(line: &str) -> bool {
    record_level(line).is_some()
}

/// The level of the record `line` starts, or `None` when it starts none (a continuation: a
/// frame, a message's second line). A record starts with a timestamp (`2024-05-01`,
/// `[2024-05-01`, syslog's `Dec 04 13:31:04`) or a level word; its level is the first level
/// word among its first words (`WARN`, or in brackets in any case: `[Warning]`, `<Error>`).
fn record_level(line: &str) -> Option<Level> {
    let bare = |w: &str| w.trim_matches(['[', ']', '(', ')', ':']).to_string();
    // After the first word, a level in brackets is one whatever its case: MySQL's error log
    // writes `[Note]` and `[Warning]`, ClickHouse `<Error>` and `<Information>` (first, such
    // a word is more likely a note in prose or an XML element).
    let marked = |w: &str| {
        let inner = w
            .strip_prefix('<')
            .and_then(|b| b.strip_suffix('>'))
            .or_else(|| w.strip_prefix('[').and_then(|b| b.strip_suffix(']')));
        inner.map_or_else(|| bare(w), marked_level)
    };
    let mut split = line.split_whitespace();
    let first = bare(split.next()?);
    let words = split.map(marked);
    // A date or a time of day, not any number with dots and colons (`10.0.0.1:9092`, a
    // broker listed on a message's second line).
    let starts = (is_timestamp(&first) && is_date_or_time(&first))
        || is_level(&first)
        || after_syslog_time(line).is_some();
    if !starts {
        return None;
    }
    let level = std::iter::once(first)
        .chain(words.take(7))
        .find(|w| is_level(w));
    Some(match level.as_deref() {
        Some("TRACE" | "DEBUG" | "INFO" | "NOTICE") => Level::Routine,
        Some("WARN" | "WARNING") => Level::Warning,
        Some(_) => Level::Error,
        None => Level::Unknown,
    })
}

/// A level word marked off by brackets as the level it names (`Warning` → `WARNING`, `Note`
/// → `NOTICE`, `Information` → `INFO`); other words as they are.
fn marked_level(word: &str) -> String {
    let upper = word.to_ascii_uppercase();
    match upper.as_str() {
        "NOTE" => "NOTICE".to_string(),
        "INFORMATION" => "INFO".to_string(),
        _ if is_level(&upper) => upper,
        _ => word.to_string(),
    }
}

/// An exception printed: a class with its message (`java.io.IOException: …`, Python's
/// `KeyError: 'id'`), a qualified class (`org.apache.flink.FooException`), `Caused by:`, a
/// Java frame or a Python traceback. A JVM option (`-XX:+HeapDumpOnOutOfMemoryError`) is not.
fn has_exception(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Caused by:")
        || t.starts_with("Traceback (most recent call last)")
        || (t.starts_with("at ") && t.contains('('))
        || line.split_whitespace().any(|w| {
            let class = w.trim_end_matches([':', ',', ';', ')']);
            let named = class.ends_with("Exception") || class.ends_with("Error");
            let identifier = class.starts_with(|c: char| c.is_ascii_alphabetic())
                && class
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '$' | '_'));
            named && identifier && (w.ends_with(':') || class.contains('.'))
        })
}

/// Words of trouble, as words (`failed`, not `failover`); CJK ones as written.
fn reports_trouble(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words = || lower.split(|c: char| !c.is_alphanumeric());
    TROUBLE.iter().any(|t| {
        if t.is_ascii() {
            t.contains(' ') && lower.contains(t)
                || words().any(|w| {
                    w == *t
                        || w.strip_prefix(t)
                            .is_some_and(|r| matches!(r, "s" | "ed" | "ure" | "ures" | "ing"))
                })
        } else {
            lower.contains(t)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routine(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| {
                format!("2024-05-01 10:00:{:02},000 INFO  o.a.f.r.c.CheckpointCoordinator [] - Completed checkpoint {i} for job 3f2a.", i % 60)
            })
            .collect()
    }

    #[test]
    fn a_long_log_is_read_by_its_troubled_records() {
        let mut log = vec!["$ cat taskmanager.log".to_string()];
        log.extend(routine(50));
        log.push("2024-05-01 10:01:00,000 INFO  o.a.f.r.t.Task [] - Sink (1/1) switched from RUNNING to FAILED with failure cause:".into());
        log.push("java.sql.SQLException: No suitable driver".into());
        log.push("\tat java.sql.DriverManager.getConnection(DriverManager.java:689)".into());
        log.extend(routine(10));
        log.push("[2024-05-01 10:02:00,000] WARN [Producer clientId=p1] Connection to node 1 could not be established.".into());
        log.extend(routine(5));
        let text = log.join("\n");
        // The failure and its trace, not the warning after it.
        assert_eq!(
            focus_long_log(&text),
            [
                "$ cat taskmanager.log",
                log[51].as_str(),
                "java.sql.SQLException: No suitable driver",
                "\tat java.sql.DriverManager.getConnection(DriverManager.java:689)",
            ]
            .join("\n")
        );
        // Without them, the warning; without it, the records with words of trouble.
        let warned: Vec<&str> = log
            .iter()
            .map(String::as_str)
            .filter(|l| {
                !l.contains("SQLException") && !l.contains("DriverManager") && !l.contains("FAILED")
            })
            .collect();
        assert_eq!(
            focus_long_log(&warned.join("\n")),
            ["$ cat taskmanager.log", log[64].as_str()].join("\n")
        );
        let mut troubled = routine(45);
        troubled.push("2024-05-01 10:03:00 INFO  o.a.f.r.e.ExecutionGraph [] - Job 3f2a switched from state RUNNING to FAILING: connection refused".into());
        assert_eq!(focus_long_log(&troubled.join("\n")), troubled[45]);
    }

    #[test]
    fn of_worst_records_far_apart_the_last_burst_is_read() {
        let start = [
            "2024-05-01 09:59:58,001 WARN  org.apache.hadoop.util.NativeCodeLoader [] - Unable to load native-hadoop library for your platform",
            "2024-05-01 09:59:58,417 WARN  o.a.f.r.w.WebMonitorUtils [] - Log file environment variable 'log.file' is not set.",
        ];
        let failure = [
            "2024-05-01 10:05:00,000 WARN  o.a.k.c.NetworkClient [] - [Consumer clientId=consumer-1] Connection to node 1 could not be established.",
            "2024-05-01 10:05:01,000 INFO  o.a.k.c.NetworkClient [] - [Consumer clientId=consumer-1] Node 1 disconnected.",
            "2024-05-01 10:05:02,000 WARN  o.a.k.c.NetworkClient [] - [Consumer clientId=consumer-1] Connection to node 1 could not be established.",
        ];
        let mut log: Vec<String> = start.iter().map(|l| l.to_string()).collect();
        log.extend(routine(BURST_GAP + 1));
        log.extend(failure.iter().map(|l| l.to_string()));
        log.extend(routine(5));
        // The warnings of the start are left out; a routine record inside the burst too.
        assert_eq!(
            focus_long_log(&log.join("\n")),
            [failure[0], failure[2]].join("\n")
        );
        // Closer together, they are one burst.
        let mut close: Vec<String> = start.iter().map(|l| l.to_string()).collect();
        close.extend(routine(BURST_GAP));
        close.extend(failure.iter().map(|l| l.to_string()));
        assert_eq!(
            focus_long_log(&close.join("\n")),
            [start[0], start[1], failure[0], failure[2]].join("\n")
        );
    }

    #[test]
    fn what_is_an_exception_and_what_starts_a_record() {
        assert!(has_exception("KeyError: 'id'"));
        assert!(has_exception("x org.apache.flink.FooException"));
        assert!(!has_exception(
            "INFO x -     -XX:+HeapDumpOnOutOfMemoryError"
        ));
        assert!(record_level("10.0.0.1:9092 (id: 1 rack: null)").is_none());
        assert!(record_level("2024/05/01 10:00:00 x").is_some());
        assert!(
            record_level("25/01/20 14:50:31 WARN PartitionValuesTimeExpireStrategy: x").is_some()
        );
        assert!(record_level("2019.09.05 10:46:11.450867 [ 9 ] {} <Error> x").is_some());
        // Levels in brackets, whatever their case.
        assert_eq!(
            record_level(
                "2023-08-23T14:16:42.006777+08:00 501333 [Note] Aborted connection 501333"
            ),
            Some(Level::Routine)
        );
        assert_eq!(
            record_level("2023-08-23T14:16:42.006777+08:00 0 [Warning] [MY-010068] CA certificate"),
            Some(Level::Warning)
        );
        assert_eq!(
            record_level("2019.09.05 10:46:11.450867 [ 9 ] {} <Error> db.tbl: Code: 349"),
            Some(Level::Error)
        );
        assert_eq!(
            record_level(
                "2020.05.13 18:44:13.557064 [ 2579621 ] {} <Information> t: Added mutation"
            ),
            Some(Level::Routine)
        );
        // A capitalised word in the message is no level.
        assert_eq!(
            record_level("2024-05-01 10:00:00 Error connecting to node"),
            Some(Level::Unknown)
        );
        // First, a word in brackets is no level of another case: a note in prose, an element.
        assert!(record_level("[Warning] the option is deprecated").is_none());
        assert!(record_level("<Error>").is_none());
        // A version or an amount is no date.
        for line in [
            "1.13.5 is the version",
            "2019.093 x",
            "2023.10 release",
            "1024.00 MB used",
        ] {
            assert!(record_level(line).is_none(), "{line}");
        }
        assert!(record_level("10/20/30 x").is_none());
        assert!(reports_trouble("Job failed") && !reports_trouble("failover strategy region"));
    }

    #[test]
    fn forty_lines_make_a_log() {
        let mut log = routine(38);
        log.push("2024-05-01 10:01:00,000 ERROR x - Task failed: java.io.IOException: y".into());
        let focused = log[38].clone();
        assert!(matches!(focus_long_log(&log.join("\n")), Cow::Borrowed(_)));
        log.insert(0, routine(1)[0].clone());
        assert_eq!(focus_long_log(&log.join("\n")), focused);
    }

    #[test]
    fn short_texts_and_logs_without_trouble_stay() {
        let short = routine(39).join("\n");
        assert!(matches!(focus_long_log(&short), Cow::Borrowed(_)));
        let quiet = routine(100).join("\n");
        assert!(matches!(focus_long_log(&quiet), Cow::Borrowed(_)));
        // Every record in trouble: nothing to leave out.
        let mut loud = routine(0);
        for i in 0..45 {
            loud.push(format!(
                "2024-05-01 10:00:{:02} ERROR x - Failed {i}",
                i % 60
            ));
        }
        let loud = loud.join("\n");
        assert!(matches!(focus_long_log(&loud), Cow::Borrowed(_)));
    }
}
