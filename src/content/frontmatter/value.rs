//! YAML or TOML front-matter text to a format-neutral [`FmValue`], with depth limits checked
//! before any parser sees the text.

use crate::diagnostic::{Diagnostic, line_col};
use std::path::Path;

/// A parsed front-matter value, independent of the syntax it came from.
#[derive(Debug, Clone, PartialEq)]
pub enum FmValue {
    /// `null` / `~`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number.
    Number(String),
    /// A string.
    Str(String),
    /// A TOML date or datetime, as written.
    Date(String),
    /// A sequence.
    List(Vec<FmValue>),
    /// A mapping, in source order.
    Map(Vec<(String, FmValue)>),
}

impl FmValue {
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            FmValue::Null => "null",
            FmValue::Bool(_) => "a boolean",
            FmValue::Number(_) => "a number",
            FmValue::Str(_) => "a string",
            FmValue::Date(_) => "a date",
            FmValue::List(_) => "a list",
            FmValue::Map(_) => "a mapping",
        }
    }
}

/// Deepest `[`/`{` nesting accepted in front-matter. libyaml's scanner is quadratic in the
/// flow nesting depth (20 000 levels took half a minute), and real front-matter nests two or
/// three levels, so deeper input is refused before any parser sees it.
pub(super) const MAX_DEPTH: usize = 64;

/// Byte offset of the bracket that opens level `MAX_DEPTH + 1`, if any. Brackets inside
/// double-quoted strings are skipped; elsewhere they are counted even in plain scalars,
/// which can only over-count by unbalanced brackets (harmless below the limit).
pub(super) fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        if quoted {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => quoted = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => quoted = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

pub(super) fn parse_yaml(
    text: &str,
    first_line: usize,
    path: &Path,
) -> Result<FmValue, Diagnostic> {
    if text.trim().is_empty() {
        return Ok(FmValue::Null);
    }
    let value: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        let (msg, line, col, hint) = yaml_error(text, &e);
        Diagnostic::error(
            path,
            first_line + line.saturating_sub(1),
            col.max(1),
            format!("invalid YAML front-matter: {msg}"),
        )
        .with_hint(hint)
    })?;
    from_yaml(value, path, first_line)
}

/// What a YAML parse error says and where the fix goes in `text` (1-based line and column),
/// with a hint: an unclosed quote or bracket at where it began, a duplicate key at its
/// second occurrence.
pub(crate) fn yaml_error(
    text: &str,
    e: &serde_norway::Error,
) -> (String, usize, usize, &'static str) {
    let (line, col) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
    let full = e.to_string();
    // serde_norway appends " at line X column Y"; we print our own position.
    let msg = full.split(" at line ").next().unwrap_or(&full).to_string();
    // What the parser was reading when it failed, and where that began (`…, while
    // scanning a quoted scalar at line 1 column 8`): an unclosed quote is found only at
    // the end, so the place to fix is where it began.
    let context = full.split_once(", while ").and_then(|(_, rest)| {
        let (what, at) = rest.split_once(" at line ")?;
        let (l, c) = at.split_once(" column ")?;
        let c: String = c.chars().take_while(char::is_ascii_digit).collect();
        Some((
            what.to_string(),
            l.parse::<usize>().ok()?,
            c.parse::<usize>().ok()?,
        ))
    });
    let unclosed = msg.starts_with("found unexpected end of stream")
        || msg.starts_with("did not find expected");
    let (msg, line, col) = match context {
        Some((what, l, c)) if unclosed => (format!("{msg} while {what} that starts here"), l, c),
        _ => (msg, line, col),
    };
    // A Chinese input method's colon after a key makes the line a plain string, and the
    // parser fails later, on another line, about something else: name the colon.
    if let Some((l, c, key)) = full_width_colon(text, line) {
        return (
            format!(
                "`{key}` is followed by a full-width colon `：`, which YAML does not read as `:`"
            ),
            l,
            c,
            "type the colon after a key as `:` (half-width), then a space",
        );
    }
    // serde_norway places a duplicate key at its mapping: point at the second occurrence.
    let (line, col) = duplicate_key_line(text, &msg).map_or((line, col), |l| (l, 1));
    let tab = text
        .lines()
        .nth(line.saturating_sub(1))
        .is_some_and(|l| l[..l.len() - l.trim_start().len()].contains('\t'));
    let hint = if tab {
        "YAML does not allow tabs in indentation: indent with spaces"
    } else {
        "check indentation and quoting; strings containing `: ` or starting with `'`, `[` or `{` need double quotes"
    };
    (msg, line, col, hint)
}

/// The first line up to `upto` (1-based) that starts with a key (of a mapping or a list item)
/// followed by a full-width colon: its line, the colon's column and the key.
fn full_width_colon(text: &str, upto: usize) -> Option<(usize, usize, &str)> {
    text.lines()
        .take(upto.max(1))
        .enumerate()
        .find_map(|(i, l)| {
            let body = l.trim_start();
            let body = body.strip_prefix("- ").map_or(body, str::trim_start);
            let key_end = body
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .filter(|&e| e > 0)?;
            let (key, rest) = body.split_at(key_end);
            rest.trim_start().starts_with('：').then(|| {
                let at = l.len() - rest.trim_start().len();
                (i + 1, l[..at].chars().count() + 1, key)
            })
        })
}

/// The 1-based line of the second top-level `key:` named in serde_norway's "duplicate entry
/// with key" message.
fn duplicate_key_line(text: &str, msg: &str) -> Option<usize> {
    let key = msg
        .split("duplicate entry with key \"")
        .nth(1)?
        .split('"')
        .next()?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .nth(1)
        .map(|(i, _)| i + 1)
}

fn from_yaml(
    v: serde_norway::Value,
    path: &Path,
    first_line: usize,
) -> Result<FmValue, Diagnostic> {
    use serde_norway::Value as Y;
    Ok(match v {
        Y::Null => FmValue::Null,
        Y::Bool(b) => FmValue::Bool(b),
        Y::Number(n) => FmValue::Number(n.to_string()),
        Y::String(s) => FmValue::Str(s),
        Y::Sequence(items) => FmValue::List(
            items
                .into_iter()
                .map(|i| from_yaml(i, path, first_line))
                .collect::<Result<_, _>>()?,
        ),
        Y::Mapping(m) => {
            let mut out = Vec::with_capacity(m.len());
            for (k, val) in m {
                let key = match k {
                    Y::String(s) => s,
                    Y::Number(n) => n.to_string(),
                    Y::Bool(b) => b.to_string(),
                    _ => {
                        return Err(Diagnostic::error(
                            path,
                            first_line,
                            1,
                            "front-matter keys must be plain words",
                        )
                        .with_hint("write keys like `title:`"));
                    }
                };
                out.push((key, from_yaml(val, path, first_line)?));
            }
            FmValue::Map(out)
        }
        Y::Tagged(t) => from_yaml(t.value, path, first_line)?,
    })
}

pub(super) fn parse_toml(
    text: &str,
    first_line: usize,
    path: &Path,
) -> Result<FmValue, Diagnostic> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let (line, col) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        Diagnostic::error(
            path,
            first_line + line - 1,
            col,
            format!("invalid TOML front-matter: {}", e.message().trim()),
        )
        .with_hint("check quoting and `key = value` syntax")
    })?;
    // toml::Table is sorted by key; restore source order for stable messages.
    let mut entries: Vec<(String, toml::Value)> = table.into_iter().collect();
    entries.sort_by_key(|(k, _)| text.find(k.as_str()).unwrap_or(usize::MAX));
    Ok(FmValue::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k, from_toml(v)))
            .collect(),
    ))
}

fn from_toml(v: toml::Value) -> FmValue {
    use toml::Value as T;
    match v {
        T::String(s) => FmValue::Str(s),
        T::Integer(i) => FmValue::Number(i.to_string()),
        T::Float(f) => FmValue::Number(f.to_string()),
        T::Boolean(b) => FmValue::Bool(b),
        T::Datetime(d) => FmValue::Date(d.to_string()),
        T::Array(a) => FmValue::List(a.into_iter().map(from_toml).collect()),
        T::Table(t) => FmValue::Map(t.into_iter().map(|(k, v)| (k, from_toml(v))).collect()),
    }
}
