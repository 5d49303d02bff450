//! Where things are in the built site, and relative URLs between them.
//!
//! The output paths the build writes at fixed places are named here once: the page renderer
//! writes them and the content check keeps entries and aliases off them (a unit test of the
//! build checks the two agree). All URLs in the output are relative, so the same site works
//! on any host and from `file://`.

/// The home page.
pub const HOME: &str = "index.html";
/// The search page (`search.html?q=` deep-links a search).
pub const SEARCH: &str = "search.html";
/// The error index: every error string of the book, A–Z.
pub const ERROR_INDEX: &str = "errors.html";
/// Entries by tag.
pub const TAGS: &str = "tags.html";
/// The page a host serves for missing paths.
pub const NOT_FOUND: &str = "404.html";
/// The Atom feed of updated entries.
pub const FEED: &str = "atom.xml";
/// The sitemap (written only with `[output.html] site-url`).
pub const SITEMAP: &str = "sitemap.xml";
/// The OpenSearch description (written only with `[output.html] site-url`).
pub const OPENSEARCH: &str = "opensearch.xml";

/// Top-level files the site itself writes (some only with `site-url` set): no entry or alias
/// may write them.
pub const RESERVED_PATHS: [&str; 8] = [
    HOME,
    SEARCH,
    ERROR_INDEX,
    TAGS,
    NOT_FOUND,
    FEED,
    SITEMAP,
    OPENSEARCH,
];

/// Directories the site itself writes (the search index and module, the theme's files): no
/// entry or alias may write inside them.
pub const RESERVED_DIRS: [&str; 2] = ["search", "static"];

/// The page of entry `id` of `connector`.
pub fn entry_page(connector: &str, id: &str) -> String {
    format!("{connector}/{id}.html")
}

/// The listing page of a connector.
pub fn connector_page(slug: &str) -> String {
    format!("{slug}/index.html")
}

/// The redirect page an entry's alias writes: the alias itself when it names an `.html`
/// file, else `<alias>/index.html` (an `#anchor` names a place on that page, see
/// [`alias_anchor`]). `None` when the alias is not a path inside the site.
pub fn alias_page(alias: &str) -> Option<String> {
    let path = alias.split('#').next().unwrap_or(alias);
    // An address copied from a browser or a log is percent-encoded (`my%20page.html`); the
    // page written must have the name a host decodes it to. A query or another site's
    // address names no file.
    if path.contains('?') || path.split('/').next().is_some_and(|s| s.contains(':')) {
        return None;
    }
    let path = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let path = path.trim_start_matches('/');
    if path.is_empty() || path.split('/').any(|s| s == ".." || s == ".") || path.contains('\\') {
        return None;
    }
    Some(if path.ends_with(".html") {
        path.to_string()
    } else {
        format!("{}/index.html", path.trim_end_matches('/'))
    })
}

/// The `#anchor` of an alias (`old/faq/#q2`): links to that place of the old page go to the
/// entry; one redirect page serves every anchor of the page.
pub fn alias_anchor(alias: &str) -> Option<&str> {
    alias
        .split_once('#')
        .map(|(_, a)| a)
        .filter(|a| !a.is_empty())
}

/// Resolves `.` and `..` in a `/`-separated path; `None` when it leaves the root.
pub fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The path that the relative reference `rel` in the file `from` points at (both relative to
/// the same root, `/`-separated); `None` when it leaves the root.
pub fn join(from: &str, rel: &str) -> Option<String> {
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    normalize(&format!("{dir}/{rel}"))
}

/// The relative URL from page `from` to site path `to` (both relative to the site root).
pub fn relative_url(from: &str, to: &str) -> String {
    let from_dirs: Vec<&str> = from.split('/').collect();
    let from_dirs = &from_dirs[..from_dirs.len().saturating_sub(1)];
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dirs
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let common = common.min(to_parts.len().saturating_sub(1));
    let mut s = "../".repeat(from_dirs.len() - common);
    s.push_str(&to_parts[common..].join("/"));
    s
}

/// `../` repeated to reach the site root from `page`.
pub fn path_to_root(page: &str) -> String {
    "../".repeat(page.matches('/').count())
}

/// A URL- and id-safe slug: lowercase letters and digits, other runs become `-`.
pub fn slugify(text: &str) -> String {
    let mut s = String::new();
    let mut dash = false;
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if dash && !s.is_empty() {
                s.push('-');
            }
            dash = false;
            s.push(c);
        } else {
            dash = true;
        }
    }
    if s.is_empty() {
        "section".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_relative_urls() {
        assert_eq!(slugify("Symptom & Cause"), "symptom-cause");
        assert_eq!(slugify("Use `key.fields-prefix`"), "use-key-fields-prefix");
        assert_eq!(slugify("!!!"), "section");
        assert_eq!(
            relative_url("kafka/a.html", "mysql/b.html"),
            "../mysql/b.html"
        );
        assert_eq!(relative_url("kafka/a.html", "kafka/c.html"), "c.html");
        assert_eq!(relative_url("index.html", "kafka/c.html"), "kafka/c.html");
        assert_eq!(relative_url("kafka/a.html", "index.html"), "../index.html");
        assert_eq!(path_to_root("kafka/a.html"), "../");
        assert_eq!(path_to_root("index.html"), "");
    }

    #[test]
    fn paths_join_and_aliases_map_to_pages() {
        assert_eq!(
            join("kafka/a.md", "../mysql/b.md").as_deref(),
            Some("mysql/b.md")
        );
        assert_eq!(join("a.md", "./b.md").as_deref(), Some("b.md"));
        assert_eq!(join("a.md", "../b.md"), None);
        assert_eq!(alias_page("/old/x.html").as_deref(), Some("old/x.html"));
        assert_eq!(
            alias_page("old/dir/").as_deref(),
            Some("old/dir/index.html")
        );
        assert_eq!(
            alias_page("old/faq/#q2").as_deref(),
            Some("old/faq/index.html")
        );
        assert_eq!(alias_anchor("old/faq/#q2"), Some("q2"));
        assert_eq!(alias_anchor("old/faq/"), None);
        assert_eq!(alias_anchor("old/faq/#"), None);
        assert_eq!(
            alias_page("old/my%20page%C3%A9.html").as_deref(),
            Some("old/my pageé.html")
        );
        for bad in [
            "",
            "/",
            "a/../b.html",
            "./a.html",
            "a\\b.html",
            "#only",
            "old/x.html?y=1",
            "https://other.example/x.html",
            "a/%2E%2E/b.html",
            "a%5Cb.html",
            "%FF.html",
        ] {
            assert_eq!(alias_page(bad), None, "{bad}");
        }
    }
}
