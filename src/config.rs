//! `book.toml`: the book's configuration.
//!
//! mdBook's keys where they exist (`[book]`, `[build]`, `[output.html]`), plus a `[kbook]`
//! table for our own settings. Unknown keys are errors that point at the key.

use crate::diagnostic::{Diagnostic, did_you_mean, line_col};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Files larger than this are refused unless `[kbook] max-entry-bytes` says otherwise: an
/// entry is a page, not a data dump.
pub const MAX_ENTRY_BYTES: u64 = 4 * 1024 * 1024;

/// The kinds an entry may have unless `[kbook] kinds` says otherwise.
pub const DEFAULT_KINDS: [&str; 5] = ["error", "troubleshooting", "howto", "concept", "behavior"];

/// The whole `book.toml`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `[book]`
    #[serde(default)]
    pub book: BookSection,
    /// `[build]`
    #[serde(default)]
    pub build: BuildSection,
    /// `[output]`
    #[serde(default)]
    pub output: OutputSection,
    /// `[kbook]`
    #[serde(default)]
    pub kbook: KbookSection,
    /// The directory holding `book.toml` (not read from the file).
    #[serde(skip)]
    pub root: PathBuf,
    /// Read from a `book.toml` with errors ([`Config::salvage`]): the parts that could not be
    /// read are unknown, not their defaults, so the checks that need them are skipped.
    #[serde(skip)]
    pub unread: Unread,
}

/// The parts of a `book.toml` with errors that [`Config::salvage`] could not read: unknown,
/// so the checks that need them are skipped rather than made against the defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unread {
    /// `[book] src`: the content directory may not be the default one.
    pub src: bool,
    /// `[kbook] kinds`: any kind is accepted.
    pub kinds: bool,
    /// `[[kbook.connectors]]`: any connector is accepted.
    pub connectors: bool,
    /// `[kbook] max-entry-bytes`: no size limit is applied.
    pub max_entry_bytes: bool,
}

impl Unread {
    fn all() -> Self {
        Unread {
            src: true,
            kinds: true,
            connectors: true,
            max_entry_bytes: true,
        }
    }
}

/// `[book]`: what the book is.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BookSection {
    /// Site title.
    #[serde(default = "default_title")]
    pub title: String,
    /// Authors, shown in the feed.
    #[serde(default)]
    pub authors: Vec<String>,
    /// One-sentence description for the home page and meta tags.
    #[serde(default)]
    pub description: String,
    /// BCP 47 language tag (`en`, `zh`, `zh-CN`, …): `<html lang>` and the built-in texts of
    /// the page chrome (see [`crate::i18n`]).
    #[serde(default = "default_language")]
    pub language: String,
    /// Content directory relative to the book root.
    #[serde(default = "default_src")]
    pub src: PathBuf,
}

impl Default for BookSection {
    fn default() -> Self {
        BookSection {
            title: default_title(),
            authors: Vec::new(),
            description: String::new(),
            language: default_language(),
            src: default_src(),
        }
    }
}

fn default_title() -> String {
    "Knowledge base".to_string()
}
fn default_language() -> String {
    "en".to_string()
}
fn default_src() -> PathBuf {
    PathBuf::from("content")
}

/// `[build]`: where output goes.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BuildSection {
    /// Output directory relative to the book root.
    #[serde(default = "default_build_dir")]
    pub build_dir: PathBuf,
}

impl Default for BuildSection {
    fn default() -> Self {
        BuildSection {
            build_dir: default_build_dir(),
        }
    }
}

fn default_build_dir() -> PathBuf {
    PathBuf::from("book")
}

/// `[output]`: renderer settings (only HTML exists).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSection {
    /// `[output.html]`
    #[serde(default)]
    pub html: HtmlOutput,
}

/// `[output.html]`
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct HtmlOutput {
    /// Absolute URL the site is published at; enables sitemap.xml and absolute feed links.
    pub site_url: Option<String>,
    /// "Edit this page" link; `{path}` is replaced by the entry's path relative to the book root.
    pub edit_url_template: Option<String>,
    /// Link to the repository in the header.
    pub git_repository_url: Option<String>,
    /// `light`, `dark` or `auto` (follow the system).
    pub default_theme: Option<String>,
    /// Clean raw HTML in Markdown (default true); `false` keeps it as written.
    pub sanitize_html: Option<bool>,
    /// Add a strict Content-Security-Policy meta tag to every page.
    #[serde(default)]
    pub content_security_policy: bool,
}

/// `[kbook]`: kbook's own settings.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct KbookSection {
    /// Known connectors in display order. When the list is non-empty, an entry naming another
    /// connector is an error.
    #[serde(default)]
    pub connectors: Vec<ConnectorConfig>,
    /// Allowed entry kinds (default: error, troubleshooting, howto, concept, behavior).
    #[serde(default)]
    pub kinds: Vec<String>,
    /// Largest entry file accepted, in bytes (default [`MAX_ENTRY_BYTES`]).
    pub max_entry_bytes: Option<u64>,
    /// Texts of the page chrome that replace the built-in ones of the book's language, by key
    /// (spanned, so a bad key is reported at its line).
    #[serde(default)]
    pub strings: std::collections::BTreeMap<toml::Spanned<String>, String>,
}

/// One `[[kbook.connectors]]` item.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectorConfig {
    /// Slug used in front-matter and URLs. Required: missing, it is reported with the other
    /// problems of the file (serde would stop at it).
    #[serde(default)]
    pub slug: String,
    /// Display name. Required, as `slug` is.
    #[serde(default)]
    pub name: String,
    /// Optional one-line description for the connector page.
    #[serde(default)]
    pub description: String,
    /// Other one-word names of the connector's system (e.g. `redis` for Tair): a query that
    /// uses one, even inside a package name, names this connector for the confidence check.
    /// They weigh no query word.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The section's entries apply to every connector (failover, drivers, class loading): a
    /// query naming another connector still gets a confident answer from them, and the slug
    /// (`general`) names no connector in a query.
    #[serde(default, rename = "cross-connector")]
    pub cross_connector: bool,
}

impl Config {
    /// Reads `book.toml` in `root`; a missing file gives the defaults.
    pub fn load(root: &Path) -> Result<Config, Vec<Diagnostic>> {
        let path = root.join("book.toml");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Config {
                    root: root.to_path_buf(),
                    ..Config::default()
                });
            }
            Err(e) => {
                return Err(vec![
                    Diagnostic::error(&path, 0, 0, format!("cannot read book.toml: {e}"))
                        .with_hint("check that the file exists and is readable UTF-8"),
                ]);
            }
        };
        Config::parse(&text, &path).map(|mut c| {
            c.root = root.to_path_buf();
            c
        })
    }

    /// Parses `book.toml` text; `path` is used in diagnostics, which come in file order.
    pub fn parse(text: &str, path: &Path) -> Result<Config, Vec<Diagnostic>> {
        Config::parse_any_order(text, path).map_err(|mut diags| {
            diags.sort_by_key(|d| (d.line, d.column));
            diags
        })
    }

    /// The configuration of a `book.toml` that has errors, to check the entries with, so that
    /// one run reports the entries' problems as well (None when there is no such file). Only
    /// what the entries' checks need is read (the content directory, kinds, connectors and
    /// size limit), each on its own: a value that cannot be read, or that may be the one a
    /// misspelt key was meant to give, is marked [`Unread`] rather than taken at its default.
    /// After a syntax error, the tables that parse alone are read.
    pub fn salvage(root: &Path) -> Option<Config> {
        let text = std::fs::read_to_string(root.join("book.toml")).ok()?;
        let (table, mut unread) = match text.parse::<toml::Table>() {
            Ok(table) => (table, Unread::default()),
            Err(_) => readable_tables(&text),
        };
        let mut config = Config {
            root: root.to_path_buf(),
            ..Config::default()
        };
        let empty = toml::Table::new();
        let book = match table.get("book") {
            None => &empty,
            Some(toml::Value::Table(t)) => t,
            Some(_) => {
                unread.src = true;
                &empty
            }
        };
        let kbook = match table.get("kbook") {
            None => &empty,
            Some(toml::Value::Table(t)) => t,
            Some(_) => {
                unread = Unread {
                    src: unread.src,
                    ..Unread::all()
                };
                &empty
            }
        };
        // A key the section does not know may be a misspelling of one that is absent.
        let strays =
            |t: &toml::Table, known: &[&str]| t.keys().any(|k| !known.contains(&k.as_str()));
        let book_strays = strays(
            book,
            &["title", "authors", "description", "language", "src"],
        );
        match book.get("src") {
            Some(toml::Value::String(src)) => config.book.src = PathBuf::from(src),
            None if !book_strays => {}
            _ => unread.src = true,
        }
        let kbook_strays = strays(
            kbook,
            &["connectors", "kinds", "max-entry-bytes", "strings"],
        );
        match kbook
            .get("kinds")
            .map(|v| v.clone().try_into::<Vec<String>>())
        {
            Some(Ok(kinds)) => config.kbook.kinds = kinds,
            None if !kbook_strays => {}
            _ => unread.kinds = true,
        }
        match kbook
            .get("connectors")
            .map(|v| v.clone().try_into::<Vec<ConnectorConfig>>())
        {
            // Slug and name are required, though serde defaults them (see `ConnectorConfig`).
            Some(Ok(connectors))
                if !unread.connectors
                    && connectors
                        .iter()
                        .all(|c| !c.slug.is_empty() && !c.name.trim().is_empty()) =>
            {
                config.kbook.connectors = connectors
            }
            None if !kbook_strays => {}
            _ => unread.connectors = true,
        }
        match kbook.get("max-entry-bytes") {
            Some(toml::Value::Integer(n)) if *n >= 0 => {
                config.kbook.max_entry_bytes = Some(*n as u64)
            }
            None if !kbook_strays => {}
            _ => unread.max_entry_bytes = true,
        }
        config.unread = unread;
        Some(config)
    }

    /// [`Config::parse`], its problems in the order they are found.
    fn parse_any_order(text: &str, path: &Path) -> Result<Config, Vec<Diagnostic>> {
        // serde stops at the first unknown key: each one is reported and blanked out (same
        // byte positions), and the rest is read again, so one run names every unknown key
        // and then checks the values too.
        let mut diags = Vec::new();
        let mut read = std::borrow::Cow::Borrowed(text);
        let config: Config = loop {
            match toml::from_str(&read) {
                Ok(config) => break config,
                Err(e) => {
                    let unknown = e.message().starts_with("unknown field `");
                    // A value of the wrong type on one `key = value` line is blanked like an
                    // unknown key, so the keys after it are checked in the same run.
                    let one_line_value = e.message().starts_with("invalid type:")
                        && e.span().is_some_and(|s| single_line_value(&read, s.start));
                    // After a blanking, only unknown keys and one-line values are reported:
                    // any other error may come of the blanking (a multi-line value cut in two).
                    if diags.is_empty() || unknown || one_line_value {
                        diags.push(toml_diagnostic(&e, &read, path));
                    }
                    match e
                        .span()
                        .filter(|_| (unknown || one_line_value) && diags.len() < 100)
                    {
                        Some(span) => read = blank_key(&read, span.start).into(),
                        None => return Err(diags),
                    }
                }
            }
        };
        let text: &str = &read;
        // `text` parsed as `Config`, so it parses as `ValueLines` too; the default only
        // loses positions, never a diagnostic.
        let lines = toml::from_str::<ValueLines>(text).unwrap_or_default();
        let line_of = |v: &Option<toml::Spanned<String>>| {
            v.as_ref().map_or(0, |v| line_col(text, v.span().start).0)
        };
        let mut seen = std::collections::HashSet::new();
        for (i, c) in config.kbook.connectors.iter().enumerate() {
            let header = connector_header_line(text, i);
            let line = lines
                .kbook
                .connectors
                .get(i)
                .map_or(0, |l| line_of(&l.slug));
            let line = if line == 0 { header } else { line };
            if c.slug.is_empty() {
                diags.push(
                    Diagnostic::error(path, header, 1, format!("connector {} has no `slug`", i + 1))
                        .with_hint("add `slug = \"…\"`: lowercase letters, digits and hyphens, as entries name it in `connector:`"),
                );
            }
            if c.name.trim().is_empty() {
                diags.push(
                    Diagnostic::error(
                        path,
                        line,
                        1,
                        format!("connector `{}` has no `name`", c.slug),
                    )
                    .with_hint("add `name = \"…\"`: the connector's name on the site"),
                );
            }
            if !c.slug.is_empty() && !is_slug(&c.slug) {
                diags.push(
                    Diagnostic::error(
                        path,
                        line,
                        1,
                        format!("connector slug `{}` is not a slug", c.slug),
                    )
                    .with_hint("use lowercase letters, digits and hyphens, e.g. `rds-mysql`"),
                );
            }
            let alias_line = lines
                .kbook
                .connectors
                .get(i)
                .and_then(|l| l.aliases.as_ref())
                .map_or(line, |a| line_col(text, a.span().start).0);
            for alias in &c.aliases {
                // A slug anywhere, or an alias of an earlier connector (reported once).
                let clash = config
                    .kbook
                    .connectors
                    .iter()
                    .take(i)
                    .find(|o| o.aliases.contains(alias))
                    .or_else(|| config.kbook.connectors.iter().find(|o| o.slug == *alias));
                if alias.is_empty()
                    || !alias
                        .chars()
                        .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit())
                {
                    diags.push(
                        Diagnostic::error(
                            path,
                            alias_line,
                            1,
                            format!(
                                "connector alias `{alias}` of `{}` is not one lowercase word",
                                c.slug
                            ),
                        )
                        .with_hint("use lowercase letters and digits, e.g. `redis`"),
                    );
                } else if let Some(other) = clash {
                    diags.push(
                        Diagnostic::error(
                            path,
                            alias_line,
                            1,
                            format!(
                                "connector alias `{alias}` of `{}` already names connector `{}`",
                                c.slug, other.slug
                            ),
                        )
                        .with_hint("an alias must name one connector only"),
                    );
                }
            }
            if !seen.insert(c.slug.as_str()) {
                diags.push(Diagnostic::error(
                    path,
                    line,
                    1,
                    format!(
                        "connector `{}` is listed twice in [[kbook.connectors]]",
                        c.slug
                    ),
                ));
            }
        }
        if let Some(theme) = &config.output.html.default_theme
            && !["light", "dark", "auto"].contains(&theme.as_str())
        {
            diags.push(
                Diagnostic::error(
                    path,
                    line_of(&lines.output.html.default_theme),
                    1,
                    format!("unknown default-theme `{theme}`"),
                )
                .with_hint("use \"light\", \"dark\" or \"auto\""),
            );
        }
        // The sitemap, the feed and OpenSearch need an absolute URL, and the 404 page takes its
        // path: mdBook's path-only form (`/kb/`) would give neither.
        if let Some(url) = &config.output.html.site_url
            && !is_site_url(url)
        {
            diags.push(
                Diagnostic::error(
                    path,
                    line_of(&lines.output.html.site_url),
                    1,
                    format!("site-url `{url}` is not an absolute http(s) URL"),
                )
                .with_hint(
                    "write the address the site is published at, with its path: \"https://example.org/kb/\" (sitemap.xml, atom.xml and OpenSearch need it whole)",
                ),
            );
        }
        if !is_language_tag(&config.book.language) {
            diags.push(
                Diagnostic::error(
                    path,
                    line_of(&lines.book.language),
                    1,
                    format!("`{}` is not a BCP 47 language tag", config.book.language),
                )
                .with_hint(language_hint(&config.book.language)),
            );
        }
        let kinds = config.kinds();
        for (key, value) in &config.kbook.strings {
            if let Some((message, hint)) = crate::i18n::check_override(key.get_ref(), value, &kinds)
            {
                let (line, column) = line_col(text, key.span().start);
                diags.push(Diagnostic::error(path, line, column, message).with_hint(hint));
            }
        }
        if diags.is_empty() {
            Ok(config)
        } else {
            Err(diags)
        }
    }

    /// The page chrome's texts: the built-in ones of `[book] language` with `[kbook.strings]`.
    pub fn strings(&self) -> crate::i18n::Strings {
        let overrides = self
            .kbook
            .strings
            .iter()
            .map(|(k, v)| (k.get_ref().clone(), v.clone()))
            .collect();
        crate::i18n::Strings::new(&self.book.language, &overrides)
    }

    /// The slugs of the connectors book.toml declares, in its order.
    pub fn connector_slugs(&self) -> Vec<&str> {
        self.kbook
            .connectors
            .iter()
            .map(|c| c.slug.as_str())
            .collect()
    }

    /// The content directory.
    pub fn src_dir(&self) -> PathBuf {
        self.root.join(&self.book.src)
    }

    /// The default output directory.
    pub fn build_dir(&self) -> PathBuf {
        self.root.join(&self.build.build_dir)
    }

    /// Allowed kinds; none when `[kbook] kinds` could not be read, which allows any.
    pub fn kinds(&self) -> Vec<String> {
        if self.unread.kinds {
            Vec::new()
        } else if self.kbook.kinds.is_empty() {
            DEFAULT_KINDS.iter().map(|k| k.to_string()).collect()
        } else {
            self.kbook.kinds.clone()
        }
    }

    /// The largest entry file accepted, in bytes.
    pub fn max_entry_bytes(&self) -> u64 {
        if self.unread.max_entry_bytes {
            return u64::MAX;
        }
        self.kbook.max_entry_bytes.unwrap_or(MAX_ENTRY_BYTES)
    }

    /// Display name of a connector (its slug when not configured).
    pub fn connector_name(&self, slug: &str) -> String {
        self.kbook
            .connectors
            .iter()
            .find(|c| c.slug == slug)
            .map_or_else(|| slug.to_string(), |c| c.name.clone())
    }
}

/// Whether `url` is an absolute `http://` or `https://` URL with a host.
fn is_site_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| {
        matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty())
    })
}

/// Whether `s` looks like a BCP 47 tag: a 2–3 letter language, then subtags of 1–8 letters
/// or digits (`zh`, `zh-CN`, `zh-Hant-TW`, `en-US`); `_` is taken for `-`.
pub fn is_language_tag(s: &str) -> bool {
    let mut parts = s.split('-');
    let lang = parts.next().unwrap_or("");
    matches!(lang.len(), 2 | 3)
        && lang.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// What to write instead of `s`, which is no language tag: with hyphens when it has
/// underscores (`zh_CN`, a locale's spelling), else examples.
pub fn language_hint(s: &str) -> String {
    let hyphens = s.replace('_', "-");
    if hyphens != s && is_language_tag(&hyphens) {
        format!("a language tag has hyphens: \"{hyphens}\"")
    } else {
        "use a tag such as \"en\", \"zh\", \"zh-CN\" or \"ja\"".to_string()
    }
}

/// Whether `s` is a lowercase slug (`a-z`, `0-9`, `-`, not empty).
/// Whether `s` can be a tag: one word of letters (any script, lowercase where letters have
/// case), digits and hyphens (`sql-validation`, `网络`), so it can stand in a page anchor.
pub fn is_tag(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && s.chars()
            .all(|c| (c.is_alphanumeric() && !c.is_uppercase()) || c == '-')
}

pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Where the values [`Config::parse`] checks after deserializing are written, so each
/// problem points at its own `key = value` line (serde skips every other key).
#[derive(Default, Deserialize)]
#[serde(default)]
struct ValueLines {
    book: BookLines,
    output: OutputLines,
    kbook: KbookLines,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct BookLines {
    language: Option<toml::Spanned<String>>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct OutputLines {
    html: HtmlLines,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
struct HtmlLines {
    default_theme: Option<toml::Spanned<String>>,
    site_url: Option<toml::Spanned<String>>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct KbookLines {
    connectors: Vec<ConnectorLines>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct ConnectorLines {
    slug: Option<toml::Spanned<String>>,
    aliases: Option<toml::Spanned<Vec<String>>>,
}

/// The line of the `n`-th `[[kbook.connectors]]` header (1 when the list is written inline).
fn connector_header_line(text: &str, n: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[kbook.connectors]]")
        .nth(n)
        .map_or(1, |(i, _)| i + 1)
}

/// `text` cut before each table header (`[t]`, `[[t]]` at a line's start): the keys before
/// the first, then each table with its keys. Together they are the whole text.
fn tables(text: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > 0 && line.trim_start_matches([' ', '\t']).starts_with('[') {
            cuts.push(at);
        }
        at += line.len();
    }
    cuts.push(text.len());
    cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// What can be read of a `book.toml` with a syntax error: the tables that parse alone (and
/// together, in order), and the parts of the configuration the others may have set.
fn readable_tables(text: &str) -> (toml::Table, Unread) {
    let mut unread = Unread::default();
    let mut kept = String::new();
    for table in tables(text) {
        let mut with = kept.clone();
        with.push_str(table);
        if table.parse::<toml::Table>().is_ok() && with.parse::<toml::Table>().is_ok() {
            kept = with;
            continue;
        }
        let path = header_path(table);
        match path.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["book", ..] => unread.src = true,
            ["kbook"] => {
                unread = Unread {
                    src: unread.src,
                    ..Unread::all()
                }
            }
            ["kbook", "connectors", ..] => unread.connectors = true,
            ["kbook", "strings", ..] | ["build", ..] | ["output", ..] => {}
            // Keys before the first table, or a header that cannot be read: anything.
            _ => unread = Unread::all(),
        }
    }
    (kept.parse().unwrap_or_default(), unread)
}

/// The keys of a table's header (`[ "kbook" . connectors ]` → kbook, connectors); empty for
/// the keys before the first table or a header that cannot be read.
fn header_path(table: &str) -> Vec<String> {
    let line = table.trim_start().lines().next().unwrap_or_default().trim();
    let Some(inner) = line
        .strip_prefix("[[")
        .and_then(|l| l.split_once("]]"))
        .or_else(|| line.strip_prefix('[').and_then(|l| l.split_once(']')))
        .map(|(inner, _)| inner)
    else {
        return Vec::new();
    };
    inner
        .split('.')
        .map(|k| k.trim().trim_matches(['"', '\'']).to_string())
        .collect()
}

/// `text` with the key at byte `at` blanked out: its line, or for a table header the table
/// up to the next header. Bytes become spaces and newlines stay, so every position in the
/// rest is unchanged.
fn blank_key(text: &str, at: usize) -> String {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |i| from + i + 1);
    let mut end = line_end(start);
    if text[start..].trim_start().starts_with('[') {
        while end < text.len() && !text[end..].trim_start_matches([' ', '\t']).starts_with('[') {
            end = line_end(end);
        }
    }
    let blank: String = text[start..end]
        .bytes()
        .map(|b| if b == b'\n' { '\n' } else { ' ' })
        .collect();
    format!("{}{blank}{}", &text[..start], &text[end..])
}

/// Whether the value at byte `at` is on a `key = value` line of its own: brackets and quotes
/// close on that line, so blanking the line removes the whole value.
fn single_line_value(text: &str, at: usize) -> bool {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = &text[start..end];
    let Some((key, value)) = line.split_once('=') else {
        return false;
    };
    let value = value.trim();
    !key.trim().is_empty()
        && !key.contains(['[', '"', '\''])
        && value.matches('[').count() == value.matches(']').count()
        && value.matches('{').count() == value.matches('}').count()
        && !value.starts_with("\"\"\"")
        && !value.starts_with("'''")
}

/// The key of the `key = value` line holding byte `at` (for naming a wrong value's key).
fn key_at(text: &str, at: usize) -> Option<&str> {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text[start..].split_once('=')?;
    let key = key.trim();
    (!key.is_empty() && !key.contains(['\n', '[', '#'])).then_some(key)
}

/// Turns a TOML error into a diagnostic at its span, with a did-you-mean for unknown keys.
pub fn toml_diagnostic(e: &toml::de::Error, text: &str, path: &Path) -> Diagnostic {
    let (line, column) = e.span().map_or((0, 0), |s| line_col(text, s.start));
    let mut message = e.message().trim().to_string();
    // "invalid type: string \"error\", expected a sequence" names no key: say which.
    if message.starts_with("invalid type:")
        && let Some(key) = e.span().and_then(|s| key_at(text, s.start))
    {
        message = format!("`{key}`: {message}");
    }
    let mut d = Diagnostic::error(path, line, column, message.clone());
    if message.contains("invalid type:") {
        let hint = if message.ends_with("expected a sequence") {
            "write a list: `key = [\"…\", \"…\"]`"
        } else if message.contains("expected u") || message.contains("expected i") {
            "write a whole number, without quotes"
        } else if message.ends_with("expected a boolean") {
            "write true or false, without quotes"
        } else if message.contains("expected a string") {
            "quote the value: `key = \"…\"`"
        } else {
            "see the README's book.toml section for this key's form"
        };
        d = d.with_hint(hint);
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or_default();
        let expected: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
        d = match did_you_mean(key, expected.iter().copied()) {
            // mdBook's table of old addresses: kbook keeps them with each entry.
            _ if key == "redirect" => d.with_hint(
                "list each old address in its entry's `aliases:` instead (`kbook import --from mdbook` moves this table there)",
            ),
            Some(s) => d.with_hint(format!("did you mean `{s}`?")),
            None => d.with_hint(format!(
                "remove `{key}`; known keys: {}",
                expected.join(", ")
            )),
        };
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `book.toml` text → what salvage reads of it: (src, kinds, connector slugs, unread).
    fn salvaged(text: &str) -> (PathBuf, Vec<String>, Vec<String>, Unread) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.toml"), text).unwrap();
        assert!(Config::load(dir.path()).is_err(), "{text}");
        let c = Config::salvage(dir.path()).unwrap();
        let slugs = c.connector_slugs().iter().map(|s| s.to_string()).collect();
        (c.book.src.clone(), c.kinds(), slugs, c.unread)
    }

    #[test]
    fn salvage_reads_what_it_can_and_marks_the_rest_unread() {
        let t = "# top\n[book]\nsrc = \"docs\"\n [[kbook.connectors]]\nslug = \"a\"\nname = A\n";
        let parts = tables(t);
        assert_eq!(parts.concat(), t);
        assert_eq!(parts.len(), 3, "{parts:?}");
        let none = Unread::default();
        let kinds = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let default_kinds = kinds(&DEFAULT_KINDS);
        // A syntax error in one connector: the others are not a partial list.
        let (src, k, slugs, unread) = salvaged(t);
        assert_eq!(
            (src, k, slugs),
            (PathBuf::from("docs"), default_kinds.clone(), vec![])
        );
        assert_eq!(
            unread,
            Unread {
                connectors: true,
                ..none
            }
        );
        // Headers however TOML lets them be written.
        let (_, k, _, unread) =
            salvaged("[ \"kbook\" ]\nkinds = [\"runbook\"\n[book]\nsrc = \"docs\"\n");
        assert!(k.is_empty() && unread.kinds && !unread.src, "{unread:?}");
        // A broken `[book]` leaves the content directory unknown; `[kbook]` is read.
        let (_, k, _, unread) = salvaged("[book]\nsrc = docs\n[kbook]\nkinds = [\"x\"]\n");
        assert_eq!((k, unread), (kinds(&["x"]), Unread { src: true, ..none }));
        // Valid TOML with errors of another kind: each value is read on its own.
        let conn = "[[kbook.connectors]]\nslug = \"kafka\"\nname = \"Kafka\"\n";
        for (text, unread_expected) in [
            // a connector without its name
            (
                format!(
                    "[book]\nsrc = \"docs\"\n[kbook]\nkinds = [\"runbook\"]\n{conn}[[kbook.connectors]]\nslug = \"x\"\n"
                ),
                Unread {
                    connectors: true,
                    ..none
                },
            ),
            // mdBook's key with a multi-line value
            (
                format!(
                    "[book]\nsrc = \"docs\"\n[kbook]\nkinds = [\"runbook\"]\n{conn}[output.html]\nadditional-css = [\n  \"a.css\",\n]\n"
                ),
                none,
            ),
            // an invalid site-url
            (
                format!(
                    "[book]\nsrc = \"docs\"\n[kbook]\nkinds = [\"runbook\"]\n{conn}[output.html]\nsite-url = \"kb\"\n"
                ),
                none,
            ),
        ] {
            let (src, k, slugs, unread) = salvaged(&text);
            assert_eq!(src, PathBuf::from("docs"), "{text}");
            assert_eq!(k, kinds(&["runbook"]), "{text}");
            assert_eq!(unread, unread_expected, "{text}");
            assert_eq!(slugs.is_empty(), unread.connectors, "{text}");
        }
        // A misspelt key may be the one an absent value was meant to have: unknown, not default.
        let (_, k, _, unread) = salvaged("[kbook]\nkind = [\"runbook\"]\n");
        assert!(
            k.is_empty() && unread.kinds && unread.connectors,
            "{unread:?}"
        );
        let (_, k, _, unread) = salvaged("[kbook]\nkinds = \"error, runbook\"\n");
        assert!(
            k.is_empty() && unread.kinds && !unread.connectors,
            "{unread:?}"
        );
        let (_, _, _, unread) = salvaged("[book]\nsrc = [\"docs\"]\n");
        assert!(unread.src, "{unread:?}");
        // Keys before any table that do not parse: nothing is known.
        let (_, _, _, unread) = salvaged("book.src = docs\n[kbook]\nkinds = [\"x\"]\n");
        assert_eq!(unread, Unread::all());
        assert_eq!(
            header_path("[[ kbook . \"connectors\" ]]\nslug = 1"),
            ["kbook", "connectors"]
        );
        assert!(header_path("title = 1\n").is_empty());
    }

    #[test]
    fn values_of_the_wrong_type_are_all_named_by_key_with_the_rest() {
        let t = "[book]\ntitle = \"KB\"\n[kbook]\nmax-entry-bytes = \"big\"\nkinds = \"error\"\nother = 1\n";
        let d = Config::parse(t, Path::new("book.toml"))
            .err()
            .unwrap_or_default();
        let said: Vec<String> = d
            .iter()
            .map(|d| format!("{}: {}", d.line, d.message))
            .collect();
        assert_eq!(
            said,
            [
                "4: `max-entry-bytes`: invalid type: string \"big\", expected u64",
                "5: `kinds`: invalid type: string \"error\", expected a sequence",
                "6: unknown field `other`, expected one of `connectors`, `kinds`, `max-entry-bytes`, `strings`",
            ]
        );
        assert_eq!(
            d[1].hint.as_deref(),
            Some("write a list: `key = [\"…\", \"…\"]`")
        );
    }

    #[test]
    fn parses_mdbook_and_kbook_keys() {
        let t = r#"
[book]
title = "KB"
src = "entries"
[build]
build-dir = "out"
[output.html]
site-url = "https://kb.example.org/"
[[kbook.connectors]]
slug = "kafka"
name = "Message Queue for Kafka"
"#;
        let c = Config::parse(t, Path::new("book.toml")).unwrap();
        assert_eq!(c.book.title, "KB");
        assert_eq!(c.build.build_dir, PathBuf::from("out"));
        assert_eq!(c.connector_name("kafka"), "Message Queue for Kafka");
        assert_eq!(c.connector_name("other"), "other");
    }

    #[test]
    fn strings_and_language_are_checked_at_their_lines() {
        let t = "[book]\nlanguage = \"zh-CN\"\n\n[kbook.strings]\nversions = \"Releases\"\nno_confident = \"{n} maybe\"\nverions = \"x\"\n";
        let d = Config::parse(t, Path::new("book.toml")).unwrap_err();
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!((d[0].line, d[0].column), (6, 1));
        assert!(d[0].message.contains("{n}"), "{}", d[0].message);
        assert_eq!((d[1].line, d[1].column), (7, 1));
        assert!(
            d[1].message.contains("unknown string `verions`"),
            "{}",
            d[1].message
        );
        assert_eq!(d[1].hint.as_deref(), Some("did you mean `versions`?"));
        let ok = "[book]\nlanguage = \"zh-TW\"\n[kbook.strings]\nversions = \"Releases\"\nkind_howto = \"How-to\"\n";
        let c = Config::parse(ok, Path::new("book.toml")).unwrap();
        let s = c.strings();
        assert_eq!(s.get("versions"), "Releases");
        assert_eq!(s.get("error_messages"), "错误信息");
        assert_eq!(s.kind("howto"), "How-to");
        for bad in ["chinese", "z", "zh-", "zh CN", "en-toolongsubtag", "zh_CN"] {
            let t = format!("[book]\nlanguage = \"{bad}\"\n");
            let d = Config::parse(&t, Path::new("book.toml")).unwrap_err();
            assert_eq!(d[0].line, 2, "{bad}");
        }
        // A locale's spelling: the tag with hyphens is what to write (pages carry `lang`).
        let d =
            Config::parse("[book]\nlanguage = \"zh_CN\"\n", Path::new("book.toml")).unwrap_err();
        assert_eq!(
            d[0].hint.as_deref(),
            Some("a language tag has hyphens: \"zh-CN\"")
        );
    }

    /// A connector without its name or slug is one more problem, reported with the rest.
    #[test]
    fn a_connector_missing_a_field_hides_no_other_problem() {
        let t = "[book]\nlangauge = \"en\"\n[output.html]\nsite-url = \"kb.example\"\n[[kbook.connectors]]\nslug = \"s3\"\n[[kbook.connectors]]\nname = \"Postgres\"\n";
        let d = Config::parse(t, Path::new("book.toml")).unwrap_err();
        let said: Vec<String> = d
            .iter()
            .map(|d| format!("{}: {}", d.line, d.message))
            .collect();
        assert_eq!(
            said,
            [
                "2: unknown field `langauge`, expected one of `title`, `authors`, `description`, `language`, `src`",
                "4: site-url `kb.example` is not an absolute http(s) URL",
                "6: connector `s3` has no `name`",
                "7: connector 2 has no `slug`",
            ],
            "{d:?}"
        );
    }

    /// mdBook's redirect table is refused with where kbook keeps old addresses.
    #[test]
    fn mdbooks_redirect_table_points_at_aliases() {
        let t = "[output.html.redirect]\n\"/old.html\" = \"new.html\"\n";
        let d = Config::parse(t, Path::new("book.toml")).unwrap_err();
        assert!(
            d[0].hint
                .as_deref()
                .is_some_and(|h| h.contains("`aliases:`")),
            "{d:?}"
        );
    }

    #[test]
    fn slugs_are_letters_digits_and_hyphens() {
        for good in ["kafka", "rds-mysql", "v2"] {
            assert!(is_slug(good), "{good}");
        }
        for bad in ["", "rds_mysql", "Kafka", "a b", "a.b"] {
            assert!(!is_slug(bad), "{bad}");
        }
    }

    /// Asserts the (line, message) of each problem `book.toml` text `t` has.
    fn assert_errors_at(t: &str, expected: &[(usize, &str)]) {
        let d = Config::parse(t, Path::new("book.toml")).unwrap_err();
        let at: Vec<(usize, &str)> = d.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(at, expected);
    }

    #[test]
    fn checked_values_are_reported_at_their_own_lines() {
        // Each value also appears earlier in the file, in another key or a comment.
        let t = "# default-theme, language and Kafka are set below\n[book]\ntitle = \"Kafka language notes\"\nlanguage = \"english\"\n[output.html]\ndefault-theme = \"pink\"\n[[kbook.connectors]]\nslug = \"Kafka\"\nname = \"kafka\"\n[[kbook.connectors]]\nslug = \"kafka\"\nname = \"A\"\n[[kbook.connectors]]\nname = \"B\"\nslug = \"kafka\"\n";
        assert_errors_at(
            t,
            &[
                (4, "`english` is not a BCP 47 language tag"),
                (6, "unknown default-theme `pink`"),
                (8, "connector slug `Kafka` is not a slug"),
                (
                    15,
                    "connector `kafka` is listed twice in [[kbook.connectors]]",
                ),
            ],
        );
    }

    #[test]
    fn site_url_is_an_absolute_http_url() {
        for bad in [
            "/kb/",
            "example.org/kb/",
            "ftp://example.org/kb/",
            "https://",
        ] {
            let t = format!("[book]\ntitle = \"K\"\n[output.html]\nsite-url = \"{bad}\"\n");
            assert_errors_at(
                &t,
                &[(
                    4,
                    &format!("site-url `{bad}` is not an absolute http(s) URL"),
                )],
            );
        }
        for good in ["https://example.org/kb/", "http://127.0.0.1:8000"] {
            let t = format!("[output.html]\nsite-url = \"{good}\"\n");
            assert!(Config::parse(&t, Path::new("book.toml")).is_ok(), "{good}");
        }
    }

    #[test]
    fn connector_aliases_are_one_word_each_and_name_one_connector() {
        let t = "[[kbook.connectors]]\nslug = \"tair\"\nname = \"Tair\"\naliases = [\"redis\", \"Redis OSS\"]\n[[kbook.connectors]]\nslug = \"kafka\"\nname = \"Kafka\"\naliases = [\"tair\", \"redis\"]\n";
        assert_errors_at(
            t,
            &[
                (
                    4,
                    "connector alias `Redis OSS` of `tair` is not one lowercase word",
                ),
                (
                    8,
                    "connector alias `tair` of `kafka` already names connector `tair`",
                ),
                (
                    8,
                    "connector alias `redis` of `kafka` already names connector `tair`",
                ),
            ],
        );
        let ok = "[[kbook.connectors]]\nslug = \"tair\"\nname = \"Tair\"\naliases = [\"redis\"]\n";
        let c = Config::parse(ok, Path::new("book.toml")).unwrap();
        assert_eq!(c.kbook.connectors[0].aliases, ["redis"]);
        assert!(!c.kbook.connectors[0].cross_connector);
    }

    #[test]
    fn a_section_for_every_connector_is_marked_with_a_boolean() {
        let t = "[[kbook.connectors]]\nslug = \"general\"\nname = \"General\"\ncross-connector = true\n";
        let c = Config::parse(t, Path::new("book.toml")).unwrap();
        assert!(c.kbook.connectors[0].cross_connector);
        let bad = "[[kbook.connectors]]\nslug = \"general\"\nname = \"General\"\ncross-connector = \"yes\"\n";
        let d = Config::parse(bad, Path::new("book.toml")).unwrap_err();
        assert_eq!(d[0].line, 4, "{d:?}");
    }

    #[test]
    fn every_unknown_key_and_bad_value_is_reported_in_one_run() {
        let t = "[book]\ntitel = \"y\"\nlanguage = \"english\"\n[outptu.html]\nsite-url = \"x\"\n[output.html]\ndefault-theme = \"pink\"\nsite-urll = \"https://x/\"\n[[kbook.connectors]]\nslug = \"a b\"\nname = \"A\"\nnmae = \"B\"\n";
        let d = Config::parse(t, Path::new("book.toml")).unwrap_err();
        let got: Vec<(usize, String)> = d
            .iter()
            .map(|d| (d.line, d.hint.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            got,
            [
                (2, "did you mean `title`?".to_string()),
                (
                    3,
                    "use a tag such as \"en\", \"zh\", \"zh-CN\" or \"ja\"".to_string()
                ),
                (4, "did you mean `output`?".to_string()),
                (7, "use \"light\", \"dark\" or \"auto\"".to_string()),
                (8, "did you mean `site-url`?".to_string()),
                (
                    10,
                    "use lowercase letters, digits and hyphens, e.g. `rds-mysql`".to_string()
                ),
                (12, "did you mean `name`?".to_string()),
            ]
        );
        // A multi-line value of an unknown key: the key is reported, and what the blanking
        // leaves of its value is not.
        let t = "[book]\ntitel = [\n  \"a\",\n]\ntitle = \"x\"\n";
        let d = Config::parse(t, Path::new("book.toml")).unwrap_err();
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].line, 2);
    }

    #[test]
    fn unknown_key_points_at_it_with_suggestion() {
        let t = "[book]\ntitle = \"x\"\ntitel = \"y\"\n";
        let d = Config::parse(t, Path::new("book.toml")).unwrap_err();
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].line, d[0].column), (3, 1));
        assert!(d[0].message.contains("titel"), "{}", d[0].message);
        assert_eq!(d[0].hint.as_deref(), Some("did you mean `title`?"));
    }
}
