//! Another generator's front-matter read as data: YAML (`---`) or TOML (`+++`) split off a
//! page and turned into JSON-like values, which the page mapping and the site configuration
//! readers look into.

use super::{ImportReport, Leftover};

/// Splits off YAML (`---`) or TOML (`+++`) front-matter. Returns the front-matter as data (or
/// `None`, reported when it cannot be read), the body and the body's first line.
pub(super) fn split_front<'a>(
    text: &'a str,
    rel: &str,
    report: &mut ImportReport,
) -> (Option<serde_json::Value>, &'a str, usize) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let delim = match text.lines().next().map(str::trim_end) {
        Some("---") => "---",
        Some("+++") => "+++",
        _ => return (None, text, 1),
    };
    let start = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut offset = start;
    for (n, line) in (2..).zip(text[start..].split_inclusive('\n')) {
        if line.trim_end() == delim {
            let front = &text[start..offset];
            let body = &text[(offset + line.len()).min(text.len())..];
            // Where the parser stopped, as a line and column of the file (the front-matter
            // starts on line 2).
            let parsed = if delim == "+++" {
                toml_to_json(front).map_err(|e| {
                    let at = e
                        .span()
                        .map(|s| crate::diagnostic::line_col(front, s.start));
                    (e.message().to_string(), at)
                })
            } else if front.trim().is_empty() {
                Ok(serde_json::Value::Object(Default::default()))
            } else {
                // Placed as `kbook check` places a book's own (where an unclosed quote or
                // bracket began, a duplicate key's second line).
                serde_norway::from_str::<serde_norway::Value>(front)
                    .map(yaml_value)
                    .map_err(|e| {
                        let (msg, line, col, _) =
                            crate::content::frontmatter::yaml_error(front, &e);
                        (msg, Some((line.max(1), col.max(1))))
                    })
            };
            return match parsed {
                Ok(v) => (Some(v), body, n + 1),
                Err((msg, at)) => {
                    let (line, col) = at.unwrap_or((1, 1));
                    report.unreadable.push(format!(
                        "{rel}:{}:{col}: front-matter cannot be read: {msg}",
                        line + 1
                    ));
                    (None, body, n + 1)
                }
            };
        }
        offset += line.len();
    }
    report.notes.push(Leftover {
        at: format!("{rel}:1"),
        what: format!(
            "front-matter opened with `{delim}` is never closed: the file is imported as text"
        ),
    });
    (None, text, 1)
}

/// TOML as JSON-like data (dates become their text).
pub fn toml_to_json(text: &str) -> Result<serde_json::Value, toml::de::Error> {
    let value: toml::Value = toml::from_str(text)?;
    Ok(toml_value(value))
}

fn toml_value(v: toml::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        toml::Value::String(s) => J::String(s),
        toml::Value::Integer(i) => J::from(i),
        toml::Value::Float(f) => J::from(f),
        toml::Value::Boolean(b) => J::Bool(b),
        toml::Value::Datetime(d) => J::String(d.to_string()),
        toml::Value::Array(a) => J::Array(a.into_iter().map(toml_value).collect()),
        toml::Value::Table(t) => {
            J::Object(t.into_iter().map(|(k, v)| (k, toml_value(v))).collect())
        }
    }
}

/// YAML as JSON-like data.
pub fn yaml_to_json(text: &str) -> Result<serde_json::Value, String> {
    if text.trim().is_empty() {
        return Ok(serde_json::Value::Object(Default::default()));
    }
    let value: serde_norway::Value = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    Ok(yaml_value(value))
}

fn yaml_value(v: serde_norway::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        serde_norway::Value::Null => J::Null,
        serde_norway::Value::Bool(b) => J::Bool(b),
        serde_norway::Value::Number(n) => n
            .as_i64()
            .map(J::from)
            .or_else(|| n.as_f64().map(J::from))
            .unwrap_or(J::Null),
        serde_norway::Value::String(s) => J::String(s),
        serde_norway::Value::Sequence(s) => J::Array(s.into_iter().map(yaml_value).collect()),
        serde_norway::Value::Mapping(m) => J::Object(
            m.into_iter()
                .filter_map(|(k, v)| {
                    let key = match k {
                        serde_norway::Value::String(s) => s,
                        serde_norway::Value::Number(n) => n.to_string(),
                        serde_norway::Value::Bool(b) => b.to_string(),
                        _ => return None,
                    };
                    Some((key, yaml_value(v)))
                })
                .collect(),
        ),
        serde_norway::Value::Tagged(t) => yaml_value(t.value),
    }
}

/// A string or a list of strings (numbers as text).
pub(super) fn strings(v: &serde_json::Value) -> Vec<String> {
    match v {
        serde_json::Value::String(s) => s
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        serde_json::Value::Array(a) => a
            .iter()
            .filter_map(|x| match x {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
