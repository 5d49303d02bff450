//! Raw HTML written in Markdown: how it is cleaned, and its links and images (`<a href>`,
//! `<img src>`) resolved and checked like Markdown's.

use crate::html::escape;
use crate::render::links::{
    LinkTargets, is_unsafe_scheme, missing_static_warning, resolve_link, unserved_link_warning,
};
use std::collections::HashSet;

/// What happens to raw HTML written in Markdown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RawHtml {
    /// Kept, but cleaned with ammonia: no script, event handlers or `javascript:` URLs.
    #[default]
    Sanitize,
    /// Kept as written (`[output.html] sanitize-html = false`): only for trusted authors.
    Allow,
}

/// The sanitizer for pages whose Markdown contains raw HTML: ammonia's safe defaults plus
/// the attributes kbook's own rendering produces.
pub(crate) fn sanitizer() -> &'static ammonia::Builder<'static> {
    static SANITIZER: std::sync::OnceLock<ammonia::Builder<'static>> = std::sync::OnceLock::new();
    SANITIZER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        b.add_tags(["input", "details", "summary", "kbd", "mark"])
            .add_generic_attributes([
                "class",
                "id",
                "role",
                "aria-label",
                "aria-hidden",
                "data-lang",
                "title",
            ])
            .add_tag_attributes("input", ["type", "checked", "disabled"])
            .add_tag_attributes("th", ["style"])
            .add_tag_attributes("td", ["style"])
            .link_rel(None);
        b
    })
}

/// A warning about raw HTML: its offset in the HTML text, message and hint.
type RawProblem = (usize, String, String);

/// `html` with the `href` of each `<a>` and the `src` of each `<img>` passed through `fix`
/// (`image` says which), which gives the new value (or `None` to keep it) and a warning;
/// `None` when nothing changed, and the warnings with their offsets.
pub(crate) fn raw_html_links(
    html: &str,
    mut fix: impl FnMut(&str, bool) -> (Option<String>, Option<(String, String)>),
) -> (Option<String>, Vec<RawProblem>) {
    // Compiled once; `None` only if the pattern did not compile, which the tests would show.
    static ATTR: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let Some(re) = ATTR
        .get_or_init(|| {
            regex::Regex::new(r#"(?i)<(a|img)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')"#)
                .ok()
        })
        .as_ref()
    else {
        return (None, Vec::new());
    };
    let mut problems = Vec::new();
    let mut out = String::new();
    let mut last = 0;
    for c in re.captures_iter(html) {
        let Some(value) = c.get(2).or_else(|| c.get(3)) else {
            continue;
        };
        let image = c[1].eq_ignore_ascii_case("img");
        let (new, problem) = fix(value.as_str(), image);
        if let Some((msg, hint)) = problem {
            problems.push((value.start(), msg, hint));
        }
        if let Some(new) = new {
            out.push_str(&html[last..value.start()]);
            out.push_str(&escape(&new));
            last = value.end();
        }
    }
    if last == 0 {
        return (None, problems);
    }
    out.push_str(&html[last..]);
    (Some(out), problems)
}

/// What [`raw_html_links`] does with one link (`image`: an `<img src>`): an entry's `.md`
/// becomes its page's URL, and a link or image the site cannot serve is warned about (raw
/// HTML is often pasted from elsewhere, so a broken link there does not stop the build, as it
/// does in Markdown). Script URLs are left to the sanitizer (or to a trusted author).
pub(crate) fn raw_link(
    dest: &str,
    image: bool,
    rel_path: &str,
    page_url: &str,
    targets: &LinkTargets,
    own_ids: &HashSet<String>,
) -> (Option<String>, Option<(String, String)>) {
    let warn = |(msg, hint): (String, &str)| Some((msg, hint.to_string()));
    // Another generator's template code (`{{< ref "x" >}}`), which no page build runs.
    if dest.contains("{{") || dest.contains("{%") {
        let what = if image { "image" } else { "link" };
        return (
            None,
            warn((
                format!(
                    "{what} `{}…`: template code, which kbook does not run",
                    dest.trim()
                ),
                "write the target itself: an entry's `.md` file, a path or a URL",
            )),
        );
    }
    if image {
        return (
            None,
            missing_static_warning("image", dest, page_url, &targets.static_files).and_then(warn),
        );
    }
    // A raw HTML page may give ids of its own (`<div id="x">`), so `#x` is not checked.
    if is_unsafe_scheme(dest) || dest.starts_with('#') {
        return (None, None);
    }
    match resolve_link(dest, rel_path, page_url, targets, own_ids) {
        Ok(Some(new)) => (Some(new), None),
        Ok(None) => (
            None,
            unserved_link_warning(dest, page_url, targets).and_then(warn),
        ),
        Err(problem) => (None, Some(problem)),
    }
}
