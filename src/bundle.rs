//! Offline outputs of a built site: a zip of the whole site (`kbook build --bundle kb.zip`)
//! that works from `file://` once unzipped, and one self-contained HTML file
//! (`kbook build --single-file kb.html`) with every entry, the styles and a working search
//! (module and index embedded), for attaching to a ticket or an email.
//!
//! Both are made from the site's files as written, so a book's template and static overrides
//! carry over. The single file is assembled from the `<main id="main">` of each page: each
//! page becomes a section (`#<entry id>` for entries, `#kb-home`, `#kb-search`, …) shown
//! with the CSS `:target` selector, and links and ids are rewritten to stay inside the file.

use crate::html::{escape, unescape};
use crate::output::{OutputFile, write_file_atomically};
use crate::urls;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What can go wrong while bundling.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// Reading the site or writing the output failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The zip writer failed.
    #[error("cannot write the zip: {0}")]
    Zip(#[from] zip::result::ZipError),
    /// The site lacks something the single file needs (a custom template removed it?).
    #[error("the built site has no {0}: cannot make a single file")]
    Missing(String),
    /// Two elements would have one id in the single file, where each page is a section named
    /// by its entry's id and the ids inside it are prefixed (`<entry>--<heading>`): a link to
    /// one would open the other.
    #[error("the single file cannot be made: {0}")]
    IdClash(String),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> BundleError + '_ {
    move |source| BundleError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a built site back: every file under `dir`, paths relative to it with `/`, sorted.
pub fn read_site(dir: &Path) -> Result<Vec<OutputFile>, BundleError> {
    let mut files = Vec::new();
    for item in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
    {
        let item = item.map_err(|e| BundleError::Io {
            path: dir.to_path_buf(),
            source: std::io::Error::other(e),
        })?;
        if !item.file_type().is_file() {
            continue;
        }
        let rel = item.path().strip_prefix(dir).unwrap_or(item.path());
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let bytes = std::fs::read(item.path()).map_err(io_err(item.path()))?;
        files.push((rel, std::sync::Arc::new(bytes)));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(files)
}

/// A zip of `files` under the folder `top` (so unzipping makes one folder). Deterministic:
/// entries sorted, directories listed, every timestamp 1980-01-01, permissions 0644/0755.
pub fn zip_site(files: &[OutputFile], top: &str) -> Result<Vec<u8>, BundleError> {
    use zip::write::SimpleFileOptions;
    let time = zip::DateTime::default();
    let file_opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(time)
        .unix_permissions(0o644);
    let dir_opts = SimpleFileOptions::default()
        .last_modified_time(time)
        .unix_permissions(0o755);
    let mut sorted: Vec<&OutputFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let prefix = if top.is_empty() {
        String::new()
    } else {
        format!("{top}/")
    };
    let mut dirs = BTreeSet::new();
    if !prefix.is_empty() {
        dirs.insert(prefix.clone());
    }
    for (path, _) in &sorted {
        let mut acc = prefix.clone();
        let parts: Vec<&str> = path.split('/').collect();
        for p in &parts[..parts.len().saturating_sub(1)] {
            acc.push_str(p);
            acc.push('/');
            dirs.insert(acc.clone());
        }
    }
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for d in &dirs {
        zip.add_directory(d.as_str(), dir_opts)?;
    }
    for (path, bytes) in sorted {
        zip.start_file(format!("{prefix}{path}"), file_opts)?;
        // The 404 page's base (the host's path, from site-url) means nothing on disk: without
        // it, its links are relative to the site's root, where the page is.
        let offline = (path == "404.html")
            .then(|| std::str::from_utf8(bytes).ok())
            .flatten()
            .map(|html| crate::html::with_base(html, None).into_bytes());
        zip.write_all(offline.as_deref().unwrap_or(bytes))
            .map_err(io_err(Path::new(path)))?;
    }
    Ok(zip.finish()?.into_inner())
}

/// Options of the single-file book.
#[derive(Debug, Clone)]
pub struct SingleFileOptions {
    /// Add a strict Content-Security-Policy (hashes of the inline script and style).
    pub content_security_policy: bool,
    /// The footer's note after the book's title, in the book's language.
    pub edition_note: String,
}

impl Default for SingleFileOptions {
    fn default() -> Self {
        SingleFileOptions {
            content_security_policy: false,
            edition_note: "single-file edition, built with kbook".into(),
        }
    }
}

/// Where a page of the site goes in the single file: its section id, or `None` to leave it out.
fn section_id(path: &str) -> Option<String> {
    match path {
        "index.html" => return Some("kb-home".into()),
        "search.html" => return Some("kb-search".into()),
        "errors.html" => return Some("kb-errors".into()),
        "tags.html" => return Some("kb-tags".into()),
        "404.html" => return None,
        _ => {}
    }
    let stem = path.strip_suffix(".html")?;
    match stem.split('/').collect::<Vec<_>>()[..] {
        [connector, "index"] => Some(format!("kb-c-{connector}")),
        [_, id] => Some(id.to_string()),
        _ => Some(format!(
            "kb-p-{}",
            stem.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
        )),
    }
}

/// The text between `<tag …` (first match of `open`) and the matching `close`; `last` picks the
/// last `close` (for an element that contains no other of its kind).
fn element<'a>(html: &'a str, open: &str, close: &str, last: bool) -> Option<(&'a str, &'a str)> {
    let start = html.find(open)?;
    let tag_end = start + html[start..].find('>')? + 1;
    let end = if last {
        html.rfind(close)?
    } else {
        tag_end + html[tag_end..].find(close)?
    };
    (end >= tag_end).then(|| (&html[start..tag_end], &html[tag_end..end]))
}

/// The value of attribute `name` in one start tag (double-quoted, as kbook writes them).
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')?;
    Some(&tag[i..i + j])
}

/// Rewrites double-quoted attributes of every start tag in `html`. `f(attribute, value)` gets
/// the unescaped value and returns a replacement (escaped again here). Text and comments are
/// copied as they are: kbook's pages escape `<` in text, so a `<` followed by a letter starts
/// a tag. (A hand-written scan rather than an HTML parser crate: the input is our own output.)
fn rewrite_attributes(html: &str, mut f: impl FnMut(&str, &str) -> Option<String>) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let bytes = html.as_bytes();
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            // Inside a start tag: walk attribute by attribute.
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'>' {
                if bytes[j] == b'=' && bytes.get(j + 1) == Some(&b'"') {
                    let name_end = j;
                    let mut name_start = j;
                    while name_start > i && !bytes[name_start - 1].is_ascii_whitespace() {
                        name_start -= 1;
                    }
                    let value_start = j + 2;
                    let Some(len) = html[value_start..].find('"') else {
                        break;
                    };
                    let value_end = value_start + len;
                    let name = &html[name_start..name_end];
                    if let Some(new) = f(name, &unescape(&html[value_start..value_end])) {
                        out.push_str(&html[copied..value_start]);
                        out.push_str(&escape(&new));
                        copied = value_end;
                    }
                    j = value_end + 1;
                } else if bytes[j] == b'\'' || bytes[j] == b'"' {
                    // A quoted value without `=` right before: skip it whole.
                    let q = bytes[j];
                    j += 1;
                    while j < bytes.len() && bytes[j] != q {
                        j += 1;
                    }
                    j += 1;
                } else {
                    j += 1;
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out.push_str(&html[copied..]);
    out
}

/// `rel` (a relative URL in page `page`) as a site path, `None` when it leaves the site or is
/// not relative.
fn resolve(page: &str, rel: &str) -> Option<String> {
    if rel.is_empty()
        || rel.starts_with('/')
        || rel.starts_with('#')
        || rel
            .split(['/', '?', '#'])
            .next()
            .is_some_and(|s| s.contains(':'))
    {
        return None;
    }
    // The site writes a file name with spaces or other scripts percent-encoded.
    let path = urls::join(page, rel)?;
    let path = percent_encoding::percent_decode_str(&path)
        .decode_utf8()
        .ok()?
        .into_owned();
    Some(match (rel.ends_with('/'), path.is_empty()) {
        (false, _) => path,
        (true, true) => "index.html".to_string(),
        (true, false) => format!("{path}/index.html"),
    })
}

/// Everything a page needs to rewrite its links.
struct Rewriter<'a> {
    sections: &'a HashMap<String, String>,
    files: &'a HashMap<&'a str, &'a [u8]>,
}

impl Rewriter<'_> {
    /// `prefix`: the section whose ids get `<section>--` in front (`None`: ids stay). Each id
    /// the page holds then is added to `ids`.
    fn page(&self, page: &str, html: &str, prefix: Option<&str>, ids: &mut Vec<String>) -> String {
        let own = |frag: &str| match prefix {
            Some(p) if frag.is_empty() => format!("#{p}"),
            Some(p) => format!("#{p}--{frag}"),
            None => format!("#{frag}"),
        };
        rewrite_attributes(html, |name, value| match name {
            "id" => {
                let id = prefix.map(|p| format!("{p}--{value}"));
                ids.push(id.clone().unwrap_or_else(|| value.to_string()));
                id
            }
            "for" | "aria-labelledby" | "aria-describedby" | "aria-controls" => prefix.map(|p| {
                value
                    .split_whitespace()
                    .map(|v| format!("{p}--{v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            }),
            "href" | "action" => {
                if let Some(frag) = value.strip_prefix('#') {
                    return Some(own(frag));
                }
                let (path, frag) = value.split_once('#').unwrap_or((value, ""));
                let (path, _query) = path.split_once('?').unwrap_or((path, ""));
                let target = resolve(page, path)?;
                let section = self.sections.get(&target)?;
                Some(if frag.is_empty() || section == "kb-search" {
                    format!("#{section}")
                } else {
                    format!("#{section}--{frag}")
                })
            }
            "src" => {
                let target = resolve(page, value.split(['?', '#']).next().unwrap_or(value))?;
                let bytes = self.files.get(target.as_str())?;
                Some(data_uri(&target, bytes))
            }
            _ => None,
        })
    }
}

/// Where an id of the single file comes from.
enum IdOwner {
    /// The file's own frame (its template, header and sidebar).
    Frame,
    /// The section of the site page given (its entry's id, for an entry's page).
    Section(String),
    /// An element inside that page's section.
    Inside(String),
}

impl IdOwner {
    fn page(&self) -> Option<&str> {
        match self {
            IdOwner::Frame => None,
            IdOwner::Section(p) | IdOwner::Inside(p) => Some(p),
        }
    }

    fn is_section(&self) -> bool {
        matches!(self, IdOwner::Section(_))
    }

    fn describe(&self) -> String {
        match self {
            IdOwner::Frame => "one the single file uses for itself".to_string(),
            IdOwner::Section(p) => format!("the id of the page {p}"),
            IdOwner::Inside(p) => format!("the id of a heading or element of {p}"),
        }
    }
}

/// The error for `id`, held by `first` and wanted by `second`: the entry to rename is the one
/// whose page's id it is, when one is.
fn id_clash(id: &str, first: &IdOwner, second: &IdOwner) -> BundleError {
    // An entry's page is `<connector>/<id>.html`; the site's own pages are not renamed.
    let entry = |o: &IdOwner| match o {
        IdOwner::Section(p) => {
            matches!(p.split('/').collect::<Vec<_>>()[..], [_, f] if f != "index.html")
                .then(|| p.clone())
        }
        _ => None,
    };
    let fix = match entry(second).or_else(|| entry(first)) {
        Some(p) => format!("rename the entry of {p} (its file name, or `id:` in its front-matter)"),
        None => "rename one of the entries whose id starts that id (its file name, or `id:` in its front-matter)".to_string(),
    };
    BundleError::IdClash(format!(
        "`{id}` would be both {} and {}: {fix}",
        first.describe(),
        second.describe()
    ))
}

fn data_uri(path: &str, bytes: &[u8]) -> String {
    use base64::Engine as _;
    let mime = match path
        .rsplit('.')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
        .as_str()
    {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        _ => "application/octet-stream",
    };
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Makes the single-file book from the files of a built site.
pub fn single_file(files: &[OutputFile], opts: &SingleFileOptions) -> Result<Vec<u8>, BundleError> {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD;
    let by_path: HashMap<&str, &[u8]> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let text = |path: &str| -> Result<String, BundleError> {
        by_path
            .get(path)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .ok_or_else(|| BundleError::Missing(path.to_string()))
    };
    let home = text("index.html")?;

    // Pages with a <main id="main">, in a reading order: home, connectors and their entries
    // (as the site sorts them), then the other pages.
    let mut pages: BTreeMap<(u8, String), (String, String)> = BTreeMap::new();
    let mut sections: HashMap<String, String> = HashMap::new();
    for (path, bytes) in files {
        if !path.ends_with(".html") {
            continue;
        }
        let Some(id) = section_id(path) else {
            continue;
        };
        let html = String::from_utf8_lossy(bytes);
        let Some((_, main)) = element(&html, "<main id=\"main\"", "</main>", true) else {
            continue; // redirect pages of aliases
        };
        let order = match id.as_str() {
            "kb-home" => 0,
            "kb-search" => 1,
            "kb-errors" | "kb-tags" => 3,
            _ => 2,
        };
        sections.insert(path.clone(), id.clone());
        pages.insert((order, path.clone()), (id, main.to_string()));
    }
    let rewriter = Rewriter {
        sections: &sections,
        files: &by_path,
    };

    let (html_tag, _) = element(&home, "<html", "</html>", true)
        .ok_or_else(|| BundleError::Missing("<html> in index.html".into()))?;
    let lang = attr(html_tag, "lang").unwrap_or("en");
    let default_theme = attr(html_tag, "data-default-theme").unwrap_or("auto");
    let title = element(&home, "<title", "</title>", false).map_or("", |t| t.1);
    // The ids of the file's own frame: its template's, the header's and the sidebar's.
    let mut frame_ids: Vec<String> = ["main", "kbook-data-wasm", "kbook-data-index"]
        .map(String::from)
        .to_vec();
    let mut framed = |open: &str, inner: &str, close: &str| {
        format!(
            "{}{}{close}",
            rewriter.page("index.html", open, None, &mut frame_ids),
            rewriter.page("index.html", inner, None, &mut frame_ids)
        )
    };
    let header = element(&home, "<header class=\"site-header\"", "</header>", false)
        .map(|(open, inner)| framed(open, inner, "</header>"))
        .unwrap_or_default();
    let sidebar = element(&home, "<nav id=\"sidebar\"", "</nav>", false)
        .map(|(open, inner)| framed(open, inner, "</nav>"))
        .unwrap_or_default();
    // The page scripts' texts in the book's language, as the site's pages carry them.
    let strings_meta = home
        .split("<meta name=\"kbook-strings\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map_or_else(String::new, |c| {
            format!("<meta name=\"kbook-strings\" content=\"{c}\">\n")
        });
    let footer_text = element(&home, "<footer class=\"site-footer\"", "</footer>", false)
        .and_then(|(_, inner)| element(inner, "<p", " · <a", false))
        .map_or_else(|| title.to_string(), |(_, t)| t.to_string());

    // Search assets, from the site's search manifest.
    let manifest = by_path
        .get(crate::search_assets::MANIFEST_JSON_PATH)
        .copied()
        .ok_or_else(|| BundleError::Missing(crate::search_assets::MANIFEST_JSON_PATH.into()))?;
    let meta: serde_json::Value = serde_json::from_slice(manifest).map_err(|e| {
        BundleError::Missing(format!(
            "a readable {} ({e})",
            crate::search_assets::MANIFEST_JSON_PATH
        ))
    })?;
    let asset = |key: &str| -> Result<&[u8], BundleError> {
        meta.get(key)
            .and_then(|v| v.as_str())
            .and_then(|p| by_path.get(p).copied())
            .ok_or_else(|| BundleError::Missing(format!("search {key} file")))
    };
    let wasm = b64.encode(asset("wasm")?);
    let index = b64.encode(asset("index")?);

    let mut css = String::new();
    for p in [
        "static/kbook.css",
        "static/search.css",
        "static/highlight.css",
    ] {
        css.push_str(&text(p)?);
        css.push('\n');
    }
    css.push_str(SINGLE_FILE_CSS);
    let css = css.replace("</style", "<\\/style");
    let theme_js = text("static/theme.js")?.replace("</script", "<\\/script");
    let search_js = text("search/search.js")?.replace("</script", "<\\/script");

    let mut body = String::new();
    // Every id the single file holds and where it comes from: a link to one of two would
    // open the other.
    let mut held: HashMap<String, IdOwner> = frame_ids
        .into_iter()
        .map(|id| (id, IdOwner::Frame))
        .collect();
    for ((_, path), (id, main)) in &pages {
        let prefix = (id != "kb-search").then_some(id.as_str());
        let mut ids = Vec::new();
        let html = rewriter.page(path, main, prefix, &mut ids);
        let owners = std::iter::once((id.clone(), IdOwner::Section(path.clone())))
            .chain(ids.into_iter().map(|i| (i, IdOwner::Inside(path.clone()))));
        for (held_id, owner) in owners {
            match held.get(&held_id) {
                Some(first) if first.page() != owner.page() || owner.is_section() => {
                    return Err(id_clash(&held_id, first, &owner));
                }
                Some(_) => {}
                None => {
                    held.insert(held_id, owner);
                }
            }
        }
        body.push_str(&format!(
            "<section id=\"{}\" class=\"kb-page\">\n{html}\n</section>\n",
            escape(id),
        ));
    }

    let csp = if opts.content_security_policy {
        let hash = |s: &str| {
            let digest = <sha2::Sha256 as sha2::Digest>::digest(s.as_bytes());
            format!("'sha256-{}'", b64.encode(digest))
        };
        format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; script-src {} {} 'wasm-unsafe-eval'; style-src {}\">\n",
            hash(&theme_js),
            hash(&search_js),
            hash(&css)
        )
    } else {
        String::new()
    };
    let edition_note = escape(&opts.edition_note);
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\" data-default-theme=\"{default_theme}\">\n<head>\n<meta charset=\"utf-8\">\n{csp}<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n<meta name=\"kbook-root\" content=\"\">\n<meta name=\"kbook-mode\" content=\"single-file\">\n{strings_meta}<link rel=\"icon\" href=\"data:,\">\n<style>{css}</style>\n<script>{theme_js}</script>\n</head>\n<body class=\"kb-single\">\n{header}\n<div class=\"layout\">\n{sidebar}\n<main id=\"main\" class=\"content\">\n{body}</main>\n</div>\n<footer class=\"site-footer\">\n  <p>{footer_text} · {edition_note}</p>\n</footer>\n<script type=\"text/plain\" id=\"kbook-data-wasm\">{wasm}</script>\n<script type=\"text/plain\" id=\"kbook-data-index\">{index}</script>\n<script>{search_js}</script>\n</body>\n</html>\n"
    );
    Ok(page.into_bytes())
}

/// Styles only the single file needs: one section shown at a time (the targeted one, or home).
const SINGLE_FILE_CSS: &str = "/* Single-file book: one section at a time. */
.kb-page { display: none; }
.kb-page:target, .kb-page:has(:target) { display: block; }
.content:not(:has(.kb-page:target, .kb-page :target)) > #kb-home { display: block; }
.kb-page, .kb-page [id] { scroll-margin-top: 4.5rem; }
";

/// Writes `bytes` to `path` through a temporary sibling and a rename.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), BundleError> {
    write_file_atomically(path, bytes).map_err(io_err(path))
}

/// Writes the zip of the site already built in `site_dir` and/or the single file made with
/// it (see `BuildOptions::single_file`); returns a line per file written (for the command
/// line to print).
pub fn write_outputs(
    site_dir: &Path,
    bundle: Option<&Path>,
    single: Option<(&Path, &[u8])>,
) -> Result<Vec<String>, BundleError> {
    let mut done = Vec::new();
    if let Some(path) = bundle {
        let files = read_site(site_dir)?;
        let top = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "kb".into());
        let zip = zip_site(&files, &top)?;
        write_file(path, &zip)?;
        done.push(format!(
            "bundle {} ({} files, {:.1} MiB): unzip it and open {top}/index.html",
            path.display(),
            files.len(),
            zip.len() as f64 / 1048576.0
        ));
    }
    if let Some((path, html)) = single {
        write_file(path, html)?;
        done.push(format!(
            "single file {} ({:.1} MiB)",
            path.display(),
            html.len() as f64 / 1048576.0
        ));
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_links() {
        assert_eq!(
            resolve("kafka/a.html", "../mysql/b.html").as_deref(),
            Some("mysql/b.html")
        );
        assert_eq!(
            resolve("kafka/a.html", "b.html").as_deref(),
            Some("kafka/b.html")
        );
        assert_eq!(
            resolve("index.html", "kafka/").as_deref(),
            Some("kafka/index.html")
        );
        assert_eq!(resolve("index.html", "../x.html"), None);
        assert_eq!(resolve("index.html", "https://e.org/x.html"), None);
        assert_eq!(resolve("index.html", "mailto:a@b"), None);
        assert_eq!(resolve("index.html", "/abs.html"), None);
        // The file a percent-encoded name names.
        assert_eq!(
            resolve("kafka/a.html", "../static/images/my%20flow%20%C3%A9.png").as_deref(),
            Some("static/images/my flow é.png")
        );
    }

    /// An image whose name has spaces, another script or capitals is embedded with its type.
    #[test]
    fn embeds_images_by_their_encoded_names() {
        let sections = HashMap::new();
        let files: HashMap<&str, &[u8]> = [("static/images/my flow é.PNG", &b"x"[..])].into();
        let r = Rewriter {
            sections: &sections,
            files: &files,
        };
        let out = r.page(
            "kafka/a.html",
            r#"<img src="../static/images/my%20flow%20%C3%A9.PNG">"#,
            Some("a"),
            &mut Vec::new(),
        );
        assert_eq!(out, r#"<img src="data:image/png;base64,eA==">"#);
    }

    #[test]
    fn rewrites_ids_and_links_inside_the_file() {
        let sections: HashMap<String, String> = [
            ("kafka/a.html", "a"),
            ("kafka/index.html", "kb-c-kafka"),
            ("index.html", "kb-home"),
        ]
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect();
        let files = HashMap::new();
        let r = Rewriter {
            sections: &sections,
            files: &files,
        };
        let html = r##"<h2 id="cause">Cause <a class="heading-anchor" href="#cause">#</a></h2><a href="a.html#cause">x</a> <a href="index.html">k</a> <a href="https://e.org/?a=1&amp;b=2">e</a><label for="q">q</label> a < b"##;
        let mut ids = Vec::new();
        let out = r.page("kafka/a.html", html, Some("a"), &mut ids);
        assert_eq!(ids, ["a--cause"]);
        assert!(out.contains(r#"id="a--cause""#), "{out}");
        assert!(out.contains(r##"href="#a--cause">#"##), "{out}");
        assert!(out.contains(r##"href="#a--cause">x"##), "{out}");
        assert!(out.contains(r##"href="#kb-c-kafka""##), "{out}");
        assert!(
            out.contains(r#"href="https://e.org/?a=1&amp;b=2""#),
            "{out}"
        );
        assert!(out.contains(r#"for="a--q""#), "{out}");
        assert!(out.ends_with("a < b"), "{out}");
    }

    #[test]
    fn the_offline_404_page_has_no_base() {
        let page = b"<head><base href=\"/kb/\"><link href=\"static/a.css\"></head>".to_vec();
        let files: Vec<OutputFile> = vec![
            ("404.html".into(), std::sync::Arc::new(page.clone())),
            ("a.html".into(), std::sync::Arc::new(page)),
        ];
        let zip = zip_site(&files, "kb").unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
        let read = |archive: &mut zip::ZipArchive<_>, name: &str| {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut archive.by_name(name).unwrap(), &mut s).unwrap();
            s
        };
        assert_eq!(
            read(&mut archive, "kb/404.html"),
            "<head><link href=\"static/a.css\"></head>"
        );
        // Other pages are copied as they are.
        assert!(read(&mut archive, "kb/a.html").contains("<base href=\"/kb/\">"));
    }

    #[test]
    fn zip_is_deterministic_and_sorted() {
        let files = vec![
            ("b.html".to_string(), std::sync::Arc::new(b"b".to_vec())),
            ("a/x.html".to_string(), std::sync::Arc::new(b"x".to_vec())),
        ];
        let one = zip_site(&files, "kb").unwrap();
        let two = zip_site(&files.iter().rev().cloned().collect::<Vec<_>>(), "kb").unwrap();
        assert_eq!(one, two);
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(one)).unwrap();
        let names: Vec<String> = (0..archive.len())
            .map(|i| archive.by_index(i).unwrap().name().unwrap().to_string())
            .collect();
        assert_eq!(names, ["kb/", "kb/a/", "kb/a/x.html", "kb/b.html"]);
    }

    #[test]
    fn section_ids() {
        assert_eq!(section_id("kafka/x.html").as_deref(), Some("x"));
        assert_eq!(
            section_id("kafka/index.html").as_deref(),
            Some("kb-c-kafka")
        );
        assert_eq!(section_id("404.html"), None);
        assert_eq!(section_id("search.html").as_deref(), Some("kb-search"));
    }
}
