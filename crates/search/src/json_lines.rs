//! Log records and error responses pasted as JSON, one per line (`{"level":"ERROR",
//! "message":"…","stack_trace":"java.sql.SQLException: …\n\tat …"}`, `{"errors":["…"]}`):
//! their text is in string values, with the line breaks of a stack trace escaped.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// `text` with each line that is a JSON object or array replaced by its string values that
/// hold words (a space or a line break), unescaped, each on its own lines. Keys and values of
/// one word (timestamps, levels, ids, logger and host names) are what a log prefix holds, and
/// go. Other lines, invalid JSON and JSON without such values stay as they are.
pub(crate) fn unwrap_json_lines(text: &str) -> Cow<'_, str> {
    if !text.lines().any(is_json_shaped) {
        return Cow::Borrowed(text);
    }
    let mut unwrapped = false;
    let mut lines: Vec<Cow<'_, str>> = Vec::new();
    for line in text.lines() {
        let values = if is_json_shaped(line) {
            text_values(line.trim())
        } else {
            Vec::new()
        };
        if values.is_empty() {
            lines.push(Cow::Borrowed(line));
        } else {
            unwrapped = true;
            lines.extend(values.into_iter().map(Cow::Owned));
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

/// The string values of a JSON text that hold words, in the order printed (empty when it is
/// not valid JSON). serde_json's recursion limit bounds the nesting it walks.
fn text_values(json: &str) -> Vec<String> {
    let mut values = Vec::new();
    let mut de = serde_json::Deserializer::from_str(json);
    if Strings(&mut values).deserialize(&mut de).is_err() || de.end().is_err() {
        return Vec::new();
    }
    values.retain(|v| v.contains(char::is_whitespace));
    values
}

/// Collects every string value, depth first, keys left out.
struct Strings<'a>(&'a mut Vec<String>);

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
        self.0.push(v.to_owned());
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
        while seq.next_element_seed(Strings(&mut *self.0))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key::<IgnoredAny>()?.is_some() {
            map.next_value_seed(Strings(&mut *self.0))?;
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
