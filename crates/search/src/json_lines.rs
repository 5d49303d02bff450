//! Log records and error responses pasted as JSON, one per line (`{"level":"ERROR",
//! "message":"…","stack_trace":"java.sql.SQLException: …\n\tat …"}`, `{"errors":["…"]}`):
//! their text is in string values, with the line breaks of a stack trace escaped.

use crate::long_log::{LONG_LOG, starts_record};
use crate::paste::is_level;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// `text` with each line that is a JSON object or array replaced by its string values that
/// hold words (a space or a line break), unescaped, each on its own lines. Keys and values of
/// one word (timestamps, levels, ids, logger and host names) are what a log prefix holds, and
/// go. Other lines, invalid JSON and JSON without such values stay as they are.
///
/// In a whole log (as many lines as [`crate::long_log`] reads by its records), a record's
/// level stays, before its first value (`ERROR Task failed.`): the level is how a long log's
/// failure is told from the routine records around it.
#[cfg(test)]
pub(crate) fn unwrap_json_lines(text: &str) -> Cow<'_, str> {
    unwrap_json_lines_with(text, as_is)
}

#[cfg(test)]
fn as_is(value: &str) -> Cow<'_, str> {
    Cow::Borrowed(value)
}

/// [`unwrap_json_lines`] with each value read by `reread` (a value is printed text of its
/// own, see [`crate::decoration`]).
pub(crate) fn unwrap_json_lines_with(text: &str, reread: fn(&str) -> Cow<'_, str>) -> Cow<'_, str> {
    if !text.lines().any(is_json_shaped) {
        return Cow::Borrowed(text);
    }
    let whole_log = text.lines().filter(|l| !l.trim().is_empty()).count() >= LONG_LOG;
    let mut unwrapped = false;
    let mut lines: Vec<Cow<'_, str>> = Vec::new();
    for line in text.lines() {
        let Record { mut values, level } = if is_json_shaped(line) {
            record(line.trim())
        } else {
            Record::default()
        };
        if values.is_empty() {
            lines.push(Cow::Borrowed(line));
        } else {
            unwrapped = true;
            // A message that is a log line itself (a wrapped process's output) keeps its own
            // timestamp and level.
            if whole_log
                && let Some(level) = level
                && !starts_record(&values[0])
            {
                values[0] = format!("{level} {}", values[0]);
            }
            lines.extend(
                values
                    .into_iter()
                    .map(|v| Cow::Owned(reread(&v).into_owned())),
            );
        }
    }
    if unwrapped {
        Cow::Owned(lines.join("\n"))
    } else {
        Cow::Borrowed(text)
    }
}

fn is_json_shaped(line: &str) -> bool {
    let t = line.trim();
    (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']'))
}

/// What a JSON text holds for the search.
#[derive(Default)]
struct Record {
    /// Its string values that hold words, in the order printed (none when it is not valid
    /// JSON).
    values: Vec<String>,
    /// The first level word (`ERROR`, `warn`) under a key naming a level, in capitals.
    level: Option<String>,
}

/// Keys whose value is a record's level: ECS's `log.level`, and the names other layouts and
/// libraries give it (`levelname` is Python's).
const LEVEL_KEYS: [&str; 6] = [
    "level",
    "log.level",
    "severity",
    "levelname",
    "loglevel",
    "log_level",
];

/// The key of MongoDB's structured log (mongod 4.4 and later) whose value is the record's
/// severity, one letter or a debug level: `"s":"E"`.
const MONGO_SEVERITY_KEY: &str = "s";

/// The level word of a MongoDB severity (`F`, `E`, `W`, `I`, `D1` to `D5`).
fn mongo_severity(s: &str) -> Option<&'static str> {
    match s {
        "F" => Some("FATAL"),
        "E" => Some("ERROR"),
        "W" => Some("WARN"),
        "I" => Some("INFO"),
        "D" | "D1" | "D2" | "D3" | "D4" | "D5" => Some("DEBUG"),
        _ => None,
    }
}

/// What a string value under a key says of the record's level.
#[derive(Clone, Copy)]
enum LevelKey {
    /// Not a level.
    No,
    /// A level word (one of [`LEVEL_KEYS`]).
    Word,
    /// A MongoDB severity (see [`MONGO_SEVERITY_KEY`]).
    MongoSeverity,
}

/// The [`Record`] of a JSON text. serde_json's recursion limit bounds the nesting it walks.
fn record(json: &str) -> Record {
    let mut found = Record::default();
    let mut de = serde_json::Deserializer::from_str(json);
    if Strings(&mut found, LevelKey::No)
        .deserialize(&mut de)
        .is_err()
        || de.end().is_err()
    {
        return Record::default();
    }
    found.values.retain(|v| v.contains(char::is_whitespace));
    found
}

/// Collects every string value, depth first, and the level; `.1`: what the key of the value
/// says of it.
struct Strings<'a>(&'a mut Record, LevelKey);

impl<'de> DeserializeSeed<'de> for Strings<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strings<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        if self.0.level.is_none() {
            let level = match self.1 {
                LevelKey::No => None,
                LevelKey::Word => Some(v.to_ascii_uppercase()).filter(|l| is_level(l)),
                LevelKey::MongoSeverity => mongo_severity(v).map(str::to_owned),
            };
            self.0.level = level;
        }
        self.0.values.push(v.to_owned());
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(Strings(&mut *self.0, LevelKey::No))?
            .is_some()
        {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let level_key = if LEVEL_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k)) {
                LevelKey::Word
            } else if key == MONGO_SEVERITY_KEY {
                LevelKey::MongoSeverity
            } else {
                LevelKey::No
            };
            map.next_value_seed(Strings(&mut *self.0, level_key))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_log_record_becomes_its_message_and_trace() {
        let line = r#"{"@timestamp":"2024-05-01T10:00:00.000Z","log.level":"ERROR","logger":"org.apache.flink.runtime.taskmanager.Task","message":"Sink: jdbc (1/2) switched from RUNNING to FAILED.","error":{"stack_trace":"java.sql.BatchUpdateException: Deadlock found when trying to get lock\n\tat com.mysql.cj.jdbc.ClientPreparedStatement.executeBatch(ClientPreparedStatement.java:12)"}}"#;
        let text = format!("{line}\nsome other line");
        assert_eq!(
            unwrap_json_lines(&text),
            "Sink: jdbc (1/2) switched from RUNNING to FAILED.\n\
             java.sql.BatchUpdateException: Deadlock found when trying to get lock\n\
             \tat com.mysql.cj.jdbc.ClientPreparedStatement.executeBatch(ClientPreparedStatement.java:12)\n\
             some other line"
        );
        // An error response of a REST API, an array of texts.
        assert_eq!(
            unwrap_json_lines(r#"{"errors":["Internal server error.","Job failed"]}"#),
            "Internal server error.\nJob failed"
        );
    }

    /// In a whole log the level stays before each record's text, so the log is read by its
    /// failure; an excerpt of a few records reads as before; a record whose message is a log
    /// line itself keeps that line's own level.
    #[test]
    fn a_whole_json_log_keeps_each_records_level() {
        let routine = |i: usize| {
            format!(
                r#"{{"@timestamp":"2024-05-01T10:00:{:02}.000Z","log.level":"INFO","message":"Completed checkpoint {i} for job 3f2a."}}"#,
                i % 60
            )
        };
        let failure = r#"{"log":{"level":"error"},"message":"Sink: jdbc (1/2) switched from RUNNING to FAILED.","error":{"stack_trace":"java.sql.SQLException: No suitable driver\n\tat a.b.C.m(C.java:1)"}}"#;
        let wrapped = r#"{"level":"info","msg":"2024-05-01 10:00:00,000 WARN org.apache.kafka.clients.NetworkClient - Connection to node 1 could not be established."}"#;
        let lines = whole_log(routine, [failure, wrapped]);
        let out = unwrapped_lines(&lines);
        assert_eq!(out[0], "INFO Completed checkpoint 0 for job 3f2a.");
        assert_eq!(
            &out[40..44],
            [
                "ERROR Sink: jdbc (1/2) switched from RUNNING to FAILED.",
                "java.sql.SQLException: No suitable driver",
                "\tat a.b.C.m(C.java:1)",
                "2024-05-01 10:00:00,000 WARN org.apache.kafka.clients.NetworkClient - Connection to node 1 could not be established.",
            ]
        );
        // A few records: their text only, as before.
        assert_eq!(
            unwrap_json_lines(&lines[38..42].join("\n")).lines().next(),
            Some("Completed checkpoint 38 for job 3f2a.")
        );
    }

    /// 45 routine records with two others after the 40th: as many lines as a whole log.
    fn whole_log(routine: impl Fn(usize) -> String, others: [&str; 2]) -> Vec<String> {
        let mut lines: Vec<String> = (0..45).map(routine).collect();
        lines.splice(40..40, others.map(str::to_owned));
        lines
    }

    fn unwrapped_lines(lines: &[String]) -> Vec<String> {
        unwrap_json_lines(&lines.join("\n"))
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// MongoDB's structured log gives the severity as one letter under `s`.
    #[test]
    fn a_whole_mongod_log_keeps_each_records_severity() {
        let routine = |i: usize| {
            format!(
                r#"{{"t":{{"$date":"2024-05-01T10:00:{:02}.000+00:00"}},"s":"I","c":"NETWORK","id":22943,"ctx":"listener","msg":"Connection accepted","attr":{{"connectionId":{i}}}}}"#,
                i % 60
            )
        };
        let failure = r#"{"t":{"$date":"2024-05-01T10:01:00.000+00:00"},"s":"E","c":"REPL","id":21283,"ctx":"BackgroundSync","msg":"Fatal assertion while reading the oplog","attr":{"error":"OplogStartMissing: Our last optime fetched: not found"}}"#;
        // `s` that is not a severity names no level.
        let other = r#"{"s":"a sample value","msg":"Slow query on a collection"}"#;
        let out = unwrapped_lines(&whole_log(routine, [failure, other]));
        assert_eq!(out[0], "INFO Connection accepted");
        assert_eq!(
            &out[40..44],
            [
                "ERROR Fatal assertion while reading the oplog",
                "OplogStartMissing: Our last optime fetched: not found",
                "a sample value",
                "Slow query on a collection",
            ]
        );
    }

    #[test]
    fn other_text_is_left_alone() {
        for text in [
            "java.sql.SQLException: No suitable driver",
            // A configuration printed as a map, not JSON.
            "{bootstrap.servers=localhost:9092, group.id=test}",
            // JSON without a value of words.
            r#"{"code":18,"codeName":"AuthenticationFailed"}"#,
            // Cut off.
            r#"{"message":"Deadlock found when trying"#,
            // Nested beyond the parser's limit.
            &format!("{}{}", "[".repeat(300), "]".repeat(300)),
        ] {
            assert_eq!(unwrap_json_lines(text), text);
        }
    }
}
