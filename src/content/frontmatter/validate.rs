//! Checking every field of the front-matter: types, slugs, kinds, dates, URLs, version
//! statements, unknown keys with a did-you-mean.

use super::{
    ERROR_KEYS, EntryFrontMatter, ErrorString, FmValue, KEYS, Locator, VERSION_KEYS, VersionEntry,
};
use crate::diagnostic::{Diagnostic, did_you_mean};
use kbook_search::version::{Version, VersionRange};
use std::path::Path;

/// Checks every field of a front-matter mapping, collecting all problems.
pub(super) struct Validator<'a> {
    pub(super) path: &'a Path,
    pub(super) loc: &'a Locator,
    pub(super) diags: Vec<Diagnostic>,
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

    pub(super) fn front_matter(
        &mut self,
        map: &[(String, FmValue)],
        kinds: &[String],
    ) -> EntryFrontMatter {
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
                "title" => {
                    fm.title = self.string(key, value).unwrap_or_default();
                    // A terminal would act on an escape sequence in a title (`kbook search`).
                    if let Some(c) = fm.title.chars().find(|c| c.is_control()) {
                        self.err(
                            self.loc.key(key),
                            format!("`title` holds a control character (U+{:04X})", u32::from(c)),
                            "remove it: a title is one line of plain text",
                        );
                    }
                }
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
                        // None known: book.toml's `[kbook]` could not be read.
                        if kinds.is_empty() || kinds.contains(&s) {
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
                "tags" => fm.tags = self.string_list(key, value, Words::Tags),
                "symptoms" => fm.symptoms = self.string_list(key, value, Words::Any),
                "related" => fm.related = self.string_list(key, value, Words::Slugs),
                "aliases" => fm.aliases = self.string_list(key, value, Words::Any),
                "updated" => fm.updated = self.date(key, value),
                "language" => {
                    if let Some(s) = self.string(key, value) {
                        if crate::config::is_language_tag(&s) {
                            fm.language = Some(s);
                        } else {
                            self.err(
                                self.loc.value(key, &s),
                                format!("`{s}` is not a BCP 47 language tag"),
                                crate::config::language_hint(&s),
                            );
                        }
                    }
                }
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

    /// `errors`: each item a string, or a mapping with `text`, an optional `source` URL and
    /// an optional `generic` flag.
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
        let (mut text, mut text_at, mut source, mut generic) = (None, item_at, None, false);
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
                ("generic", FmValue::Bool(b)) => generic = *b,
                ("generic", other) => self.err(
                    pos,
                    format!(
                        "`generic` in errors item {} must be true or false, found {}",
                        i + 1,
                        other.type_name()
                    ),
                    "write `generic: true` for a message the JVM, the OS or Flink's runtime prints for many causes",
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
        (
            text.map(|text| ErrorString {
                text,
                source,
                generic,
            }),
            text_at,
        )
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

    fn string_list(&mut self, key: &str, v: &FmValue, words: Words) -> Vec<String> {
        let slugs = words != Words::Any;
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
                FmValue::Str(s) if words == Words::Slugs && !crate::config::is_slug(s) => {
                    self.err(
                        self.loc.value(key, s),
                        format!("`{s}` in `{key}` is not a valid id/slug"),
                        "use lowercase letters, digits and hyphens",
                    );
                }
                FmValue::Str(s) if words == Words::Tags && !crate::config::is_tag(s) => {
                    self.err(
                        self.loc.value(key, s),
                        format!("`{s}` in `{key}` is not one word"),
                        "a tag is lowercase letters (any script), digits and hyphens: `sql-validation`, `网络`",
                    );
                }
                FmValue::Str(s) if s.trim().is_empty() => {
                    self.err(
                        self.loc.item(key, i),
                        format!("item {} of `{key}` is empty", i + 1),
                        "remove it or write its text",
                    );
                }
                // Listed twice: one link, one line, one tag is meant.
                FmValue::Str(s) if out.contains(s) => {
                    let (line, col) = self.loc.item(key, i);
                    self.diags.push(
                        Diagnostic::warning(
                            self.path,
                            line,
                            col,
                            format!("`{s}` is listed twice in `{key}`"),
                        )
                        .with_hint("remove the second one"),
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
            let mut fixed_at = None;
            for (k, val) in fields {
                let at = self.loc.item_key("versions", i, k);
                // YAML and TOML read an unquoted `3.10` as the number 3.1: a version whose
                // written digits the number lost would silently name another release.
                if let FmValue::Number(n) = val
                    && let Some(written) = self
                        .loc
                        .literal_after(at)
                        .filter(|w| w != n)
                        .map(str::to_string)
                {
                    let (as_written, quoted) = (
                        self.loc.assignment(k, &written),
                        self.loc.assignment(k, &format!("\"{written}\"")),
                    );
                    self.err(
                        at,
                        format!(
                            "`{as_written}` is read as the number {n}, not as the version {written}"
                        ),
                        format!("quote versions: `{quoted}`"),
                    );
                    continue;
                }
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
                        Ok(ver) => {
                            fixed_at = Some(at);
                            entry.fixed = Some((text, ver));
                        }
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
            // A release cannot be both affected and the fix.
            if let (Some((range_text, range)), Some((fixed_text, fixed)), Some(at)) =
                (&entry.affected, &entry.fixed, fixed_at)
                && range.contains(fixed)
            {
                self.err(
                    at,
                    format!(
                        "the fixed version {fixed_text} is inside the affected range `{range_text}`"
                    ),
                    format!("end the range before the fix, e.g. `<{fixed_text}`"),
                );
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

/// What the items of a list of strings must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Words {
    /// Any text.
    Any,
    /// Ids: lowercase ASCII letters, digits and hyphens.
    Slugs,
    /// Tags: one word of any script (see [`crate::config::is_tag`]).
    Tags,
}
