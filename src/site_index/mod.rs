//! `kbook index`: kbook's search for a site another generator built. Reads the site's HTML
//! pages ([`html`]), writes the index, the module, `search.js`, a loader (`kbook.js`), the
//! stylesheet and a search page into one directory of the site, and with `--ui` adds the
//! search box and the loader to every page.

mod html;

use crate::output::SiteWriter;
use crate::search_assets::{AssetError, AssetMode, Entries, build_search_assets};
use kbook_search::EntryDoc;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Why a site cannot be indexed. Each message says what to do; the cause is the source.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// A bad option or a site with nothing to index.
    #[error("{0}")]
    Usage(String),
    /// A file of the site could not be read or written.
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// The site's directory could not be walked.
    #[error("cannot read {path}")]
    Walk {
        path: String,
        #[source]
        source: walkdir::Error,
    },
    /// The search files could not be made.
    #[error(transparent)]
    Assets(#[from] AssetError),
}

type Result<T> = std::result::Result<T, IndexError>;

/// An I/O error with what failed.
fn io(what: String) -> impl FnOnce(std::io::Error) -> IndexError {
    move |source| IndexError::Io { what, source }
}

/// The loader pages include (it finds everything else next to itself).
pub const LOADER: &str = "kbook.js";
const LOADER_JS: &[u8] = include_bytes!("assets/kbook.js");
const SEARCH_PAGE: &str = include_str!("assets/search.html");
const PAGE_CSS: &[u8] = include_bytes!("assets/page.css");
const SEARCH_CSS: &[u8] = include_bytes!("../../static/search.css");
/// kbook's theme, whose colours search.css reads (see [`scoped_palette`]).
const THEME_CSS: &str = include_str!("../../static/kbook.css");
/// The result badges' style, which kbook's theme holds on its own pages.
const BADGES_CSS: &[u8] = include_bytes!("assets/badges.css");
/// Pages read together while the index writer files the previous ones.
const PAGES_PER_BATCH: usize = 64;
/// The element `--ui` adds (and a template author writes) where the search box goes.
pub const SLOT: &str = "<div data-kbook-search></div>";

/// What `kbook index` should do.
#[derive(Debug)]
pub struct IndexOptions {
    /// The built site.
    pub site: PathBuf,
    /// The content element when a page has no `data-kbook-body`.
    pub selector: Option<String>,
    /// Where the search files go, relative to the site.
    pub subdir: String,
    /// Add the search box and the loader to every page.
    pub ui: bool,
    /// The language of the search page and box (a BCP 47 tag); `None`: the `lang` of the
    /// site's `index.html`, else English.
    pub language: Option<String>,
}

/// What `kbook index` did.
#[derive(Debug, Default, Serialize)]
pub struct IndexReport {
    /// HTML pages read.
    pub pages: usize,
    /// Pages in the index.
    pub indexed: usize,
    /// Pages left out, with the reason.
    pub skipped: Vec<(String, String)>,
    /// Pages that are not UTF-8, indexed with U+FFFD for each byte that is not (a site in
    /// another encoding should be converted; their links and search box still work).
    pub not_utf8: Vec<String>,
    /// Error texts found in the pages' log-shaped code.
    pub errors: usize,
    /// Files written under the search directory, and their bytes.
    pub files: usize,
    /// Bytes written under the search directory.
    pub bytes: u64,
    /// Pages the search box was added to (`--ui`).
    pub injected: usize,
    /// Pages without `<body>…</body>`, where `--ui` has nowhere to put the box (HTML lets a
    /// page leave those tags out).
    pub no_body: Vec<String>,
    /// The search directory, relative to the site.
    pub subdir: String,
}

/// Indexes the site and writes the search files (and, with `ui`, edits its pages).
pub fn index_site(opts: &IndexOptions) -> Result<IndexReport> {
    let site = &opts.site;
    if !site.is_dir() {
        let what = if site.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(IndexError::Usage(format!(
            "{} {what}: give the output directory of the site (e.g. Hugo's public/)",
            site.display()
        )));
    }
    let subdir = opts.subdir.trim_end_matches('/').to_string();
    if subdir.is_empty()
        || subdir.starts_with('/')
        || subdir
            .split('/')
            .any(|s| s.is_empty() || s == "." || s == ".." || s.starts_with('.'))
    {
        return Err(IndexError::Usage(format!(
            "--output-subdir `{}` must be a relative path inside the site, e.g. `kbook`",
            opts.subdir
        )));
    }
    let selector = match &opts.selector {
        // The parser's own message asks to report it to its developers, which is no help here.
        Some(s) => Some(scraper::Selector::parse(s).map_err(|_| {
            IndexError::Usage(format!(
                "--selector `{s}` is not a CSS selector: give the element that holds a page's content, e.g. `article` or `main .content`"
            ))
        })?),
        None => None,
    };
    let reader = html::PageReader::new(selector);
    let to_root = "../".repeat(subdir.split('/').count());
    // Stage timings on stderr with KBOOK_TIMINGS set, as for builds.
    let timing = crate::progress::Progress::new(false);
    timing.stage("finding pages");
    let pages = html_pages(site, &subdir)?;
    if pages.is_empty() {
        return Err(IndexError::Usage(format!(
            "no .html pages under {}: give the folder the generator writes the site to (Hugo's public/, MkDocs' site/, Docusaurus' build/, mdBook's book/)",
            site.display()
        )));
    }
    let mut report = IndexReport {
        pages: pages.len(),
        subdir: subdir.clone(),
        ..IndexReport::default()
    };
    timing.stage("reading pages and writing the search index");
    let dest = site.join(&subdir);
    if let Some((why, hint)) =
        crate::output::not_replaceable(&dest, crate::search_assets::MANIFEST_JSON_PATH)
    {
        return Err(IndexError::Usage(format!("--output-subdir: {why}; {hint}")));
    }
    let writer =
        SiteWriter::begin(&dest).map_err(io(format!("cannot write {}", dest.display())))?;
    let mut batches = PageBatches::new(site, &reader, &to_root, &pages);
    let mut kept = kbook_search::KeptSegments::default();
    let built = build_search_assets(
        Entries::Batches(&mut batches),
        AssetMode::Publish,
        &mut kept,
        Some(&writer),
    );
    if let Some(e) = batches.unreadable.take() {
        return Err(e);
    }
    built?;
    report.indexed = batches.ids.len();
    report.errors = batches.errors;
    report.skipped = std::mem::take(&mut batches.skipped);
    report.not_utf8 = std::mem::take(&mut batches.not_utf8);
    if report.indexed == 0 {
        return Err(IndexError::Usage(format!(
            "none of the {} HTML pages under {} has text to index (see --selector and data-kbook-body)",
            pages.len(),
            site.display()
        )));
    }
    let home = format!("{to_root}index.html");
    let language = opts
        .language
        .clone()
        .or_else(|| site_language(site))
        .unwrap_or_else(|| "en".into());
    let strings = crate::i18n::Strings::new(&language, &std::collections::BTreeMap::new());
    let (page, loader) = localized(&strings, &language, &home);
    let search_css = [scoped_palette().as_bytes(), BADGES_CSS, SEARCH_CSS].concat();
    for (path, bytes) in [
        (LOADER, loader.as_bytes()),
        ("search.css", search_css.as_slice()),
        ("page.css", PAGE_CSS),
        ("search.html", page.as_bytes()),
    ] {
        writer
            .write(path, bytes)
            .map_err(io("cannot write the search files".to_string()))?;
    }
    // Every page's new text is written beside it before anything is replaced: a page that
    // cannot be read or written leaves the site as it was.
    let mut edits = if opts.ui {
        timing.stage("adding the search box");
        PageEdits::prepare(site, &pages, &subdir)?
    } else {
        PageEdits::default()
    };
    let written = writer.commit().map_err(io(format!(
        "cannot move the search files into {}",
        dest.display()
    )))?;
    report.files = written.files;
    report.bytes = written.bytes;
    report.no_body = std::mem::take(&mut edits.no_body);
    report.injected = edits.apply()?;
    Ok(report)
}

/// The language the site's home page declares (`<html lang="zh-CN">`), as Pagefind reads it.
fn site_language(site: &Path) -> Option<String> {
    let html = std::fs::read_to_string(site.join("index.html")).ok()?;
    let doc = scraper::Html::parse_document(&html);
    // A locale's spelling (`zh_CN`) is read as the tag it means.
    let lang = doc
        .root_element()
        .value()
        .attr("lang")?
        .trim()
        .replace('_', "-");
    crate::config::is_language_tag(&lang).then_some(lang)
}

/// The search page and the loader in the language of `strings`: the page's own texts, and
/// the texts search.js shows (its `kbook-strings`), which the loader gives the site's pages.
fn localized(strings: &crate::i18n::Strings, language: &str, home: &str) -> (String, String) {
    use crate::html::escape;
    let script = if strings.script.is_empty() {
        "null".to_string()
    } else {
        serde_json::to_string(&strings.script).unwrap_or_else(|_| "null".into())
    };
    let meta = if strings.script.is_empty() {
        String::new()
    } else {
        format!(
            "<meta name=\"kbook-strings\" content=\"{}\">",
            escape(&script)
        )
    };
    let mut page = SEARCH_PAGE
        .replace("{home}", &escape(home))
        .replace("{lang}", &escape(language))
        .replace("{strings_meta}", &meta);
    for key in [
        "search_title",
        "back_to_site",
        "paste_label",
        "search_button",
    ] {
        page = page.replace(&format!("{{{key}}}"), &escape(strings.get(key)));
    }
    let placeholder =
        serde_json::to_string(strings.get("search_placeholder")).unwrap_or_else(|_| "\"\"".into());
    // `</` cannot end a script here: the loader is a file of its own, not inline.
    let loader = String::from_utf8_lossy(LOADER_JS)
        .replace("/*kbook-strings*/null", &script)
        .replace(
            "/*kbook-placeholder*/\"Search, or paste an error\"",
            &placeholder,
        );
    (page, loader)
}

/// The site's pages as index entries, a batch at a time: a batch is read and parsed on all
/// cores when the index writer asks for it (so reading overlaps indexing); ids are given in
/// page order.
struct PageBatches<'a> {
    site: &'a Path,
    reader: &'a html::PageReader,
    to_root: &'a str,
    chunks: std::slice::Chunks<'a, String>,
    ids: HashSet<String>,
    /// Error texts found in the pages' log-shaped code.
    errors: usize,
    /// Pages left out, with the reason.
    skipped: Vec<(String, String)>,
    /// Why reading stopped early (a page that could not be read).
    unreadable: Option<IndexError>,
    /// Pages that are not UTF-8 (see [`IndexReport::not_utf8`]).
    not_utf8: Vec<String>,
}

impl<'a> PageBatches<'a> {
    fn new(
        site: &'a Path,
        reader: &'a html::PageReader,
        to_root: &'a str,
        pages: &'a [String],
    ) -> Self {
        PageBatches {
            site,
            reader,
            to_root,
            chunks: pages.chunks(PAGES_PER_BATCH),
            ids: HashSet::new(),
            errors: 0,
            skipped: Vec::new(),
            unreadable: None,
            not_utf8: Vec::new(),
        }
    }

    /// An id for the page at `rel`, unique among the pages so far.
    fn unique_id(&mut self, rel: &str) -> String {
        let base = crate::import::ascii_slug(rel.trim_end_matches(".html"), 80)
            .unwrap_or_else(|| "page".into());
        let mut id = base.clone();
        let mut n = 2;
        while !self.ids.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }
}

impl Iterator for PageBatches<'_> {
    type Item = Vec<EntryDoc>;

    fn next(&mut self) -> Option<Vec<EntryDoc>> {
        if self.unreadable.is_some() {
            return None;
        }
        let chunk = self.chunks.next()?;
        let (site, reader, to_root) = (self.site, self.reader, self.to_root);
        let read = chunk
            .par_iter()
            .map(|rel| {
                let path = site.join(rel);
                let bytes =
                    std::fs::read(&path).map_err(io(format!("cannot read {}", path.display())))?;
                let text = String::from_utf8_lossy(&bytes);
                let lossy = matches!(text, std::borrow::Cow::Owned(_));
                Ok((reader.read(&text, rel, format!("{to_root}{rel}")), lossy))
            })
            .collect::<Result<Vec<(html::PageDoc, bool)>>>();
        let read = match read {
            Ok(read) => read,
            Err(e) => {
                self.unreadable = Some(e);
                return None;
            }
        };
        let mut docs: Vec<EntryDoc> = Vec::with_capacity(chunk.len());
        for (rel, (page, lossy)) in chunk.iter().zip(read) {
            if lossy {
                self.not_utf8.push(rel.clone());
            }
            match page {
                html::PageDoc::Doc(mut d) => {
                    d.id = self.unique_id(rel);
                    self.errors += d.errors.len();
                    docs.push(*d);
                }
                html::PageDoc::Skipped(why) => self.skipped.push((rel.clone(), why.to_string())),
            }
        }
        Some(docs)
    }
}

/// The lines a template needs for the search box: where it goes, and the loader (`src`
/// relative to the site root: a template usually writes it with its own root-URL helper).
pub fn template_lines(subdir: &str) -> [String; 2] {
    [
        SLOT.to_string(),
        format!("<script src=\"/{subdir}/{LOADER}\" defer></script>"),
    ]
}

/// Every `.html` file of the site (paths relative to it, `/`-separated, sorted), leaving out
/// the search directory and hidden directories.
fn html_pages(site: &Path, subdir: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    // The search directory of an earlier run (hundreds of block files) is not walked.
    let search_dir = site.join(subdir);
    let walk = walkdir::WalkDir::new(site)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !(e.file_name().to_string_lossy().starts_with('.')
                    || e.path() == search_dir
                    || is_earlier_search_dir(e.path()))
        });
    for item in walk {
        let item = item.map_err(|source| IndexError::Walk {
            path: site.display().to_string(),
            source,
        })?;
        if !item.file_type().is_file() {
            continue;
        }
        let rel = item
            .path()
            .strip_prefix(site)
            .unwrap_or(item.path())
            .to_string_lossy()
            .replace('\\', "/");
        if !rel.ends_with(".html") {
            continue;
        }
        out.push(rel);
    }
    Ok(out)
}

/// The theme's colour variables (light, and dark where the reader's system is) set on the
/// search UI's own elements: search.css reads them, a site kbook did not build has none, and
/// the site's own variables of the same names keep their values everywhere else.
fn scoped_palette() -> String {
    // The body of the first rule whose selector is `selector` (the theme opens with them).
    let block = |selector: &str| -> &str {
        THEME_CSS
            .find(&format!("{selector} {{"))
            .map(|at| &THEME_CSS[at + selector.len() + 2..])
            .and_then(|rest| rest.find('}').map(|end| rest[..end].trim()))
            .unwrap_or("")
    };
    let ui = ".kbook-search, .kbook-index-page";
    format!(
        "{ui} {{\n  {}\n  color: var(--fg);\n}}\n@media (prefers-color-scheme: dark) {{\n  {ui} {{\n  {}\n  }}\n}}\n",
        block(":root"),
        block("[data-theme=\"dark\"]")
    )
}

/// Whether `dir` holds the search files of an earlier run with another `--output-subdir`
/// (its pages are the search page, not the site's).
fn is_earlier_search_dir(dir: &Path) -> bool {
    dir.join(LOADER).is_file() && dir.join(crate::search_assets::MANIFEST_JSON_PATH).is_file()
}

/// Pages given the search box, each new text written to a temporary file beside its page;
/// dropped without [`PageEdits::apply`], the temporary files are removed.
#[derive(Default)]
struct PageEdits {
    /// Temporary file and page.
    staged: Vec<(PathBuf, PathBuf)>,
    /// Pages with no `<body>…</body>` to put the box in.
    no_body: Vec<String>,
}

impl PageEdits {
    fn prepare(site: &Path, pages: &[String], subdir: &str) -> Result<PageEdits> {
        let mut edits = PageEdits::default();
        for rel in pages {
            let path = site.join(rel);
            let bytes =
                std::fs::read(&path).map_err(io(format!("cannot read {}", path.display())))?;
            let earlier = |dir: &str| is_earlier_search_dir(&site.join(dir));
            match injected(&bytes, rel, subdir, &earlier) {
                Injected::Page(out) => {
                    let tmp = path.with_extension("html.kbook-tmp");
                    std::fs::write(&tmp, out)
                        .map_err(io(format!("cannot write {}", tmp.display())))?;
                    edits.staged.push((tmp.clone(), path.clone()));
                    keep_access(&path, &tmp)?;
                }
                Injected::NoBody => edits.no_body.push(rel.clone()),
                Injected::Already => {}
            }
        }
        Ok(edits)
    }

    /// Replaces each page by its new text (a rename: never half written); how many.
    fn apply(mut self) -> Result<usize> {
        let staged = std::mem::take(&mut self.staged);
        let n = staged.len();
        for (i, (tmp, path)) in staged.iter().enumerate() {
            if let Err(e) = std::fs::rename(tmp, path) {
                self.staged = staged[i..].to_vec();
                return Err(io(format!("cannot replace {}", path.display()))(e));
            }
        }
        Ok(n)
    }
}

/// Gives `tmp` the permissions of `page`, which it replaces, and (where the process may) its
/// owner and group: an edited page is read by the same people as before.
fn keep_access(page: &Path, tmp: &Path) -> Result<()> {
    let meta = std::fs::metadata(page).map_err(io(format!("cannot read {}", page.display())))?;
    std::fs::set_permissions(tmp, meta.permissions()).map_err(io(format!(
        "cannot set the permissions of {}",
        tmp.display()
    )))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Only a privileged process may give a file away; others keep their own.
        let _ = std::os::unix::fs::chown(tmp, Some(meta.uid()), Some(meta.gid()));
    }
    Ok(())
}

impl Drop for PageEdits {
    fn drop(&mut self) {
        for (tmp, _) in &self.staged {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// What [`injected`] makes of a page.
enum Injected {
    /// The page's new text.
    Page(Vec<u8>),
    /// It already loads the search.
    Already,
    /// It has no `<body …>…</body>` to put the box and the loader in.
    NoBody,
}

/// The page with the search box after `<body …>` and the loader before `</body>` (see
/// [`Injected`] for the pages left alone). The loader of an earlier run into another
/// subfolder (`earlier` says which folders hold one) is replaced, so a page never gets two
/// boxes. Bytes, not text: the markup is ASCII, so a page in any ASCII-compatible encoding
/// (Latin-1, Shift JIS, …) keeps its own bytes.
fn injected(page: &[u8], rel: &str, subdir: &str, earlier: &dyn Fn(&str) -> bool) -> Injected {
    // Compiled once; `None` only if the pattern did not compile, which the tests would show.
    static EARLIER_LOADER: std::sync::OnceLock<Option<regex::bytes::Regex>> =
        std::sync::OnceLock::new();
    let earlier_loader = EARLIER_LOADER.get_or_init(|| {
        regex::bytes::Regex::new(
            r#"<script src="((?:\.\./)*)([^"<>]+)/kbook\.js" defer></script>\n?"#,
        )
        .ok()
    });
    let loader = format!("{subdir}/{LOADER}");
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    if find(page, loader.as_bytes()).is_some() {
        return Injected::Already;
    }
    let to_root = "../".repeat(rel.matches('/').count());
    // Only a loader as this function writes it, from this page to an earlier run's folder.
    let page = match earlier_loader {
        Some(re) => re.replace_all(page, |c: &regex::bytes::Captures<'_>| {
            let ours = c[1] == *to_root.as_bytes() && std::str::from_utf8(&c[2]).is_ok_and(earlier);
            if ours { Vec::new() } else { c[0].to_vec() }
        }),
        None => std::borrow::Cow::Borrowed(page),
    };
    let page: &[u8] = &page;
    let lower = page.to_ascii_lowercase();
    // A redirect page (Hugo's aliases have no body) is left for the browser to leave.
    if [
        &b"http-equiv=\"refresh\""[..],
        b"http-equiv='refresh'",
        b"http-equiv=refresh",
    ]
    .iter()
    .any(|m| find(&lower, m).is_some())
    {
        return Injected::Already;
    }
    let body = find(&lower, b"<body").and_then(|open| {
        let close = lower.windows(7).rposition(|w| w == b"</body>")?;
        let open_end = open + lower[open..].iter().position(|&b| b == b'>')? + 1;
        (open_end <= close).then_some((open_end, close))
    });
    let Some((open_end, close)) = body else {
        return Injected::NoBody;
    };
    let mut out = Vec::with_capacity(page.len() + 200);
    out.extend_from_slice(&page[..open_end]);
    // A box the page has (the earlier run's, or one its template places) stays where it is.
    let has_box = lower.windows(b"data-kbook-search".len() + 1).any(|w| {
        w.starts_with(b"data-kbook-search")
            && !w[w.len() - 1].is_ascii_alphanumeric()
            && w[w.len() - 1] != b'-'
    });
    if !has_box {
        out.push(b'\n');
        out.extend_from_slice(SLOT.as_bytes());
    }
    out.extend_from_slice(&page[open_end..close]);
    out.extend_from_slice(
        format!("<script src=\"{to_root}{loader}\" defer></script>\n").as_bytes(),
    );
    out.extend_from_slice(&page[close..]);
    Injected::Page(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_is_the_themes_on_the_search_ui_only() {
        let css = scoped_palette();
        // Light and dark, taken from kbook.css, under the UI's own selectors.
        assert!(
            css.starts_with(".kbook-search, .kbook-index-page {"),
            "{css}"
        );
        assert!(
            css.contains("--bg: #ffffff") && css.contains("--bg: #14181f"),
            "{css}"
        );
        assert!(css.contains("@media (prefers-color-scheme: dark)"), "{css}");
        assert!(
            !css.contains(":root") && !css.contains("data-theme"),
            "{css}"
        );
    }
}
