//! Splitting a pasted log excerpt into message lines, stack frames and log prefixes.
//!
//! People paste whole traces. The lines that name the problem (the first line, `Caused by:`,
//! `ErrorMessage=`, `Error: ...`, `FooException: ...`) carry the signal; stack frames add a
//! little (class and method names); timestamps, levels, thread and logger names add nothing.

/// What a line of a paste is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRole {
    /// A line stating the error (first line, `Caused by:`, `Error: ...`, an exception line).
    Message,
    /// A stack frame (`at a.b.C.m(File.java:12)`, Python `File "x.py", line 3`, Go frames).
    Frame,
    /// Anything else (context lines, config dumps, questions continued over lines).
    Other,
    /// An exception line whose message is printed on the next line (`ValidationException:`
    /// alone): a wrapper of that message, like the classes before a message on one line.
    Wrapper,
    /// The reader's own words around a pasted error (`同步 MySQL 时报错如下：`, `When I start
    /// the job it fails with:`): a line of CJK prose, or an English sentence in which the
    /// reader speaks (`I`, `we`, `my`), without a log prefix or an error shape, beside lines
    /// that are not prose.
    Prose,
}

/// One line of a paste, with its log prefix removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasteLine<'a> {
    /// The line without its log prefix (and without a leading `Caused by:`).
    pub text: &'a str,
    /// What the line is.
    pub role: LineRole,
    /// Whether the line is a log record (a date, a time of day or a level before it): a
    /// system's line, not words the reader typed.
    pub logged: bool,
}

/// A split paste.
#[derive(Debug, Clone, Default)]
pub struct Paste<'a> {
    /// Informative lines in order; repeated message lines appear once; noise lines are dropped.
    pub lines: Vec<PasteLine<'a>>,
    /// Index into `lines` of the root-cause message: the last `Caused by:`, else the last
    /// message of a Python traceback, else the first exception line, else the first message;
    /// an exception whose message Java printed on the next line gives way to that line.
    pub root_cause: Option<usize>,
}

/// Lines beyond this are ignored (a whole log is first read by its records that report
/// trouble, see [`crate::long_log`]).
const MAX_LINES: usize = 4000;

const LEVELS: [&str; 11] = [
    "TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "SEVERE", "FATAL", "CRITICAL",
    "CRIT",
];

/// The levels `java.util.logging` prints in a Chinese locale (`严重: message` for SEVERE,
/// 警告 WARNING, 信息 INFO): levels only with their colon, as these are words too.
const ZH_LEVELS: [&str; 3] = ["严重", "警告", "信息"];

pub(crate) fn is_level(word: &str) -> bool {
    let w = word.trim_end_matches(':');
    LEVELS.contains(&w) || (w.len() < word.len() && ZH_LEVELS.contains(&w))
}

/// Whether a level reports trouble.
fn is_error_level(word: &str) -> bool {
    matches!(
        word.trim_end_matches(':'),
        "ERROR" | "SEVERE" | "FATAL" | "CRITICAL" | "CRIT" | "严重"
    )
}

/// An ISO date and time as one word (`2024-05-01T10:00:00.123456789Z`,
/// `2024-05-01T10:00:00+0000`), as container runtimes and rsyslog write them.
pub(crate) fn is_iso_date_time(word: &str) -> bool {
    word.contains('T') && is_timestamp(word) && is_date_or_time(word)
}

/// `2024-05-01`, `2024/05/01`, `2019.09.05` (ClickHouse), `25/01/20` (Spark's `yy/MM/dd`)
/// or `10:00:00` in a word.
pub(crate) fn is_date_or_time(word: &str) -> bool {
    let b = word.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let month = |at: usize| {
        digits(at..at + 2) && (1..=12).contains(&((b[at] - b'0') * 10 + b[at + 1] - b'0'))
    };
    (0..b.len()).any(|i| {
        (digits(i..i + 4) && matches!(b.get(i + 4), Some(b'-' | b'/')) && digits(i + 5..i + 7))
            // With dots only the whole date: `2023.10` or `1024.00` is a version or an amount.
            || (digits(i..i + 4)
                && b.get(i + 4) == Some(&b'.')
                && month(i + 5)
                && b.get(i + 7) == Some(&b'.')
                && digits(i + 8..i + 10))
            || (digits(i..i + 2)
                && b.get(i + 2) == Some(&b'/')
                && month(i + 3)
                && b.get(i + 5) == Some(&b'/')
                && digits(i + 6..i + 8))
            || (digits(i..i + 2)
                && b.get(i + 2) == Some(&b':')
                && digits(i + 3..i + 5)
                && b.get(i + 5) == Some(&b':')
                && digits(i + 6..i + 8))
    })
}

/// A timestamp-like token: digits with date/time separators (`2021-04-08`, `10:13:11,214`,
/// `2021-04-08T10:13:11.214Z`).
pub(crate) fn is_timestamp(word: &str) -> bool {
    let w = word.trim_end_matches([',', ':']);
    let digits = w.bytes().filter(u8::is_ascii_digit).count();
    digits >= 2
        && w.bytes().all(|b| {
            b.is_ascii_digit() || matches!(b, b'-' | b':' | b'.' | b',' | b'/' | b'T' | b'Z' | b'+')
        })
        && w.bytes().any(|b| !b.is_ascii_digit())
        && w.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

/// Splits off the first whitespace-separated word.
fn first_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}

/// A line without its log prefix (see [`strip_prefix`]).
struct Stripped<'a> {
    rest: &'a str,
    /// An error level was in the prefix.
    error_level: bool,
    /// There was a prefix at all.
    prefixed: bool,
    /// The prefix held a date or a time of day, or a level: the line is a log record (a
    /// version such as `1.17` before a typed sentence is stripped like a timestamp, but is
    /// none).
    record: bool,
}

/// Removes a log prefix: line numbers, timestamps, levels, `[thread]` groups, a syslog prefix,
/// and the logger before the message (log4j's `logger.Name - `; Spring Boot's process id,
/// `---`, `[thread]` and `logger : `).
fn strip_prefix(line: &str) -> Stripped<'_> {
    let mut rest = line.trim_start();
    let mut in_prefix = false;
    let mut error_level = false;
    let mut record = false;
    let mut spring = false;
    for _ in 0..10 {
        let (w, after) = first_word(rest);
        if w.is_empty() {
            break;
        }
        // syslog and journald: `Dec 04 13:31:04 host java[1234]: message`, or with an ISO
        // time (before timestamps, which would take the ISO time alone).
        if let Some(message) = after_syslog_prefix(rest) {
            rest = message;
            in_prefix = true;
            record = true;
            continue;
        }
        if is_timestamp(w) {
            rest = after.trim_start();
            in_prefix = true;
            record |= is_date_or_time(w);
            continue;
        }
        // Spring Boot's pattern: the process id and `---` after the level, then the thread in
        // brackets and the logger before ` : ` (`ERROR 6860 --- [main] o.s.b.App : message`).
        if in_prefix
            && is_number(w)
            && let ("---", after_dashes) = first_word(after)
        {
            rest = after_dashes.trim_start();
            spring = true;
            continue;
        }
        // A bare number is a line number only when a timestamp follows (`409  2021-04-08 ...`).
        if is_number(w) && is_timestamp(first_word(after).0) {
            rest = after.trim_start();
            in_prefix = true;
            continue;
        }
        if is_level(w) {
            error_level |= is_error_level(w);
            rest = after.trim_start();
            in_prefix = true;
            record = true;
            continue;
        }
        if let Some(inner_end) = rest
            .strip_prefix('[')
            .and_then(|r| r.find(']').filter(|&i| i <= 120))
        {
            let inner = &rest[1..1 + inner_end];
            let inner_first = first_word(inner).0;
            // `[main]`, `[2021-...]`, `[ERROR]` are prefixes; `[ODPS-0130071]` at the start of a
            // line is an error code, so brackets count as prefix only inside a log prefix.
            // `[Producer clientId=console-producer]`: a logging context of key=value pairs.
            let context = inner.contains('=') && !inner.contains(':');
            if is_timestamp(inner_first)
                || is_level(inner.trim())
                || context
                || (in_prefix && !inner.trim().is_empty())
            {
                error_level |= matches!(inner.trim(), "ERROR" | "SEVERE" | "FATAL");
                record |= is_date_or_time(inner_first) || is_level(inner.trim());
                rest = rest[1 + inner_end + 1..].trim_start();
                in_prefix = true;
                continue;
            }
        }
        break;
    }
    if spring
        && let Some(i) = rest.find(" : ")
        && rest[..i].split_whitespace().count() == 1
    {
        rest = rest[i + 3..].trim_start();
    } else if in_prefix {
        // `o.a.f.runtime.taskmanager.Task - message` or `Task [] - message` (log4j patterns).
        if let Some(i) = rest.find(" - ") {
            let logger = rest[..i].trim();
            let looks_like_logger = !logger.is_empty()
                && i <= 160
                && logger.split_whitespace().count() <= 3
                && logger.split_whitespace().next().is_some_and(|l| {
                    l.contains('.') || l.chars().next().is_some_and(char::is_uppercase)
                });
            if looks_like_logger {
                rest = rest[i + 3..].trim_start();
            }
        }
    }
    Stripped {
        rest: rest.trim(),
        error_level,
        prefixed: in_prefix,
        record,
    }
}

/// The rest of `line` after syslog's time (`Dec 04 13:31:04`: month, day, time of day).
pub(crate) fn after_syslog_time(line: &str) -> Option<&str> {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (month, rest) = first_word(line);
    let (day, rest) = first_word(rest);
    let (time, rest) = first_word(rest);
    (MONTHS.contains(&month) && is_number(day) && day.len() <= 2 && is_timestamp(time))
        .then_some(rest)
}

/// The message after a syslog prefix: month, day, time, host and the program's tag
/// (`Dec 04 13:31:04 flink-1 java[1234]: …`, `Dec  4 13:31:04 flink-1 kernel: …`), or an ISO
/// time, host and a tag with the process id, as rsyslog's high-precision format and
/// `journalctl -o short-iso` write it (`2024-05-01T10:00:00.123456+00:00 flink-1 java[1234]: …`).
fn after_syslog_prefix(line: &str) -> Option<&str> {
    let (iso, rest) = match after_syslog_time(line) {
        Some(rest) => (false, rest),
        None => {
            let (first, rest) = first_word(line);
            is_iso_date_time(first).then_some((true, rest))?
        }
    };
    let (host, rest) = first_word(rest);
    let (tag, rest) = first_word(rest);
    // With an ISO time, the tag must carry its process id: `ERROR Task:` is no host and tag.
    let with_pid = || {
        tag.strip_suffix("]:")
            .and_then(|t| t.rsplit_once('['))
            .is_some_and(|(name, pid)| {
                !name.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
            })
    };
    (tag.len() > 1 && tag.ends_with(':') && (!iso || (!is_level(host) && with_pid())))
        .then(|| rest.trim_start())
}

fn is_frame(t: &str) -> bool {
    if let Some(rest) = t.strip_prefix("at ") {
        return rest.contains('(') || rest.contains('.') || rest.contains(':');
    }
    if t.starts_with("File \"") && t.contains(", line ") {
        return true;
    }
    // Go: `/path/to/file.go:123 +0x1d` and `main.handler(0xc000, ...)`. A position before
    // a message (`canal.go:230 canal start sync binlog err: …`) is where a log call is, as
    // a logger's name is: that line is the message.
    let (first, rest) = first_word(t);
    if first.contains(".go:") {
        let rest = rest.trim_start();
        return rest.is_empty() || rest.starts_with("+0x");
    }
    t.contains("(0x") && !t.contains(' ')
}

/// Whether a frame line is in the Java runtime's own code (`java.`, `javax.`, `jdk.`, `sun.`,
/// `com.sun.`, after a module or class loader prefix such as `java.base/` or `app//`):
/// reflection, threads and sockets that any Java program's trace passes through, which say
/// nothing about the program that printed it.
pub(crate) fn is_runtime_frame(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix("at ").unwrap_or(t).trim_start();
    let head = t.split('(').next().unwrap_or(t);
    let class = head.rsplit('/').next().unwrap_or(head);
    ["java.", "javax.", "jdk.", "sun.", "com.sun."]
        .iter()
        .any(|p| class.starts_with(p))
}

/// Noise lines with nothing to match: `... 12 more`, `Traceback (most recent call last):`, ...
fn is_noise(t: &str) -> bool {
    (t.starts_with("...")
        && (t.ends_with("more")
            || t.contains("frames omitted")
            || t.trim_matches('.').trim().is_empty()))
        || t.starts_with("Traceback (most recent call last)")
        || t.starts_with("goroutine ")
        || t.chars().all(|c| !c.is_alphanumeric())
}

/// Whether a line (without its log prefix) is the shape of a machine-printed error: a stack
/// frame, a `Caused by:`, an exception class or an error marker.
fn is_machine_error(t: &str) -> bool {
    is_frame(t)
        || t.starts_with("Caused by:")
        || starts_with_exception(t)
        || t.contains("ErrorMessage=")
        || t.contains("Exception: ")
        || t.contains("Error: ")
}

/// Whether a line that is not the reader's prose has the shape of a machine's text: an
/// error shape, or punctuation that typed words rarely have (`:`, `=`, `;`, brackets,
/// quotes).
fn is_machine_shaped(t: &str) -> bool {
    is_machine_error(t)
        || t.contains([
            ':', '=', ';', '[', ']', '(', ')', '{', '}', '<', '>', '"', '\'', '`',
        ])
}

/// Whether a line beside CJK prose looks pasted rather than typed: machine-shaped, or of the
/// length of a message (six words or more; CJK readers type few Latin words). An English
/// reader's second sentence is as long, so beside English prose only the shape counts.
fn is_pasted(t: &str) -> bool {
    is_machine_shaped(t) || t.split_whitespace().count() >= 6
}

/// Whether a line reads as typed words with some punctuation, not as a machine's text: the
/// reader's prose (see [`reader_prose`]), or a sentence of four words or more, nearly all
/// plain words, with no error shape, none of the separators messages print (`:`, `=`, `;`,
/// braces) and no value in single quotes (`Unknown column 'id' in 'field list'`). Questions
/// carry parentheses, double quotes around an option name and markdown emphasis (`why are
/// rows missing (upsert mode)`, `does **"scan.startup.mode"** apply after a restore`).
pub fn is_typed_sentence(t: &str) -> bool {
    if reader_prose(t).is_some() {
        return true;
    }
    if is_machine_error(t)
        || t.contains("Exception")
        || t.contains([':', '=', ';', '{', '}'])
        || t.split_whitespace().any(|w| w.starts_with('\''))
    {
        return false;
    }
    mostly_plain_words(&line_words(t, |c| !c.is_alphanumeric()))
}

/// The whitespace-separated words of `t`, with the characters `trim` says trimmed from
/// their ends; empty ones left out.
fn line_words(t: &str, trim: impl Fn(char) -> bool) -> Vec<&str> {
    t.split_whitespace()
        .map(|w| w.trim_matches(&trim))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Four words or more, nearly all (80 %) plain words: letters and apostrophes only.
fn mostly_plain_words(words: &[&str]) -> bool {
    let plain = words
        .iter()
        .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic() || c == '\''))
        .count();
    words.len() >= 4 && plain * 10 >= words.len() * 8
}

/// In which script a line is the reader's own words (see [`reader_prose`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProseScript {
    Cjk,
    English,
}

/// A line of the reader's own words and no error shape: mostly CJK (at least four CJK
/// characters, and not fewer than a third of its Latin letters), or an English sentence of
/// the reader's (see [`is_english_prose`]). Tools that print CJK messages print them after a
/// log prefix or with an exception, which such lines lack.
fn reader_prose(t: &str) -> Option<ProseScript> {
    if is_machine_error(t) || t.contains("Exception") {
        return None;
    }
    let cjk = t.chars().filter(|&c| crate::script::is_cjk(c)).count();
    let latin = t.chars().filter(char::is_ascii_alphabetic).count();
    if cjk >= 4 && cjk * 3 >= latin {
        Some(ProseScript::Cjk)
    } else if cjk == 0 && is_english_prose(t) {
        Some(ProseScript::English)
    } else {
        None
    }
}

/// The reader speaking in English: four words or more, nearly all plain words, one of them
/// the reader (`I`, `we`, `my`, …). Messages speak of the system, not of their reader's
/// team (MySQL's `You have an error in your SQL syntax` addresses the reader as `you`).
fn is_english_prose(t: &str) -> bool {
    const READER: [&str; 11] = [
        "i", "i'm", "i've", "i'd", "we", "we're", "we've", "my", "our", "me", "us",
    ];
    let words = line_words(t, |c| {
        matches!(c, ',' | '.' | ';' | ':' | '!' | '?' | '(' | ')' | '"')
    });
    mostly_plain_words(&words)
        && words
            .iter()
            .any(|w| READER.contains(&w.to_ascii_lowercase().as_str()))
}

/// `FooException:` / `FooError:` / `Error:` at the start of a line (after optional package).
pub(crate) fn starts_with_exception(t: &str) -> bool {
    // Only the first 200 bytes are looked at: callers try it at many places of a long line.
    let head = match t.bytes().take(201).position(|b| b == b':') {
        Some(i) => &t[..i],
        None => return false,
    };
    if head.contains(char::is_whitespace) {
        return false;
    }
    let last = head.rsplit(['.', '$']).next().unwrap_or(head);
    last.ends_with("Exception")
        || last.ends_with("Error")
        || last.ends_with("Fault")
        || last.eq_ignore_ascii_case("error")
        || last.eq_ignore_ascii_case("fatal")
}

/// Where the message of an exception line starts: after its leading exception classes
/// (`java.sql.BatchUpdateException: `, also nested `RuntimeException: SQLException: `), when
/// a message of at least three words follows. The class says what kind of failure it is,
/// the message which one; many entries share a wrapper class.
pub fn message_start(line: &str) -> Option<usize> {
    let start = after_exception_classes(line);
    (start > 0 && message_words(&line[start..]) >= 3).then_some(start)
}

/// The words of a message: those with two letters or more (not values like `1` or `=`).
fn message_words(message: &str) -> usize {
    message
        .split_whitespace()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .count()
}

/// Where a line goes on after its leading exception classes and the spaces after them (0
/// when it does not start with one).
fn after_exception_classes(line: &str) -> usize {
    let mut start = 0;
    while let Some(rest) = line.get(start..)
        && starts_with_exception(rest)
        && let Some(colon) = rest.find(':')
    {
        let after = &rest[colon + 1..];
        start += colon + 1 + (after.len() - after.trim_start().len());
    }
    start
}

/// What follows the leading exception classes of a line (`java.sql.SQLException: No
/// suitable driver` → `No suitable driver`; empty when nothing follows them).
fn exception_message(line: &str) -> &str {
    line[after_exception_classes(line)..].trim()
}

/// The line without its leading exception classes when a message follows them (see
/// [`message_start`]): entries sharing only a wrapper class are not the same error.
pub fn message_part(line: &str) -> &str {
    message_start(line).map_or(line, |i| &line[i..])
}

/// [`message_part`], keeping the classes when the message has fewer than `min_words` words
/// of two letters or more: what a query repeats of an error text is compared on these, and
/// a message of three words (`Read timed out`) with its class is long enough to count.
pub fn message_part_of_at_least(line: &str, min_words: usize) -> &str {
    match message_start(line) {
        Some(i) if message_words(&line[i..]) >= min_words => &line[i..],
        _ => line,
    }
}

/// Splits a paste into informative lines.
pub fn split_paste(text: &str) -> Paste<'_> {
    split_paste_with(text, true)
}

/// [`split_paste`], with the reader's prose around a pasted error told apart
/// (`reader_prose`; off: such lines are messages or context lines like any other).
pub fn split_paste_with(text: &str, reader_prose: bool) -> Paste<'_> {
    // Each line once: without its log prefix, whether it had an error level or a prefix at
    // all, and whether it reads as the reader's prose.
    let raw_lines: Vec<(Stripped<'_>, Option<ProseScript>)> = text
        .lines()
        .take(MAX_LINES)
        .map(strip_prefix)
        .filter(|s| !s.rest.is_empty())
        .map(|s| {
            let prose = if reader_prose && !s.prefixed {
                self::reader_prose(s.rest)
            } else {
                None
            };
            (s, prose)
        })
        .collect();
    // The reader's words only stand out around pasted lines; a question alone is all prose,
    // and so is one with a line of typed words (`flink 1.17, mysql 8.0`).
    let pasted_beside = |pasted: fn(&str) -> bool| {
        raw_lines
            .iter()
            .any(|(s, prose)| s.prefixed || (prose.is_none() && pasted(s.rest)))
    };
    let (beside_cjk, beside_english) = (pasted_beside(is_pasted), pasted_beside(is_machine_shaped));
    let mut lines: Vec<PasteLine<'_>> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut root: Option<usize> = None;
    let mut first_message: Option<usize> = None;
    let mut last_message: Option<usize> = None;
    let mut first_exception: Option<usize> = None;
    // An exception line whose message is empty: Java prints a message that starts with a
    // line break on the lines after the class (`ValidationException:` then `The MySQL server
    // has a timezone offset …`).
    let mut empty_exception: Option<usize> = None;
    let mut python = false;
    for (s, prose) in &raw_lines {
        let (stripped, error_level, logged, prose) = (s.rest, s.error_level, s.record, *prose);
        if stripped.starts_with("Traceback (most recent call last)") {
            python = true;
        }
        if is_noise(stripped) {
            continue;
        }
        if is_frame(stripped) {
            lines.push(PasteLine {
                text: stripped,
                role: LineRole::Frame,
                logged,
            });
            empty_exception = None;
            continue;
        }
        let (body, caused_by) = match stripped.strip_prefix("Caused by:") {
            Some(r) => (r.trim(), true),
            None => (stripped, false),
        };
        if body.is_empty() {
            continue;
        }
        // A cause chain repeats messages; count each once.
        if seen.contains(&body) {
            continue;
        }
        seen.push(body);
        let is_prose = match prose {
            Some(ProseScript::Cjk) => beside_cjk,
            Some(ProseScript::English) => beside_english,
            None => false,
        };
        if is_prose && !caused_by {
            lines.push(PasteLine {
                text: body,
                role: LineRole::Prose,
                logged,
            });
            continue;
        }
        // The message of an exception printed on the lines after it stands for that
        // exception: the same kind of line, and the root cause in its place.
        let continues = empty_exception.filter(|_| !caused_by && !starts_with_exception(body));
        let message = caused_by
            || error_level
            || first_message.is_none()
            || continues.is_some()
            || is_machine_error(body);
        let role = if message {
            LineRole::Message
        } else {
            LineRole::Other
        };
        let idx = lines.len();
        lines.push(PasteLine {
            text: body,
            role,
            logged,
        });
        if message {
            first_message.get_or_insert(idx);
            last_message = Some(idx);
        }
        if starts_with_exception(body) {
            first_exception.get_or_insert(idx);
        }
        if caused_by {
            root = Some(idx);
        }
        if let Some(e) = continues {
            lines[e].role = LineRole::Wrapper;
            for r in [&mut root, &mut first_exception] {
                if *r == Some(e) {
                    *r = Some(idx);
                }
            }
        }
        empty_exception =
            (starts_with_exception(body) && exception_message(body).is_empty()).then_some(idx);
    }
    // Without a `Caused by:`, the exception a log line goes on with is deeper than the log
    // line's own message (`ERROR … - Failed to open connection` then `RuntimeException: …`).
    let root_cause = root.or(if python {
        last_message
    } else {
        first_exception.or(first_message)
    });
    Paste { lines, root_cause }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The role of each line `text` is split into.
    fn roles(text: &str) -> Vec<LineRole> {
        split_paste(text).lines.iter().map(|l| l.role).collect()
    }

    #[test]
    fn strips_log_prefixes() {
        let p = split_paste(
            "409  2021-04-08 10:13:11,214 INFO [flink-akka.actor.default-dispatcher-5] o.a.f.r.e.ExecutionGraph - Job failed: timeout",
        );
        assert_eq!(p.lines.len(), 1);
        assert_eq!(p.lines[0].text, "Job failed: timeout");
        let p = split_paste("[2023-01-02T03:04:05.678Z] ERROR [main] Something broke");
        assert_eq!(p.lines[0].text, "Something broke");
        assert_eq!(p.lines[0].role, LineRole::Message);
        let p = split_paste(
            "[AdminClient clientId=adminclient-1] Connection to node 1 could not be established.",
        );
        assert_eq!(
            p.lines[0].text,
            "Connection to node 1 could not be established."
        );
        let p =
            split_paste("Dec  4 13:31:04 flink-1 java[1234]: Caused by: java.io.EOFException: x");
        assert_eq!(p.lines[0].text, "java.io.EOFException: x");
        // rsyslog's high-precision time and `journalctl -o short-iso`.
        for iso in [
            "2024-05-01T10:00:00.123456+00:00 flink-1 java[1234]: \tat org.a.B.m(B.java:12)",
            "2024-05-01T10:00:00+0000 flink-1 java[1234]: \tat org.a.B.m(B.java:12)",
        ] {
            let p = split_paste(iso);
            assert_eq!(p.lines[0].text, "at org.a.B.m(B.java:12)", "{iso}");
            assert_eq!(p.lines[0].role, LineRole::Frame, "{iso}");
        }
        // Spring Boot: process id, `---`, the thread (left-cut to its width) and the logger
        // before ` : `; 3.x adds the application's name in brackets.
        for spring in [
            "2017-05-15 14:27:55.816 ERROR 6860 --- [afka-consumer-1] essageListenerContainer$ListenerConsumer : Container exception",
            "2024-01-09T10:00:00.123+01:00  ERROR 1 --- [app] [           main] o.s.b.SpringApplication                  : Container exception",
        ] {
            assert_eq!(
                split_paste(spring).lines[0].text,
                "Container exception",
                "{spring}"
            );
        }
        // Without the process id and `---`, ` : ` is the message's own.
        let p = split_paste("2024-05-01 10:00:00 ERROR Task : switched to FAILED");
        assert_eq!(p.lines[0].text, "Task : switched to FAILED");
        // After an ISO time, a level and a class with its colon are no host and tag.
        let p = split_paste("2024-05-01T10:00:00Z ERROR Task: switched to FAILED");
        assert_eq!(p.lines[0].text, "Task: switched to FAILED");
        // A month in a message is not a prefix.
        let p = split_paste("May 4 be the day: nothing failed");
        assert_eq!(p.lines[0].text, "May 4 be the day: nothing failed");
        // A leading error code is not a prefix.
        let p = split_paste("[ODPS-0130071]: Semantic analysis exception");
        assert_eq!(
            p.lines[0].text,
            "[ODPS-0130071]: Semantic analysis exception"
        );
    }

    #[test]
    fn a_record_has_a_date_a_time_or_a_level_before_it() {
        for record in [
            "2021-04-08 10:13:11,214 INFO o.a.f.r.e.ExecutionGraph - Job failed: timeout",
            "[2024-05-02 10:15:08,801] ERROR [Producer clientId=p-1] Connection failed",
            "12:14:16.099 [vert.x-thread-0] WARN c.e.Consumer - failed to consume",
            "ERROR: relation \"orders\" does not exist",
            "Dec  4 13:31:04 flink-1 java[1234]: java.io.EOFException: x",
            "严重: Error reading binlog: SSL peer shut down incorrectly",
        ] {
            assert!(split_paste(record).lines[0].logged, "{record}");
        }
        // java.util.logging's Chinese level goes as SEVERE does; the word alone is a word.
        let p = split_paste("严重: Error reading binlog");
        assert_eq!(p.lines[0].text, "Error reading binlog");
        assert!(!split_paste("信息 同步不了").lines[0].logged);
        // A version before a typed sentence is stripped like a timestamp, but is no record.
        for typed in [
            "1.17 upgrade fails with: Widget pool exhausted",
            "[AdminClient clientId=adminclient-1] Connection to node 1 could not be established.",
            "Job failed: timeout",
        ] {
            assert!(!split_paste(typed).lines[0].logged, "{typed}");
        }
    }

    #[test]
    fn runtime_frames_are_told_from_the_programs_own() {
        for runtime in [
            "at sun.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)",
            "at java.base/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance(NativeConstructorAccessorImpl.java:62)",
            "at java.sql/java.sql.DriverManager.getConnection(DriverManager.java:702)",
            "at javax.security.auth.login.LoginContext.invoke(LoginContext.java:739)",
            "at com.sun.proxy.$Proxy12.execute(Unknown Source)",
        ] {
            assert!(is_runtime_frame(runtime), "{runtime}");
        }
        for own in [
            "at com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:123)",
            "at org.apache.flink.runtime.taskmanager.Task.run(Task.java:568)",
            "at app//org.apache.kafka.clients.NetworkClient.poll(NetworkClient.java:560)",
            "at javaxx.Foo.bar(Foo.java:1)",
        ] {
            assert!(!is_runtime_frame(own), "{own}");
        }
    }

    #[test]
    fn a_go_frame_is_a_frame_and_a_go_log_position_is_not() {
        let trace = "panic: runtime error: invalid memory address\n\
            goroutine 1 [running]:\n\
            main.handler(0xc000010000)\n\
            \t/go/src/app/main.go:42 +0x1d\n\
            \t/go/src/app/main.go:57\n";
        assert_eq!(
            roles(trace),
            vec![
                LineRole::Message,
                LineRole::Frame,
                LineRole::Frame,
                LineRole::Frame
            ]
        );
        for logged in [
            "2017/09/19 15:59:51 binlogstreamer.go:47: [error] close sync with err: ERROR 1236 (HY000): A slave with the same server_uuid/server_id as this slave has connected to the master",
            "[2021/02/03 10:56:50] [error] canal.go:230 canal start sync binlog err: ERROR 1236 (HY000): A slave with the same server_uuid/server_id as this slave has connected to the master",
        ] {
            let p = split_paste(logged);
            assert_eq!(p.lines.len(), 1, "{logged}");
            assert_ne!(p.lines[0].role, LineRole::Frame, "{logged}");
        }
    }

    #[test]
    fn java_trace_roles_and_root_cause() {
        let trace = "org.apache.flink.runtime.JobException: Recovery is suppressed\n\
            \tat org.apache.flink.runtime.Foo.bar(Foo.java:138)\n\
            \tat org.apache.flink.runtime.Foo.baz(Foo.java:82) ~[flink-dist.jar:1.15]\n\
            Caused by: java.io.EOFException: SSL peer shut down incorrectly\n\
            \tat sun.security.ssl.SSLSocketInputRecord.decode(SSLSocketInputRecord.java:167)\n\
            \t... 15 more\n\
            Caused by: java.io.EOFException: SSL peer shut down incorrectly\n";
        let p = split_paste(trace);
        assert_eq!(
            roles(trace),
            vec![
                LineRole::Message,
                LineRole::Frame,
                LineRole::Frame,
                LineRole::Message,
                LineRole::Frame
            ]
        );
        let root = &p.lines[p.root_cause.unwrap()];
        assert_eq!(
            root.text,
            "java.io.EOFException: SSL peer shut down incorrectly"
        );
    }

    #[test]
    fn a_message_printed_below_its_exception_is_the_root_cause() {
        let trace = "org.apache.flink.table.api.ValidationException: \n\
            The MySQL server has a timezone offset (0 seconds ahead of UTC)\n\
            \tat org.apache.flink.cdc.Foo.check(Foo.java:12)\n";
        let p = split_paste(trace);
        assert_eq!(
            roles(trace),
            vec![LineRole::Wrapper, LineRole::Message, LineRole::Frame]
        );
        let root = &p.lines[p.root_cause.unwrap()];
        assert!(
            root.text
                .starts_with("The MySQL server has a timezone offset")
        );
        // Under a `Caused by:` too; the outer exception keeps its own message.
        let trace = "java.lang.RuntimeException: Job failed\n\
            Caused by: io.debezium.DebeziumException:\n\
            A slave with the same server_uuid/server_id as this slave has connected\n";
        let p = split_paste(trace);
        let root = &p.lines[p.root_cause.unwrap()];
        assert!(root.text.starts_with("A slave with the same"));
        assert_eq!(p.lines[0].role, LineRole::Message);
        // With nothing after it, or a frame next, the class alone is the message.
        for text in [
            "org.apache.flink.table.api.ValidationException:",
            "java.lang.NullPointerException:\n\tat a.B.c(B.java:1)",
        ] {
            let p = split_paste(text);
            assert_eq!(p.lines[0].role, LineRole::Message);
            assert_eq!(p.root_cause, Some(0));
        }
    }

    #[test]
    fn a_logged_exception_is_deeper_than_the_log_message() {
        let log = "2021-11-23 17:34:34,024 ERROR com.example.Utils [] - Failed to open the connection\n\
            java.lang.RuntimeException: Failed to get driver instance for jdbcUrl=jdbc:x://h/\n\
            \tat com.example.DriverDataSource.<init>(DriverDataSource.java:114)\n";
        let p = split_paste(log);
        let root = &p.lines[p.root_cause.unwrap()];
        assert!(
            root.text
                .starts_with("java.lang.RuntimeException: Failed to get driver")
        );
        // A log message alone is still the root cause.
        let p = split_paste("ERROR [main] Failed to open the connection\nretrying in 5 s");
        let root = &p.lines[p.root_cause.unwrap()];
        assert_eq!(root.text, "Failed to open the connection");
    }

    #[test]
    fn python_traceback_root_is_last_message() {
        let tb = "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\n  File \"app.py\", line 2, in main\nValueError: bad value";
        let p = split_paste(tb);
        let root = &p.lines[p.root_cause.unwrap()];
        assert_eq!(root.text, "ValueError: bad value");
        assert!(p.lines.iter().any(|l| l.role == LineRole::Frame));
    }

    #[test]
    fn message_starts_after_wrapper_classes() {
        fn m(s: &str) -> Option<&str> {
            message_start(s).map(|i| &s[i..])
        }
        assert_eq!(
            m("java.sql.BatchUpdateException: Incorrect string value for column"),
            Some("Incorrect string value for column")
        );
        assert_eq!(
            m("java.lang.RuntimeException: java.sql.SQLException: No suitable driver found"),
            Some("No suitable driver found")
        );
        // Too short a message: the class is most of what there is.
        assert_eq!(m("java.io.EOFException: null"), None);
        assert_eq!(m("plain words without a class here"), None);
        assert_eq!(m("Error:"), None);
    }

    #[test]
    fn the_readers_cjk_lead_in_is_prose() {
        // A lead-in before a pasted exception: the exception stays the root cause.
        let p = split_paste(
            "同步 MySQL 表时作业报错，请问怎么解决：\n\
             java.sql.SQLException: Incorrect string value for column 'name'",
        );
        assert_eq!(
            p.lines.iter().map(|l| l.role).collect::<Vec<_>>(),
            vec![LineRole::Prose, LineRole::Message]
        );
        assert_eq!(p.root_cause, Some(1));
        // Lines of a paste that merely name no exception are not prose either.
        assert_eq!(
            roles("报错如下\nNo operations allowed after connection closed."),
            vec![LineRole::Prose, LineRole::Message]
        );
        // A question alone is the query: nothing to tell apart.
        assert!(!roles("作业运行一段时间后报错\n请问怎么解决").contains(&LineRole::Prose));
        assert!(
            !roles("同步 MySQL 表时主键变成了 decimal 怎么办\nflink 1.17, mysql 8.0")
                .contains(&LineRole::Prose)
        );
        // CJK printed by a tool: logged, or with an exception in the line.
        assert!(
            !roles(
                "2021-05-31 11:19:56 [job-0] INFO Engine - 任务开始执行，共计三个分片\n\
                 具体错误信息为：java.sql.SQLException: No suitable driver"
            )
            .contains(&LineRole::Prose)
        );
        assert!(
            !split_paste_with("同步时报错：\nCommunications link failure", false)
                .lines
                .iter()
                .any(|l| l.role == LineRole::Prose)
        );
    }

    #[test]
    fn the_readers_english_lead_in_is_prose() {
        let p = split_paste(
            "Hi, we upgraded last week and now the job keeps restarting. Log:\n\
             Caused by: java.io.EOFException: SSL peer shut down incorrectly",
        );
        assert_eq!(
            p.lines.iter().map(|l| l.role).collect::<Vec<_>>(),
            vec![LineRole::Prose, LineRole::Message]
        );
        assert_eq!(p.root_cause, Some(1));
        assert_eq!(
            roles(
                "java.sql.SQLException: Deadlock found when trying to get lock\n\
                 Any idea what I should change?"
            ),
            vec![LineRole::Message, LineRole::Prose]
        );
        // Messages in plain English that do not speak as the reader stay messages.
        for line in [
            "You have an error in your SQL syntax; check the manual for the right syntax",
            "The last packet successfully received from the server was 0 milliseconds ago.",
            "I/O error while reading input message",
        ] {
            assert!(
                !roles(&format!("java.sql.SQLException: Access denied\n{line}"))
                    .contains(&LineRole::Prose),
                "{line}"
            );
        }
        // A question alone is the query, also when its second sentence is long.
        assert!(!roles("Why does my job restart\nwe use flink 1.17").contains(&LineRole::Prose));
        assert!(
            !roles(
                "I noticed that the compaction of my table never runs\n\
                 As a result there are no base files and queries return no rows at all"
            )
            .contains(&LineRole::Prose)
        );
    }

    #[test]
    fn hostile_input() {
        for s in [
            "",
            "\n\n\n",
            "   ",
            "[",
            "[]",
            "[[[[",
            "at ",
            "Caused by:",
            "... 3 more",
            "\u{0}\u{1b}[31m",
            "ERROR",
            "2021-01-01",
        ] {
            let p = split_paste(s);
            if let Some(r) = p.root_cause {
                assert!(r < p.lines.len());
            }
        }
        // Nothing to read: no lines and no root cause.
        for s in ["", "\n\n\n", "   ", "\t\n \r\n"] {
            let p = split_paste(s);
            assert!(p.lines.is_empty() && p.root_cause.is_none(), "{s:?}: {p:?}");
        }
        let big = "a b c\n".repeat(200_000);
        let p = split_paste(&big);
        assert!(p.lines.len() <= MAX_LINES);
    }
}
