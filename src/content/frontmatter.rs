//! Front-matter: splitting it from the body, parsing YAML (`---`) or TOML (`+++`), and
//! checking every field, with each problem located at its line and column.
//!
//! Parsing goes through a format-neutral [`FmValue`] so both syntaxes share one validator
//! that reports *all* problems of a file, not only the first one serde would stop at.

use crate::diagnostic::{Diagnostic, did_you_mean, line_col};
use kbook_search::version::{Version, VersionRange};
use std::path::Path;

/// Every key an entry's front-matter may have.
pub const KEYS: [&str; 10] = [
    "id",
    "title",
    "connector",
    "kind",
    "errors",
    "versions",
    "tags",
    "related",
    "updated",
    "aliases",
];

/// Every key of one `versions` item.
pub const VERSION_KEYS: [&str; 4] = ["product", "affected", "fixed", "note"];

/// Every key of one `errors` item written as a mapping.
pub const ERROR_KEYS: [&str; 2] = ["text", "source"];

/// Front-matter syntax, chosen by the opening delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `---`
    Yaml,
    /// `+++`
    Toml,
}

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
    fn type_name(&self) -> &'static str {
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

/// One `versions` item, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionEntry {
    /// Product slug (`vvr`, `flink`, …).
    pub product: String,
    /// Affected range as written, and parsed.
    pub affected: Option<(String, VersionRange)>,
    /// Fixed version as written, and parsed.
    pub fixed: Option<(String, Version)>,
    /// Free-text context.
    pub note: Option<String>,
}

/// One `errors` item: a plain string, or a mapping `{text, source}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ErrorString {
    /// The error text as the system prints it (the only part that is searched).
    pub text: String,
    /// An http(s) URL of the public page or source file that documents the text.
    pub source: Option<String>,
}

impl ErrorString {
    /// A plain error string, without a source.
    pub fn plain(text: impl Into<String>) -> Self {
        ErrorString {
            text: text.into(),
            source: None,
        }
    }
}

impl VersionEntry {
    /// The statement as the search index and the entry page's version check read it.
    pub fn spec(&self) -> kbook_search::version::VersionSpec {
        kbook_search::version::VersionSpec {
            product: self.product.clone(),
            affected: self.affected.as_ref().map(|a| a.1.clone()),
            fixed: self.fixed.as_ref().map(|f| f.1.clone()),
        }
    }
}

/// The validated front-matter of an entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EntryFrontMatter {
    /// Explicit id (the file stem when absent).
    pub id: Option<String>,
    /// Title.
    pub title: String,
    /// Connector slug.
    pub connector: String,
    /// Kind.
    pub kind: String,
    /// Verbatim error strings, each with the page that documents it when given.
    pub errors: Vec<ErrorString>,
    /// Version statements.
    pub versions: Vec<VersionEntry>,
    /// Tags.
    pub tags: Vec<String>,
    /// Related entry ids.
    pub related: Vec<String>,
    /// Last update, `YYYY-MM-DD`.
    pub updated: Option<String>,
    /// Old paths (relative to the site root) that redirect here.
    pub aliases: Vec<String>,
}

/// A source file split into front-matter and body.
#[derive(Debug, Clone)]
pub struct SplitDocument<'a> {
    /// Syntax of the front-matter.
    pub syntax: Syntax,
    /// Front-matter text (between the delimiters).
    pub front: &'a str,
    /// 1-based line of the first front-matter line in the file.
    pub front_line: usize,
    /// Body text.
    pub body: &'a str,
    /// 1-based line of the first body line in the file.
    pub body_line: usize,
}

/// Splits `text` (LF line endings, no BOM) into front-matter and body.
pub fn split<'a>(text: &'a str, path: &Path) -> Result<SplitDocument<'a>, Diagnostic> {
    if text.trim().is_empty() {
        return Err(Diagnostic::error(path, 1, 1, "the file is empty")
            .with_hint("an entry needs front-matter between `---` lines and a body; `kbook new` writes a template"));
    }
    let first = text.lines().next().unwrap_or_default().trim_end();
    let (syntax, delim) = match first {
        "---" => (Syntax::Yaml, "---"),
        "+++" => (Syntax::Toml, "+++"),
        _ => {
            return Err(Diagnostic::error(path, 1, 1, "the file does not start with front-matter")
                .with_hint("start the file with a `---` line, the YAML fields (title, connector, kind, …), and another `---` line"));
        }
    };
    let start = first.len() + 1;
    let mut offset = start.min(text.len());
    for (line_no, line) in (2..).zip(text[offset..].split_inclusive('\n')) {
        if line.trim_end() == delim {
            let front = &text[start..offset];
            let body_start = offset + line.len();
            return Ok(SplitDocument {
                syntax,
                front,
                front_line: 2,
                body: &text[body_start.min(text.len())..],
                body_line: line_no + 1,
            });
        }
        offset += line.len();
    }
    Err(Diagnostic::error(
        path,
        1,
        1,
        format!("the front-matter opened here is never closed with a `{delim}` line"),
    )
    .with_hint(format!(
        "add a line `{delim}` after the last front-matter field"
    )))
}

/// Finds where keys and values sit in the front-matter text, for precise diagnostics.
#[derive(Debug, Clone)]
pub struct Locator {
    lines: Vec<String>,
    first_line: usize,
    syntax: Syntax,
}

impl Locator {
    /// A locator over front-matter `front` starting at file line `first_line`.
    pub fn new(front: &str, first_line: usize, syntax: Syntax) -> Self {
        Locator {
            lines: front.lines().map(str::to_string).collect(),
            first_line,
            syntax,
        }
    }

    fn is_top_key_line(&self, line: &str, key: &str) -> bool {
        match self.syntax {
            Syntax::Yaml => line
                .strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with(':')),
            Syntax::Toml => {
                line.strip_prefix(key)
                    .is_some_and(|r| r.trim_start().starts_with('='))
                    || line.trim() == format!("[[{key}]]")
                    || line.trim() == format!("[{key}]")
            }
        }
    }

    fn is_any_top_key(&self, line: &str) -> bool {
        match self.syntax {
            Syntax::Yaml => !line.starts_with([' ', '\t', '-', '#']) && line.contains(':'),
            Syntax::Toml => {
                !line.starts_with([' ', '\t', '#']) && (line.contains('=') || line.starts_with('['))
            }
        }
    }

    /// Line indexes (0-based into `lines`) of the region belonging to top-level `key`.
    fn region(&self, key: &str) -> Option<(usize, usize)> {
        let start = self
            .lines
            .iter()
            .position(|l| self.is_top_key_line(l, key))?;
        let end = self.lines[start + 1..]
            .iter()
            .position(|l| {
                self.is_any_top_key(l)
                    && !(self.syntax == Syntax::Toml && l.trim() == format!("[[{key}]]"))
                    && !(self.syntax == Syntax::Toml
                        && !l.starts_with('[')
                        && self.in_array_table(start, key))
            })
            .map_or(self.lines.len(), |i| start + 1 + i);
        Some((start, end))
    }

    fn in_array_table(&self, start: usize, key: &str) -> bool {
        self.lines[start].trim() == format!("[[{key}]]")
    }

    fn pos(&self, idx: usize, col: usize) -> (usize, usize) {
        (self.first_line + idx, col + 1)
    }

    /// Position of a top-level key (line 1 of the front-matter when absent).
    pub fn key(&self, key: &str) -> (usize, usize) {
        self.region(key)
            .map_or((self.first_line.saturating_sub(1).max(1), 1), |(s, _)| {
                self.pos(s, 0)
            })
    }

    /// Position of `needle` inside the region of `key`, else of the key.
    pub fn value(&self, key: &str, needle: &str) -> (usize, usize) {
        if let Some((s, e)) = self.region(key) {
            for i in s..e {
                if let Some(b) = self.lines[i].find(needle) {
                    return self.pos(i, self.lines[i][..b].chars().count());
                }
            }
        }
        self.key(key)
    }

    /// Position of item `n` of list `key` (block or array-of-tables style), else of the key.
    pub fn item(&self, key: &str, n: usize) -> (usize, usize) {
        self.item_line(key, n).map_or_else(
            || self.key(key),
            |i| {
                let indent = self.lines[i].len() - self.lines[i].trim_start().len();
                self.pos(i, indent)
            },
        )
    }

    /// Position of item `n` of list `key` when the list is written one item per line
    /// (YAML block style, TOML array of tables); `None` for flow and inline lists.
    pub fn item_start(&self, key: &str, n: usize) -> Option<(usize, usize)> {
        self.item_line(key, n).map(|i| {
            let indent = self.lines[i].len() - self.lines[i].trim_start().len();
            self.pos(i, indent)
        })
    }

    /// Position of the `n`-th (0-based) key `sub` (`sub:` or `sub =`) in the region of `key`,
    /// outside quoted strings and comments. Finds the keys of mappings nested in a list in
    /// any style: YAML block or flow, TOML inline tables.
    pub fn nested_key(&self, key: &str, sub: &str, n: usize) -> Option<(usize, usize)> {
        let (s, e) = self.region(key)?;
        let mut quote = None;
        let mut seen = 0;
        for i in s..e {
            for at in key_offsets(&self.lines[i], sub, &mut quote) {
                if seen == n {
                    let col = self.lines[i].get(..at).map_or(0, |p| p.chars().count());
                    return Some(self.pos(i, col));
                }
                seen += 1;
            }
        }
        None
    }

    fn item_line(&self, key: &str, n: usize) -> Option<usize> {
        let (s, e) = self.region(key)?;
        let starts: Vec<usize> = match self.syntax {
            Syntax::Yaml => (s + 1..e)
                .filter(|&i| self.lines[i].trim_start().starts_with('-'))
                .collect(),
            Syntax::Toml => (s..self.lines.len())
                .filter(|&i| self.lines[i].trim() == format!("[[{key}]]"))
                .collect(),
        };
        starts.get(n).copied()
    }

    /// Position of `sub` inside item `n` of list `key`.
    pub fn item_key(&self, key: &str, n: usize, sub: &str) -> (usize, usize) {
        let Some(start) = self.item_line(key, n) else {
            return self.key(key);
        };
        let end = self
            .item_line(key, n + 1)
            .unwrap_or_else(|| self.region(key).map_or(self.lines.len(), |r| r.1));
        for i in start..end.max(start + 1).min(self.lines.len()) {
            if let Some(b) = find_key(&self.lines[i], sub) {
                return self.pos(i, self.lines[i][..b].chars().count());
            }
        }
        self.item(key, n)
    }
}

/// Byte offsets of the keys `key` (followed by `:` or `=`) in `line`, skipping text inside
/// quotes and after a comment `#`. `quote` carries an open quote over to the next line, as
/// double-quoted strings may span lines.
fn key_offsets(line: &str, key: &str, quote: &mut Option<u8>) -> Vec<usize> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = *quote {
            if q == b'"' && c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                *quote = None;
            }
            i += 1;
            continue;
        }
        let prev = i.checked_sub(1).map(|p| b[p]);
        let at_value_start = prev.is_none_or(|p| b" \t[{,:=".contains(&p));
        match c {
            b'#' if prev.is_none_or(|p| p == b' ' || p == b'\t') => break,
            // An apostrophe inside a plain YAML scalar (`can't`) opens no string.
            b'"' | b'\'' if at_value_start => *quote = Some(c),
            _ if b[i..].starts_with(key.as_bytes())
                && prev.is_none_or(|p| !p.is_ascii_alphanumeric() && p != b'_' && p != b'-') =>
            {
                let after = line.get(i + key.len()..).unwrap_or_default().trim_start();
                if after.starts_with(':') || after.starts_with('=') {
                    out.push(i);
                    i += key.len();
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn find_key(line: &str, key: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = line[from..].find(key) {
        let at = from + i;
        let before_ok = at == 0 || !line.as_bytes()[at - 1].is_ascii_alphanumeric();
        let after = line[at + key.len()..].trim_start();
        if before_ok && (after.starts_with(':') || after.starts_with('=')) {
            return Some(at);
        }
        from = at + key.len();
    }
    None
}

/// Parses and validates front-matter. Returns the front-matter (with defaults where fields
/// were wrong, so later stages still run) and every problem found.
pub fn parse(
    doc: &SplitDocument<'_>,
    path: &Path,
    kinds: &[String],
) -> (Option<EntryFrontMatter>, Locator, Vec<Diagnostic>) {
    let loc = Locator::new(doc.front, doc.front_line, doc.syntax);
    if doc.front.len() > super::MAX_FRONT_MATTER_BYTES {
        let d = Diagnostic::error(
            path,
            doc.front_line.saturating_sub(1).max(1),
            1,
            format!(
                "the front-matter is {} bytes long, more than the {} byte limit",
                doc.front.len(),
                super::MAX_FRONT_MATTER_BYTES
            ),
        )
        .with_hint("front-matter holds a few short fields; move long text into the body");
        return (None, loc, vec![d]);
    }
    if let Some(at) = too_deep(doc.front) {
        let (line, col) = line_col(doc.front, at);
        let d = Diagnostic::error(
            path,
            doc.front_line + line - 1,
            col,
            format!("the front-matter nests lists or mappings more than {MAX_DEPTH} levels deep"),
        )
        .with_hint("front-matter fields are flat: strings, lists of strings, and `versions` items");
        return (None, loc, vec![d]);
    }
    let value = match doc.syntax {
        Syntax::Yaml => parse_yaml(doc.front, doc.front_line, path),
        Syntax::Toml => parse_toml(doc.front, doc.front_line, path),
    };
    let map = match value {
        Ok(FmValue::Map(m)) => m,
        Ok(FmValue::Null) => Vec::new(),
        Ok(other) => {
            let d = Diagnostic::error(
                path,
                doc.front_line,
                1,
                format!(
                    "front-matter must be a mapping of fields, found {}",
                    other.type_name()
                ),
            )
            .with_hint("write one `key: value` per line");
            return (None, loc, vec![d]);
        }
        Err(d) => return (None, loc, vec![d]),
    };
    let mut v = Validator {
        path,
        loc: &loc,
        diags: Vec::new(),
    };
    let fm = v.front_matter(&map, kinds);
    let diags = v.diags;
    (Some(fm), loc, diags)
}

/// Deepest `[`/`{` nesting accepted in front-matter. libyaml's scanner is quadratic in the
/// flow nesting depth (20 000 levels took half a minute), and real front-matter nests two or
/// three levels, so deeper input is refused before any parser sees it.
const MAX_DEPTH: usize = 64;

/// Byte offset of the bracket that opens level `MAX_DEPTH + 1`, if any. Brackets inside
/// double-quoted strings are skipped; elsewhere they are counted even in plain scalars,
/// which can only over-count by unbalanced brackets (harmless below the limit).
fn too_deep(text: &str) -> Option<usize> {
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

fn parse_yaml(text: &str, first_line: usize, path: &Path) -> Result<FmValue, Diagnostic> {
    if text.trim().is_empty() {
        return Ok(FmValue::Null);
    }
    let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| {
        let (line, col) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        let msg = e.to_string();
        // serde_yaml appends " at line X column Y"; we print our own position.
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
        // serde_yaml places a duplicate key at its mapping: point at the second occurrence.
        let (line, col) = duplicate_key_line(text, &msg).map_or((line, col), |l| (l, 1));
        Diagnostic::error(path, first_line + line.saturating_sub(1), col.max(1), format!("invalid YAML front-matter: {msg}"))
            .with_hint("check indentation and quoting; strings containing `: ` or starting with `'`, `[` or `{` need double quotes")
    })?;
    from_yaml(value, path, first_line)
}

/// The 1-based line of the second top-level `key:` named in serde_yaml's "duplicate entry
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

fn from_yaml(v: serde_yaml::Value, path: &Path, first_line: usize) -> Result<FmValue, Diagnostic> {
    use serde_yaml::Value as Y;
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

fn parse_toml(text: &str, first_line: usize, path: &Path) -> Result<FmValue, Diagnostic> {
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

struct Validator<'a> {
    path: &'a Path,
    loc: &'a Locator,
    diags: Vec<Diagnostic>,
}

impl Validator<'_> {
    fn err(
        &mut self,
        (line, col): (usize, usize),
        msg: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(self.path, line, col, msg).with_hint(hint));
    }

    fn front_matter(&mut self, map: &[(String, FmValue)], kinds: &[String]) -> EntryFrontMatter {
        let mut fm = EntryFrontMatter::default();
        let mut seen = std::collections::HashSet::new();
        for (key, value) in map {
            if !seen.insert(key.as_str()) {
                self.err(
                    self.loc.key(key),
                    format!("`{key}` is given twice"),
                    "keep one",
                );
                continue;
            }
            match key.as_str() {
                "id" => {
                    if let Some(s) = self.string(key, value) {
                        if crate::config::is_slug(&s) {
                            fm.id = Some(s);
                        } else {
                            self.err(self.loc.key(key), format!("id `{s}` is not a valid id"), "use lowercase letters, digits and hyphens, e.g. `kafka-commit-offsets`");
                        }
                    }
                }
                "title" => fm.title = self.string(key, value).unwrap_or_default(),
                "connector" => {
                    if let Some(s) = self.string(key, value) {
                        if crate::config::is_slug(&s) {
                            fm.connector = s;
                        } else {
                            self.err(
                                self.loc.key(key),
                                format!("connector `{s}` is not a slug"),
                                "use the connector's slug, e.g. `kafka` or `rds-mysql`",
                            );
                        }
                    }
                }
                "kind" => {
                    if let Some(s) = self.string(key, value) {
                        if kinds.contains(&s) {
                            fm.kind = s;
                        } else {
                            let hint = match did_you_mean(&s, kinds.iter().map(String::as_str)) {
                                Some(k) => {
                                    format!("did you mean `{k}`? kinds: {}", kinds.join(", "))
                                }
                                None => format!("use one of: {}", kinds.join(", ")),
                            };
                            self.err(self.loc.value(key, &s), format!("unknown kind `{s}`"), hint);
                        }
                    }
                }
                "errors" => fm.errors = self.errors(value),
                "tags" => fm.tags = self.string_list(key, value, true),
                "related" => fm.related = self.string_list(key, value, true),
                "aliases" => fm.aliases = self.string_list(key, value, false),
                "updated" => fm.updated = self.date(key, value),
                "versions" => fm.versions = self.versions(value),
                _ => {
                    let hint = match did_you_mean(key, KEYS) {
                        Some(k) => format!("did you mean `{k}`?"),
                        None => format!("known keys: {}", KEYS.join(", ")),
                    };
                    self.err(
                        self.loc.key(key),
                        format!("unknown front-matter key `{key}`"),
                        hint,
                    );
                }
            }
        }
        for required in ["title", "connector", "kind"] {
            if !seen.contains(required) {
                self.err(
                    (self.loc.first_line.saturating_sub(1).max(1), 1),
                    format!("missing required field `{required}`"),
                    format!("add `{required}: …` to the front-matter"),
                );
            } else if required == "title"
                && fm.title.trim().is_empty()
                && self.diags.iter().all(|d| !d.message.contains("`title`"))
            {
                self.err(
                    self.loc.key("title"),
                    "`title` is empty",
                    "give the entry a title",
                );
            }
        }
        fm
    }

    /// `errors`: each item a string, or a mapping with `text` and an optional `source` URL.
    fn errors(&mut self, v: &FmValue) -> Vec<ErrorString> {
        let FmValue::List(items) = v else {
            if matches!(v, FmValue::Null) {
                return Vec::new();
            }
            self.err(
                self.loc.key("errors"),
                format!("`errors` must be a list, found {}", v.type_name()),
                "write `errors: [\"…\"]` or one `- item` per line",
            );
            return Vec::new();
        };
        // Keys of earlier mapping items, counted per name: the locator finds the n-th one.
        let mut keys_before = std::collections::HashMap::new();
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let (error, text_at) = match item {
                FmValue::Str(s) | FmValue::Number(s) => (
                    Some(ErrorString::plain(s.clone())),
                    self.loc.item("errors", i),
                ),
                FmValue::Map(fields) => self.error_mapping(i, fields, &mut keys_before),
                other => {
                    self.err(
                        self.loc.item("errors", i),
                        format!(
                            "item {} of `errors` must be a string or a mapping, found {}",
                            i + 1,
                            other.type_name()
                        ),
                        "quote it, or write `{text: \"…\", source: \"https://…\"}`",
                    );
                    continue;
                }
            };
            let Some(error) = error else { continue };
            if error.text.trim().is_empty() {
                self.err(
                    text_at,
                    "an error string is empty",
                    "remove it or paste the error text",
                );
            }
            out.push(error);
        }
        out
    }

    /// Errors item `i` written as a mapping: the error (when it has a usable `text`) and
    /// the position of its `text`.
    fn error_mapping<'k>(
        &mut self,
        i: usize,
        fields: &'k [(String, FmValue)],
        keys_before: &mut std::collections::HashMap<&'k str, usize>,
    ) -> (Option<ErrorString>, (usize, usize)) {
        let loc = self.loc;
        let at = |k: &str, n: usize| {
            loc.nested_key("errors", k, n)
                .unwrap_or_else(|| loc.item_key("errors", i, k))
        };
        // The item itself: its `-` line in a block list, else its first key.
        let item_at = match (loc.item_start("errors", i), fields.first()) {
            (Some(p), _) => p,
            (None, Some((k, _))) => at(k, keys_before.get(k.as_str()).copied().unwrap_or(0)),
            (None, None) => loc.item("errors", i),
        };
        let (mut text, mut text_at, mut source) = (None, item_at, None);
        for (k, val) in fields {
            let n = keys_before.entry(k.as_str()).or_insert(0);
            let pos = at(k, *n);
            *n += 1;
            match (k.as_str(), val) {
                ("text", FmValue::Str(s) | FmValue::Number(s)) => {
                    text = Some(s.clone());
                    text_at = pos;
                }
                ("source", FmValue::Str(s)) if is_http_url(s) => source = Some(s.clone()),
                ("source", FmValue::Str(s)) => self.err(
                    pos,
                    format!("`source` in errors item {} is not an http(s) URL: `{s}`", i + 1),
                    "give the address of the public page or source file that documents this error, starting with `https://`",
                ),
                ("text" | "source", other) => self.err(
                    pos,
                    format!(
                        "`{k}` in errors item {} must be a string, found {}",
                        i + 1,
                        other.type_name()
                    ),
                    "quote the value",
                ),
                _ => {
                    let hint = match did_you_mean(k, ERROR_KEYS) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!("known keys: {}", ERROR_KEYS.join(", ")),
                    };
                    self.err(
                        pos,
                        format!("unknown key `{k}` in errors item {}", i + 1),
                        hint,
                    );
                }
            }
        }
        if !fields.iter().any(|(k, _)| k == "text") {
            self.err(
                item_at,
                format!("errors item {} has no `text`", i + 1),
                "add `text: \"…\"` with the error message as the system prints it",
            );
        }
        (text.map(|text| ErrorString { text, source }), text_at)
    }

    fn string(&mut self, key: &str, v: &FmValue) -> Option<String> {
        match v {
            FmValue::Str(s) => Some(s.clone()),
            other => {
                self.err(
                    self.loc.key(key),
                    format!("`{key}` must be a string, found {}", other.type_name()),
                    "quote the value",
                );
                None
            }
        }
    }

    fn string_list(&mut self, key: &str, v: &FmValue, slugs: bool) -> Vec<String> {
        let FmValue::List(items) = v else {
            if matches!(v, FmValue::Null) {
                return Vec::new();
            }
            self.err(
                self.loc.key(key),
                format!("`{key}` must be a list, found {}", v.type_name()),
                format!("write `{key}: [\"…\"]` or one `- item` per line"),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item {
                FmValue::Str(s) if slugs && !crate::config::is_slug(s) => {
                    self.err(
                        self.loc.value(key, s),
                        format!("`{s}` in `{key}` is not a valid id/slug"),
                        "use lowercase letters, digits and hyphens",
                    );
                }
                FmValue::Str(s) => out.push(s.clone()),
                FmValue::Number(n) if !slugs => out.push(n.clone()),
                other => self.err(
                    self.loc.item(key, i),
                    format!(
                        "item {} of `{key}` must be a string, found {}",
                        i + 1,
                        other.type_name()
                    ),
                    "quote it",
                ),
            }
        }
        out
    }

    fn date(&mut self, key: &str, v: &FmValue) -> Option<String> {
        let s = match v {
            FmValue::Str(s) | FmValue::Date(s) => s.clone(),
            other => {
                self.err(
                    self.loc.key(key),
                    format!("`{key}` must be a date, found {}", other.type_name()),
                    "write it as YYYY-MM-DD",
                );
                return None;
            }
        };
        let date = s.get(..10).unwrap_or(&s);
        if is_valid_date(date)
            && (s.len() == 10 || matches!(s.as_bytes().get(10), Some(b'T' | b' ')))
        {
            Some(date.to_string())
        } else {
            self.err(
                self.loc.value(key, &s),
                format!("`{s}` is not a valid date"),
                "write it as YYYY-MM-DD, e.g. 2026-11-29",
            );
            None
        }
    }

    fn versions(&mut self, v: &FmValue) -> Vec<VersionEntry> {
        let FmValue::List(items) = v else {
            self.err(
                self.loc.key("versions"),
                format!("`versions` must be a list, found {}", v.type_name()),
                "write one `- product: …` item per product and range",
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let FmValue::Map(fields) = item else {
                self.err(self.loc.item("versions", i), format!("versions item {} must be a mapping", i + 1), "write `- product: vvr` then `affected: \">=8.0.5, <8.0.9\"` and/or `fixed: \"8.0.9\"`");
                continue;
            };
            let mut entry = VersionEntry {
                product: String::new(),
                affected: None,
                fixed: None,
                note: None,
            };
            for (k, val) in fields {
                let at = self.loc.item_key("versions", i, k);
                let text = match val {
                    FmValue::Str(s) | FmValue::Number(s) | FmValue::Date(s) => s.clone(),
                    other => {
                        self.err(
                            at,
                            format!(
                                "`{k}` in versions item {} must be a string, found {}",
                                i + 1,
                                other.type_name()
                            ),
                            "quote the value",
                        );
                        continue;
                    }
                };
                match k.as_str() {
                    "product" if crate::config::is_slug(&text) => entry.product = text,
                    "product" => self.err(
                        at,
                        format!("product `{text}` is not a slug"),
                        "use a lowercase product slug such as `vvr` or `flink`",
                    ),
                    "affected" => match VersionRange::parse(&text) {
                        Ok(r) => entry.affected = Some((text, r)),
                        Err(e) => self.err(
                            at,
                            format!("invalid version range: {e}"),
                            "e.g. `>=8.0.5, <8.0.9`, `8.0.7`, `4.x`",
                        ),
                    },
                    "fixed" => match Version::parse(&text) {
                        Ok(ver) => entry.fixed = Some((text, ver)),
                        Err(e) => {
                            self.err(at, format!("invalid fixed version: {e}"), "e.g. `8.0.9`")
                        }
                    },
                    "note" => entry.note = Some(text),
                    _ => {
                        let hint = match did_you_mean(k, VERSION_KEYS) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!("known keys: {}", VERSION_KEYS.join(", ")),
                        };
                        self.err(
                            at,
                            format!("unknown key `{k}` in versions item {}", i + 1),
                            hint,
                        );
                    }
                }
            }
            if entry.product.is_empty() && !fields.iter().any(|(k, _)| k == "product") {
                self.err(
                    self.loc.item("versions", i),
                    format!("versions item {} has no `product`", i + 1),
                    "add `product: vvr` (or the product the range refers to)",
                );
            }
            if entry.affected.is_none()
                && entry.fixed.is_none()
                && !fields.iter().any(|(k, _)| k == "affected" || k == "fixed")
            {
                self.err(
                    self.loc.item("versions", i),
                    format!("versions item {} has neither `affected` nor `fixed`", i + 1),
                    "add `affected: \">=8.0.5, <8.0.9\"` and/or `fixed: \"8.0.9\"`",
                );
            }
            out.push(entry);
        }
        out
    }
}

/// Whether `s` is an absolute http or https URL with a host and no characters a URL
/// cannot hold (spaces, quotes, angle brackets).
pub fn is_http_url(s: &str) -> bool {
    let scheme_end = s.find("://").unwrap_or(0);
    let rest = match s.get(..scheme_end) {
        Some(scheme)
            if scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("http") =>
        {
            s.get(scheme_end + 3..).unwrap_or_default()
        }
        _ => return false,
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        && !s
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "\"<>\\`".contains(c))
}

/// Whether `s` is a real calendar date written `YYYY-MM-DD`.
pub fn is_valid_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(|x| x.parse::<u32>().ok());
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds() -> Vec<String> {
        crate::config::DEFAULT_KINDS
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn run(text: &str) -> (Option<EntryFrontMatter>, Vec<Diagnostic>) {
        let p = Path::new("a.md");
        match split(text, p) {
            Ok(doc) => {
                let (fm, _, d) = parse(&doc, p, &kinds());
                (fm, d)
            }
            Err(d) => (None, vec![d]),
        }
    }

    #[test]
    fn parses_yaml_front_matter() {
        let (fm, d) = run(
            "---\ntitle: \"T\"\nconnector: kafka\nkind: error\nerrors:\n  - \"E: x\"\nversions:\n  - product: vvr\n    affected: \">=8.0.5, <8.0.9\"\n    fixed: \"8.0.9\"\ntags: [a, b]\nupdated: 2026-11-29\n---\nbody\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let fm = fm.unwrap();
        assert_eq!(fm.title, "T");
        assert_eq!(fm.errors, vec![ErrorString::plain("E: x")]);
        assert_eq!(fm.versions[0].fixed.as_ref().unwrap().0, "8.0.9");
        assert_eq!(fm.tags, vec!["a", "b"]);
        assert_eq!(fm.updated.as_deref(), Some("2026-11-29"));
    }

    #[test]
    fn parses_toml_front_matter() {
        let (fm, d) = run(
            "+++\ntitle = \"T\"\nconnector = \"kafka\"\nkind = \"howto\"\nupdated = 2026-01-02\n[[versions]]\nproduct = \"flink\"\nfixed = \"1.16\"\n+++\nbody\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let fm = fm.unwrap();
        assert_eq!(fm.kind, "howto");
        assert_eq!(fm.updated.as_deref(), Some("2026-01-02"));
        assert_eq!(fm.versions[0].product, "flink");
    }

    #[test]
    fn reports_every_problem_with_positions() {
        let text = "---\ntitle: T\nconector: kafka\nkind: eror\nupdated: 2026-02-30\nversions:\n  - product: vvr\n    affected: \">=9, <8\"\n---\nbody\n";
        let (_, d) = run(text);
        let msgs: Vec<String> = d
            .iter()
            .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
            .collect();
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("3:1 unknown front-matter key `conector`")),
            "{msgs:?}"
        );
        assert!(
            d.iter()
                .any(|d| d.hint.as_deref() == Some("did you mean `connector`?"))
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("4:7 unknown kind `eror`")),
            "{msgs:?}"
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("5:10 `2026-02-30` is not a valid date")),
            "{msgs:?}"
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("8:5 invalid version range")),
            "{msgs:?}"
        );
        assert!(
            msgs.iter()
                .any(|m| m.contains("missing required field `connector`")),
            "{msgs:?}"
        );
    }

    #[test]
    fn yaml_syntax_error_has_file_line() {
        let (_, d) = run("---\ntitle: T\nconnector: [kafka\nkind: error\n---\nbody\n");
        assert_eq!(d.len(), 1);
        assert!(d[0].message.starts_with("invalid YAML"), "{}", d[0].message);
        assert!(d[0].line >= 3, "{:?}", d[0]);
    }

    #[test]
    fn wrong_types_are_reported() {
        let (_, d) =
            run("---\ntitle: [a]\nconnector: kafka\nkind: error\nerrors: \"single\"\n---\nbody\n");
        assert!(
            d.iter()
                .any(|d| d.message == "`title` must be a string, found a list" && d.line == 2)
        );
        assert!(
            d.iter()
                .any(|d| d.message == "`errors` must be a list, found a string" && d.line == 5)
        );
    }

    #[test]
    fn missing_or_unclosed_front_matter() {
        let (_, d) = run("# no front matter\n");
        assert!(d[0].message.contains("does not start with front-matter"));
        let (_, d) = run("---\ntitle: T\n");
        assert!(d[0].message.contains("never closed"));
        let (_, d) = run("\n \n");
        assert!(d[0].message.contains("empty"));
    }

    #[test]
    fn error_items_with_sources_in_every_style() {
        let url = "https://github.com/apache/kafka/blob/trunk/A.java";
        let want = |fm: EntryFrontMatter| {
            assert_eq!(
                fm.errors,
                vec![
                    ErrorString::plain("plain: one"),
                    ErrorString {
                        text: "Broker may not be available.".into(),
                        source: Some(url.into()),
                    },
                ]
            );
        };
        for text in [
            format!(
                "---\ntitle: T\nconnector: kafka\nkind: error\nerrors:\n  - \"plain: one\"\n  - text: \"Broker may not be available.\"\n    source: \"{url}\"\n---\nbody\n"
            ),
            format!(
                "---\ntitle: T\nconnector: kafka\nkind: error\nerrors: [\"plain: one\", {{text: Broker may not be available., source: \"{url}\"}}]\n---\nbody\n"
            ),
            format!(
                "+++\ntitle = \"T\"\nconnector = \"kafka\"\nkind = \"error\"\nerrors = [\n  \"plain: one\",\n  {{ text = \"Broker may not be available.\", source = \"{url}\" }},\n]\n+++\nbody\n"
            ),
        ] {
            let (fm, d) = run(&text);
            assert!(d.is_empty(), "{d:?}");
            want(fm.unwrap());
        }
    }

    #[test]
    fn error_item_problems_are_located_in_every_style() {
        let msgs = |text: &str| -> Vec<String> {
            let (_, d) = run(text);
            d.iter()
                .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
                .collect()
        };
        // The text of the first item holds `source:` and `sorce:`: quoted, so not keys.
        let yaml = "---\ntitle: T\nconnector: kafka\nkind: error\nerrors:\n  - text: \"bad source: sorce: x\"\n    sorce: \"https://a.example\"\n  - source: \"ftp://a.example/x\"\n  - {text: \"\", source: \"https://a.example\"}\n  - [nested]\n---\nbody\n";
        assert_eq!(
            msgs(yaml),
            [
                "7:5 unknown key `sorce` in errors item 1",
                "8:5 `source` in errors item 2 is not an http(s) URL: `ftp://a.example/x`",
                "8:3 errors item 2 has no `text`",
                "9:6 an error string is empty",
                "10:3 item 4 of `errors` must be a string or a mapping, found a list",
            ]
        );
        let toml = "+++\ntitle = \"T\"\nconnector = \"kafka\"\nkind = \"error\"\nerrors = [\n  \"source = x\",\n  { text = \"a\", sorce = \"https://a.example\" },\n  { source = \"a.example\" },\n]\n+++\nbody\n";
        assert_eq!(
            msgs(toml),
            [
                "7:17 unknown key `sorce` in errors item 2",
                "8:5 `source` in errors item 3 is not an http(s) URL: `a.example`",
                "8:5 errors item 3 has no `text`",
            ]
        );
    }

    #[test]
    fn http_urls() {
        assert!(is_http_url("https://dev.mysql.com/doc/a.html#b"));
        assert!(is_http_url("HTTP://localhost:8080"));
        for bad in [
            "dev.mysql.com/doc",
            "javascript:alert(1)",
            "https://",
            "https:///x",
            "https://a b",
            "https://a/\"><script>",
            "ftp://a",
        ] {
            assert!(!is_http_url(bad), "{bad}");
        }
    }

    #[test]
    fn dates() {
        assert!(is_valid_date("2024-02-29"));
        assert!(!is_valid_date("2023-02-29"));
        assert!(!is_valid_date("2023-13-01"));
        assert!(!is_valid_date("2023-1-01"));
    }
}
