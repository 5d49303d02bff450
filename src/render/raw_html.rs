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

/// What the sanitizer will take out of raw HTML `html`: each element or attribute it does
/// not keep, as (offset in `html`, what). Asked of ammonia itself, one tag or attribute at a
/// time, so the answer is its policy (cached per name).
pub(crate) fn removed_by_sanitizer(html: &str) -> Vec<(usize, String)> {
    static TAG: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    static ATTR: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    static KEPT: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, bool>>> =
        std::sync::OnceLock::new();
    let (Some(tag_re), Some(attr_re)) = (
        TAG.get_or_init(|| {
            regex::Regex::new(r#"<([A-Za-z][A-Za-z0-9-]*)((?:[^>'"]|'[^']*'|"[^"]*")*)>"#).ok()
        }),
        ATTR.get_or_init(|| regex::Regex::new(r#"\s([A-Za-z_:][-A-Za-z0-9_:.]*)"#).ok()),
    ) else {
        return Vec::new();
    };
    let kept = KEPT.get_or_init(Default::default);
    let keeps = |probe: String, mark: &str| -> bool {
        let ask = || sanitizer().clean(&probe).to_string().contains(mark);
        match kept.lock() {
            Ok(mut cache) => *cache.entry(probe.clone()).or_insert_with(ask),
            // A poisoned cache (a panic elsewhere) only costs asking again.
            Err(_) => ask(),
        }
    };
    let mut out = Vec::new();
    for cap in tag_re.captures_iter(html) {
        let (Some(whole), Some(name)) = (cap.get(0), cap.get(1)) else {
            continue;
        };
        let tag = name.as_str().to_ascii_lowercase();
        // Probed where HTML allows it: a parser drops a `<td>` outside a table whatever the
        // sanitizer's policy.
        let (open, close) = match tag.as_str() {
            "td" | "th" => ("<table><tbody><tr>", "</tr></tbody></table>"),
            "tr" => ("<table><tbody>", "</tbody></table>"),
            "thead" | "tbody" | "tfoot" | "caption" | "colgroup" => ("<table>", "</table>"),
            "col" => ("<table><colgroup>", "</colgroup></table>"),
            "li" => ("<ul>", "</ul>"),
            "dt" | "dd" => ("<dl>", "</dl>"),
            "summary" => ("<details>", "</details>"),
            _ => ("", ""),
        };
        if !keeps(format!("{open}<{tag}>x</{tag}>{close}"), &format!("<{tag}")) {
            out.push((whole.start(), format!("element `<{tag}>`")));
            continue;
        }
        let attrs = cap.get(2).map_or("", |m| m.as_str());
        // Another generator's template code (`href="{{< ref "x" >}}"`, reported on its own)
        // nests quotes no attribute can be read from.
        if attrs.contains("{{") || attrs.contains("{%") {
            continue;
        }
        // Attribute names, outside quoted values.
        let unquoted: String = {
            let mut q: Option<char> = None;
            attrs
                .chars()
                .map(|c| match q {
                    Some(open) if c == open => {
                        q = None;
                        ' '
                    }
                    Some(_) => ' ',
                    None if c == '"' || c == '\'' => {
                        q = Some(c);
                        ' '
                    }
                    None => c,
                })
                .collect()
        };
        for a in attr_re.captures_iter(&unquoted).filter_map(|c| c.get(1)) {
            let attr = a.as_str().to_ascii_lowercase();
            // Links and images are checked and rewritten on their own.
            if matches!(attr.as_str(), "href" | "src") {
                continue;
            }
            if !keeps(
                format!("{open}<{tag} {attr}=\"v\">x</{tag}>{close}"),
                &format!(" {attr}="),
            ) {
                out.push((whole.start(), format!("attribute `{attr}` of `<{tag}>`")));
            }
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_cleaning_removes_is_named_and_what_it_keeps_is_not() {
        let html = r#"<iframe src="https://x.example/e"></iframe>
<span style="color:red" class="x" title="a>b" onclick="go()">red</span>
<table><thead><tr><th style="text-align:left">h</th></tr></thead><tbody><tr><td>x</td></tr></tbody></table>
<details><summary>More</summary><kbd>Ctrl</kbd></details><ul><li>a</li></ul>"#;
        let said: Vec<String> = removed_by_sanitizer(html)
            .into_iter()
            .map(|(_, what)| what)
            .collect();
        assert_eq!(
            said,
            [
                "element `<iframe>`",
                "attribute `style` of `<span>`",
                "attribute `onclick` of `<span>`"
            ]
        );
        // The offset is that of the element's `<`.
        assert_eq!(removed_by_sanitizer(html)[0].0, 0);
    }
}
