//! Links between entries: a body's `.md` links rewritten to relative page URLs and checked
//! against the book's entries and their heading ids; links that run script are refused.

use crate::urls::{join, relative_url};
use std::collections::{HashMap, HashSet};

/// What the renderer needs to know about every entry to resolve links.
#[derive(Debug, Default)]
pub struct LinkTargets {
    /// Content-relative source path (`kafka/x.md`) → id.
    pub by_path: HashMap<String, String>,
    /// Id → (output url, heading ids).
    pub by_id: HashMap<String, (String, HashSet<String>)>,
    /// The site's static files (theme and book), relative to `static/` (`images/a.png`).
    pub static_files: HashSet<String>,
    /// Every HTML page the site writes (`kafka/x.html`, `kafka/index.html`, alias pages…);
    /// empty when not known, and then `.html` links are not checked.
    pub pages: HashSet<String>,
    /// Ids of entry files that could not be read (see [`crate::content::Book::unread`]).
    pub unread: HashSet<String>,
}

/// The warning (message, hint) for a link or image (`what`) on page `page_url` that points
/// into `static/` at a file the book does not have (see [`missing_static_file`]).
pub(super) fn missing_static_warning(
    what: &str,
    dest: &str,
    page_url: &str,
    static_files: &HashSet<String>,
) -> Option<(String, &'static str)> {
    let d = dest.trim();
    if what == "image" && d.starts_with('/') && !d.starts_with("//") {
        return Some((
            format!("{what} `{dest}`: a path from the host's root"),
            "it breaks in the offline bundle and when the site is served below a path: use a relative path, e.g. `../static/images/…`",
        ));
    }
    if what == "image"
        && let Some(rel) = unpublished_file(dest, page_url)
    {
        return Some((
            format!(
                "{what} `{dest}`: the site publishes files from static/ only, and {rel} is not there"
            ),
            "put the image under the book's static/ (static/images/…) and link it from there, e.g. `../static/images/…`",
        ));
    }
    let missing = missing_static_file(dest, page_url, static_files)?;
    Some((
        format!("{what} `{dest}`: the book has no {missing}"),
        "put the file into the book's static/ directory or fix the path",
    ))
}

/// The site path a relative `dest` on page `page_url` names, when it is outside `static/`
/// (where kbook copies no file: an image kept beside its entry is not published).
fn unpublished_file(dest: &str, page_url: &str) -> Option<String> {
    let rel = site_path(dest, page_url)?;
    (!rel.starts_with("static/") && !rel.is_empty()).then_some(rel)
}

/// The site path a relative link or image source `dest` on page `page_url` names (`None` for
/// URLs, absolute paths, `data:` and same-page anchors, which are not the book's files).
fn site_path(dest: &str, page_url: &str) -> Option<String> {
    let dest = dest.trim();
    if dest.is_empty() || dest.contains(':') || dest.starts_with(['/', '#']) {
        return None;
    }
    let path = dest
        .split(['?', '#'])
        .next()
        .unwrap_or(dest)
        .replace("%20", " ");
    join(page_url, &path)
}

/// The warning (message, hint) for a link the site cannot serve, which is not an entry's
/// `.md` (see [`resolve_link`]): a download or page in `static/`, or a page of the site,
/// must exist like an image.
pub(super) fn unserved_link_warning(
    dest: &str,
    page_url: &str,
    targets: &LinkTargets,
) -> Option<(String, &'static str)> {
    missing_static_warning("link", dest, page_url, &targets.static_files)
        .or_else(|| missing_page_warning(dest, page_url, targets))
}

/// The warning (message, hint) for a link to a page the site does not write: a relative
/// `.html` link, or one without an extension (`../kafka/`, `x`), outside `static/` (which
/// [`missing_static_warning`] checks); or a path from the host's root (`/kafka/x.html`),
/// which the offline bundle and a site served below a path cannot follow.
fn missing_page_warning(
    dest: &str,
    page_url: &str,
    targets: &LinkTargets,
) -> Option<(String, &'static str)> {
    let d = dest.trim();
    if d.starts_with('/') && !d.starts_with("//") {
        return Some((
            format!("link `{dest}`: a path from the host's root"),
            "it breaks in the offline bundle and when the site is served below a path: link to the entry's `.md` file or use a relative path",
        ));
    }
    if targets.pages.is_empty() || d.is_empty() || d.contains(':') || d.starts_with(['/', '#']) {
        return None;
    }
    let path = d.split(['?', '#']).next().unwrap_or(d).replace("%20", " ");
    let last = path.rsplit('/').next().unwrap_or(&path);
    // `x.html`, a folder (`kafka/`, `..`) or a name without an extension; other files
    // (`a.pdf`, `b.txt`) may come from anywhere.
    let folder = last.is_empty() || last == "." || last == "..";
    if !(path.ends_with(".html") || folder || !last.contains('.')) {
        return None;
    }
    // A path above the site's root is another site's page on the same host.
    let rel = join(page_url, &path)?;
    let index = if rel.is_empty() {
        "index.html".to_string()
    } else {
        format!("{rel}/index.html")
    };
    if rel.starts_with("static/")
        || targets.pages.contains(&rel)
        || (!path.ends_with(".html") && targets.pages.contains(&index))
    {
        return None;
    }
    let missing = if path.ends_with(".html") { rel } else { index };
    Some((
        format!("link `{dest}`: the site has no page {missing}"),
        "link to the entry's `.md` file (kbook writes its page), or fix the path",
    ))
}

/// The file below the site's `static/` that a link or image source on page `page_url` points
/// at, when it points into `static/` and the book has no such file (a relative path only:
/// URLs, absolute paths and `data:` are not checked).
fn missing_static_file(
    dest: &str,
    page_url: &str,
    static_files: &HashSet<String>,
) -> Option<String> {
    let rel = site_path(dest, page_url)?;
    let file = rel.strip_prefix("static/")?;
    (!static_files.contains(file)).then(|| rel.clone())
}

/// Whether a link runs script or embeds a document (`javascript:`, `vbscript:`, `data:`),
/// read the way browsers read it: ASCII tab and newline removed, leading controls and spaces
/// skipped, any case.
pub(crate) fn is_unsafe_scheme(dest: &str) -> bool {
    let lower: String = dest
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .take(16)
        .collect::<String>()
        .to_ascii_lowercase();
    ["javascript:", "vbscript:", "data:"]
        .iter()
        .any(|s| lower.starts_with(s))
}

/// Rewrites an internal link; `Ok(None)` leaves it unchanged (external or non-entry link).
pub(super) fn resolve_link(
    dest: &str,
    rel_path: &str,
    page_url: &str,
    targets: &LinkTargets,
    own_ids: &HashSet<String>,
) -> Result<Option<String>, (String, String)> {
    let lower = dest.trim().to_ascii_lowercase();
    if is_unsafe_scheme(dest) {
        return Err((
            format!("unsafe link `{dest}`"),
            "link to a page or an http(s) URL".to_string(),
        ));
    }
    if let Some(anchor) = dest.strip_prefix('#') {
        if !anchor.is_empty() && !has_anchor(own_ids, anchor) {
            return Err((
                format!("link to a missing anchor `#{anchor}` on this page"),
                headings_hint("here", "this page", own_ids),
            ));
        }
        return Ok(None);
    }
    if lower.contains("://") || lower.starts_with("mailto:") || dest.starts_with('/') {
        return Ok(None);
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (dest, None),
    };
    // A query string is not part of the file (`other.md?x=1`); `.MD` is checked too, since
    // a host with case-sensitive paths would not find it.
    let path = path.split('?').next().unwrap_or(path);
    if !path.to_ascii_lowercase().ends_with(".md") {
        return Ok(None);
    }
    let joined = join(rel_path, path);
    let stem = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_end_matches(".md");
    let id = joined
        .as_deref()
        .and_then(|p| targets.by_path.get(p))
        .map(String::as_str)
        .or_else(|| targets.by_id.contains_key(stem).then_some(stem));
    let Some(id) = id else {
        // The file is there but could not be read: its own error says why.
        if targets.unread.contains(stem) {
            return Ok(None);
        }
        return Err((
            format!("link to a missing entry `{path}`"),
            "link to an existing entry's file, e.g. `other-id.md` or `../kafka/other-id.md`"
                .to_string(),
        ));
    };
    let Some((url, ids)) = targets.by_id.get(id) else {
        return Err((
            format!("link to a missing entry `{path}`"),
            "check the file name".to_string(),
        ));
    };
    let mut new = relative_url(page_url, url);
    if let Some(a) = anchor {
        if !a.is_empty() && !has_anchor(ids, a) {
            return Err((
                format!("link to a missing anchor `#{a}` in `{path}`"),
                headings_hint("there", "that entry", ids),
            ));
        }
        new.push('#');
        new.push_str(a);
    }
    Ok(Some(new))
}

/// Whether `anchor` names one of `ids`, as written or percent-encoded: a browser copies
/// `#原因` as `#%E5%8E%9F%E5%9B%A0` and finds the heading either way.
fn has_anchor(ids: &HashSet<String>, anchor: &str) -> bool {
    ids.contains(anchor)
        || (anchor.contains('%')
            && percent_encoding::percent_decode_str(anchor)
                .decode_utf8()
                .is_ok_and(|a| ids.contains(a.as_ref())))
}

/// The anchors a link could name: `headings here: #a, #b`, or that the page has none.
fn headings_hint(place: &str, page: &str, ids: &HashSet<String>) -> String {
    if ids.is_empty() {
        return format!("{page} has no headings: link to the page without `#`");
    }
    let mut v: Vec<&str> = ids.iter().map(String::as_str).collect();
    v.sort_unstable();
    let list: Vec<String> = v.iter().map(|s| format!("#{s}")).collect();
    format!("headings {place}: {}", list.join(", "))
}
