//! Front-matter: splitting it from the body, parsing YAML (`---`) or TOML (`+++`), and
//! checking every field, with each problem located at its line and column.
//!
//! Parsing goes through a format-neutral [`FmValue`] so both syntaxes share one validator
//! that reports *all* problems of a file, not only the first one serde would stop at.
//!
//! One module per step: `split` (delimiters and body) → `value` (YAML or TOML text to
//! [`FmValue`]) → `validate` (fields to [`EntryFrontMatter`]), with `locate` ([`Locator`])
//! placing each diagnostic at its key or value.

mod locate;
mod split;
mod validate;
mod value;

pub use locate::Locator;
pub use split::{SplitDocument, Syntax, split};
pub use validate::{is_http_url, is_valid_date};
pub use value::FmValue;
pub(crate) use value::yaml_error;

use crate::diagnostic::{Diagnostic, line_col};
use kbook_search::version::{Version, VersionRange};
use std::path::Path;
use validate::Validator;
use value::{MAX_DEPTH, parse_toml, parse_yaml, too_deep};

/// Every key an entry's front-matter may have.
pub const KEYS: [&str; 12] = [
    "id",
    "title",
    "connector",
    "kind",
    "errors",
    "versions",
    "tags",
    "symptoms",
    "related",
    "updated",
    "aliases",
    "language",
];

/// Every key of one `versions` item.
pub const VERSION_KEYS: [&str; 4] = ["product", "affected", "fixed", "note"];

/// Every key of one `errors` item written as a mapping.
pub const ERROR_KEYS: [&str; 3] = ["text", "source", "generic"];

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

/// One `errors` item: a plain string, or a mapping `{text, source, generic}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ErrorString {
    /// The error text as the system prints it (the only part that is searched).
    pub text: String,
    /// An http(s) URL of the public page or source file that documents the text.
    pub source: Option<String>,
    /// The text is printed for many causes by a system shared by every connector (the JVM,
    /// the operating system, Flink's runtime) and the entry answers it for its own connector
    /// only: a query that repeats it is a confident match only when it also names the
    /// entry's connector.
    pub generic: bool,
}

impl ErrorString {
    /// A plain error string, without a source.
    pub fn plain(text: impl Into<String>) -> Self {
        ErrorString {
            text: text.into(),
            source: None,
            generic: false,
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
    /// What a reader sees or asks when they have this problem, in their own words and in any
    /// language (`rows are written twice`, `作业重启后数据重复`). Searched and listed on the page.
    pub symptoms: Vec<String>,
    /// Related entry ids.
    pub related: Vec<String>,
    /// Last update, `YYYY-MM-DD`.
    pub updated: Option<String>,
    /// Old paths (relative to the site root) that redirect here.
    pub aliases: Vec<String>,
    /// The language of the entry's text when it is not the book's (a BCP 47 tag): its title
    /// and body carry it as `lang`, the page chrome stays in the book's language.
    pub language: Option<String>,
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

    /// An entry in another language than the book's says which; a tag that is none is an
    /// error at its value.
    #[test]
    fn an_entrys_language_is_a_language_tag() {
        let (fm, d) =
            run("---\ntitle: T\nconnector: kafka\nkind: error\nlanguage: zh-CN\n---\nbody\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(fm.unwrap().language.as_deref(), Some("zh-CN"));
        let (_, d) =
            run("---\ntitle: T\nconnector: kafka\nkind: error\nlanguage: chinese\n---\nbody\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].message
                .contains("`chinese` is not a BCP 47 language tag")
        );
        assert_eq!((d[0].line, d[0].column), (5, 11));
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
    fn an_empty_key_is_reported_not_searched_for() {
        // `""` is a valid key in YAML and TOML; locating it must end (it is at every offset).
        let yaml = "---\ntitle: t\nconnector: kafka\nkind: error\nerrors:\n  - \"\": x\nversions:\n  - \"\": \"1\"\n---\nbody\n";
        let toml = "+++\ntitle = \"t\"\nconnector = \"kafka\"\nkind = \"error\"\nerrors = [{ \"\" = \"x\" }]\n[[versions]]\n\"\" = \"1\"\n+++\nbody\n";
        for text in [yaml, toml] {
            let (_, d) = run(text);
            let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
            assert!(
                msgs.iter()
                    .any(|m| m.contains("unknown key ``") && m.contains("errors item 1")),
                "{msgs:?}"
            );
            assert!(
                msgs.iter()
                    .any(|m| m.contains("``") && m.contains("versions")),
                "{msgs:?}"
            );
        }
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
    fn tags_are_words_of_any_script_and_ids_stay_slugs() {
        let text = "---\ntitle: T\nconnector: kafka\nkind: error\ntags: [网络, sql-validation, 连接超时]\nrelated: [网络]\n---\nbody\n";
        let (fm, d) = run(text);
        let msgs: Vec<String> = d
            .iter()
            .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
            .collect();
        assert_eq!(msgs, ["6:11 `网络` in `related` is not a valid id/slug"]);
        assert_eq!(
            fm.map(|f| f.tags).unwrap_or_default(),
            ["网络", "sql-validation", "连接超时"]
        );
        let (_, d) = run(
            "---\ntitle: T\nconnector: kafka\nkind: error\ntags: [Network, two words]\n---\nbody\n",
        );
        let msgs: Vec<String> = d.iter().map(|d| d.message.clone()).collect();
        assert_eq!(
            msgs,
            [
                "`Network` in `tags` is not one word",
                "`two words` in `tags` is not one word"
            ]
        );
    }

    #[test]
    fn a_fixed_version_inside_its_affected_range_is_an_error() {
        let text = "---\ntitle: T\nconnector: kafka\nkind: error\nversions:\n  - {product: vvr, affected: \">=1.0, <3.0\", fixed: \"2.0\"}\n  - {product: vvr, affected: \">=1.0, <2.0\", fixed: \"2.0\"}\n---\nbody\n";
        let (_, d) = run(text);
        let said: Vec<String> = d
            .iter()
            .map(|d| format!("{}: {}", d.line, d.message))
            .collect();
        assert_eq!(
            said,
            ["6: the fixed version 2.0 is inside the affected range `>=1.0, <3.0`"]
        );
    }

    #[test]
    fn a_title_with_a_control_character_is_refused() {
        let (_, d) =
            run("---\ntitle: \"Red \\e[31mtitle\"\nconnector: kafka\nkind: error\n---\nbody\n");
        let said: Vec<String> = d
            .iter()
            .map(|d| format!("{}: {}", d.line, d.message))
            .collect();
        assert_eq!(said, ["2: `title` holds a control character (U+001B)"]);
    }

    #[test]
    fn list_items_listed_twice_or_empty_are_reported() {
        let text = "---\ntitle: T\nconnector: kafka\nkind: error\nrelated: [a, b, a]\nsymptoms: [\"\", \"rows vanish\"]\n---\nbody\n";
        let (fm, d) = run(text);
        let said: Vec<(bool, String)> = d
            .iter()
            .map(|d| (d.is_error(), d.message.clone()))
            .collect();
        assert_eq!(
            said,
            [
                (false, "`a` is listed twice in `related`".to_string()),
                (true, "item 1 of `symptoms` is empty".to_string()),
            ]
        );
        let fm = fm.unwrap_or_default();
        assert_eq!(fm.related, ["a", "b"]);
        assert_eq!(fm.symptoms, ["rows vanish"]);
    }

    #[test]
    fn trailing_spaces_after_the_opening_delimiter_keep_lines() {
        for open in ["---   ", "---\t"] {
            let text = format!("{open}\ntitle: T\nconector: kafka\nkind: error\n---\nbody\n");
            let doc = split(&text, Path::new("a.md")).unwrap();
            assert!(doc.front.starts_with("title: T\n"), "{:?}", doc.front);
            let (_, d) = run(&text);
            assert!(
                d.iter()
                    .any(|d| (d.line, d.column) == (3, 1) && d.message.contains("`conector`")),
                "{d:?}"
            );
        }
    }

    #[test]
    fn yaml_syntax_error_has_file_line() {
        let (_, d) = run("---\ntitle: T\nconnector: [kafka\nkind: error\n---\nbody\n");
        assert_eq!(d.len(), 1);
        assert!(d[0].message.starts_with("invalid YAML"), "{}", d[0].message);
        assert!(d[0].line >= 3, "{:?}", d[0]);
        // A tab in the indentation is named as such.
        let (_, d) = run("---\ntitle: T\nerrors:\n\t- \"x\"\n---\nbody\n");
        assert_eq!(d.len(), 1);
        assert!(
            d[0].hint.as_deref().is_some_and(|h| h.contains("tabs")),
            "{:?}",
            d[0]
        );
    }

    /// The YAML parser's messages and positions, as diagnostics show them.
    #[test]
    fn yaml_errors_keep_their_messages_and_positions() {
        let lol = (1..9).fold(
            "a0: &a0 [x, x, x, x, x, x, x, x, x]\n".to_string(),
            |s, i| {
                let refs = vec![format!("*a{}", i - 1); 9].join(", ");
                format!("{s}a{i}: &a{i} [{refs}]\n")
            },
        );
        let deep = format!("{}x", "- ".repeat(200));
        let fronts = [
            "title: T\nconnector: [kafka\nkind: error\n".to_string(),
            "title: \"T\nconnector: kafka\n".to_string(),
            "title: T\n  kind: x\n".to_string(),
            "title: a\nkind: b\ntitle: b\n".to_string(),
            "title: T\n\tkind: x\n".to_string(),
            "title: *nowhere\n".to_string(),
            format!("title: T\n{lol}"),
            format!("tags:\n  {deep}\n"),
            "title: T\nconnector: kafka\nkind：error\ntags: [a]\n".to_string(),
            "title：\"T\"\nkind: error\n".to_string(),
            "title: T\nversions:\n  - product：vvr\n    fixed: \"1\"\n".to_string(),
        ];
        let got: Vec<String> = fronts
            .iter()
            .flat_map(|f| run(&format!("---\n{f}---\nbody\n")).1)
            .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
            .collect();
        assert_eq!(
            got,
            [
                "3:12 invalid YAML front-matter: did not find expected ',' or ']' while parsing a flow sequence that starts here",
                "2:8 invalid YAML front-matter: found unexpected end of stream while scanning a quoted scalar that starts here",
                "3:7 invalid YAML front-matter: mapping values are not allowed in this context",
                "4:1 invalid YAML front-matter: duplicate entry with key \"title\"",
                "3:1 invalid YAML front-matter: found a tab character that violates indentation",
                "2:8 invalid YAML front-matter: unknown anchor",
                "2:1 invalid YAML front-matter: repetition limit exceeded",
                "3:257 invalid YAML front-matter: recursion limit exceeded",
                "4:5 invalid YAML front-matter: `kind` is followed by a full-width colon `：`, which YAML does not read as `:`",
                "2:6 invalid YAML front-matter: `title` is followed by a full-width colon `：`, which YAML does not read as `:`",
                "4:12 invalid YAML front-matter: `product` is followed by a full-width colon `：`, which YAML does not read as `:`",
            ]
        );
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
                        generic: false,
                    },
                    ErrorString {
                        text: "Java heap space".into(),
                        source: None,
                        generic: true,
                    },
                ]
            );
        };
        for text in [
            format!(
                "---\ntitle: T\nconnector: kafka\nkind: error\nerrors:\n  - \"plain: one\"\n  - text: \"Broker may not be available.\"\n    source: \"{url}\"\n  - text: \"Java heap space\"\n    generic: true\n---\nbody\n"
            ),
            format!(
                "---\ntitle: T\nconnector: kafka\nkind: error\nerrors: [\"plain: one\", {{text: Broker may not be available., source: \"{url}\"}}, {{text: Java heap space, generic: true}}]\n---\nbody\n"
            ),
            format!(
                "+++\ntitle = \"T\"\nconnector = \"kafka\"\nkind = \"error\"\nerrors = [\n  \"plain: one\",\n  {{ text = \"Broker may not be available.\", source = \"{url}\" }},\n  {{ text = \"Java heap space\", generic = true }},\n]\n+++\nbody\n"
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
        let yaml = "---\ntitle: T\nconnector: kafka\nkind: error\nerrors:\n  - text: \"bad source: sorce: x\"\n    sorce: \"https://a.example\"\n  - source: \"ftp://a.example/x\"\n  - {text: \"\", source: \"https://a.example\"}\n  - [nested]\n  - text: \"Java heap space\"\n    generic: \"yes\"\n---\nbody\n";
        assert_eq!(
            msgs(yaml),
            [
                "7:5 unknown key `sorce` in errors item 1",
                "8:5 `source` in errors item 2 is not an http(s) URL: `ftp://a.example/x`",
                "8:3 errors item 2 has no `text`",
                "9:6 an error string is empty",
                "10:3 item 4 of `errors` must be a string or a mapping, found a list",
                "12:5 `generic` in errors item 5 must be true or false, found a string",
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
