//! The build: load → validate → render → index → write, with all problems reported together
//! and the output swapped in atomically so a failed build never leaves a half-written site.

use crate::config::Config;
use crate::content::{self, Book};
use crate::diagnostic::{self, Diagnostic};
use crate::fingerprint::{fingerprint, hex};
use crate::html::escape;
use crate::output::{
    IN_PLACE_BYTES, OutputFile, SiteWriter, Written, overwrite_in_place, recover_interrupted_swap,
    write_atomically, write_file_atomically,
};
use crate::progress::Progress;
use crate::render::context::{ConnectorNav, SiteContext};
use crate::render::links::LinkTargets;
use crate::render::markdown::{MarkdownRenderer, RawHtml, RenderedBody};
use crate::render::memo::PageMemo;
use crate::render::pages;
use crate::render::{templates, theme};
use crate::search_assets::{self, AssetMode, SearchAssets};
use crate::urls;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `build` and `check` should do.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Output directory (default: `[build] build-dir`).
    pub dest: Option<PathBuf>,
    /// Warnings fail the build.
    pub deny_warnings: bool,
    /// Only validate and render in memory (`kbook check`).
    pub check_only: bool,
    /// Show a progress bar on a terminal.
    pub progress: bool,
}

/// A successful build.
#[derive(Debug)]
pub struct BuildReport {
    /// Entries built.
    pub entries: usize,
    /// HTML pages written.
    pub pages: usize,
    /// Files written.
    pub files: usize,
    /// Bytes written.
    pub bytes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Where the site is.
    pub dest: PathBuf,
    /// Warnings (not fatal).
    pub warnings: Vec<Diagnostic>,
}

impl BuildReport {
    /// The report of `rendered`, with `written` files, pages and bytes, at `dest`, begun at
    /// `start`.
    fn new(rendered: RenderedSite, written: Written, start: Instant, dest: PathBuf) -> Self {
        BuildReport {
            entries: rendered.entries,
            pages: written.pages,
            files: written.files,
            bytes: written.bytes,
            elapsed: start.elapsed(),
            dest,
            warnings: rendered.warnings,
        }
    }
}

/// What the render stage produced and did not write yet.
pub struct RenderedSite {
    /// Files with paths relative to the site root, sorted (without those written as they
    /// were made).
    pub files: Vec<OutputFile>,
    /// Number of entries.
    pub entries: usize,
    /// Warnings.
    pub warnings: Vec<Diagnostic>,
    /// The new site the other files were written into ([`Output::Site`]), to finish and swap
    /// in.
    pub writer: Option<SiteWriter>,
}

/// Where [`render_site`] puts what it makes.
#[derive(Debug, Clone, Copy)]
pub enum Output<'a> {
    /// Everything is returned in memory (`kbook check`, `kbook serve`).
    Memory,
    /// The search files and entry pages are written into a new site for this destination
    /// as soon as they are made; the rest is returned.
    Site(&'a Path),
}

/// Loads, validates and renders the book into `output`. Errors (and warnings when denied)
/// come back as `Err` with every diagnostic sorted by file and position; then nothing was
/// written (a new site begun is removed when its writer drops).
pub fn render_site(
    config: &Config,
    opts: &BuildOptions,
    cache: &mut BuildCache,
    output: Output<'_>,
) -> Result<RenderedSite, Vec<Diagnostic>> {
    let progress = Progress::new(opts.progress);
    progress.stage("reading entries");
    let (mut book, mut diags) = content::load_cached(config, &mut cache.load);
    progress.stage("loading templates");
    let tera = match templates::load_templates(&config.root) {
        Ok(t) => Some(t),
        Err(mut d) => {
            diags.append(&mut d);
            None
        }
    };
    // Read once: pages link the theme's files, bodies' image paths are checked against them.
    let statics = match theme::static_files(&config.root) {
        Ok(s) => Some(s),
        Err(e) => {
            diags.push(
                Diagnostic::error("static", 0, 0, format!("cannot read static files: {e}"))
                    .with_hint("check the book's static/ directory"),
            );
            None
        }
    };
    progress.stage("rendering markdown");
    let static_names: HashSet<String> = statics.iter().flatten().map(|(p, _)| p.clone()).collect();
    let (bodies, mut link_diags) = render_bodies(&book, config, cache, static_names);
    diags.append(&mut link_diags);
    // Rendered, the Markdown is read no more: a one-shot build frees it (a large book's text
    // is hundreds of MB). `kbook serve` keeps its entries for the next rebuild, and an entry
    // held there is shared, so it stays whole.
    if !cache.keep {
        for e in &mut book.entries {
            if let Some(e) = Arc::get_mut(e) {
                e.body = String::new();
            }
        }
    }
    // Templates or static files that failed to load left an error in `diags`.
    let (tera, tera_fp, statics) = match (tera, statics) {
        (Some((t, fp)), Some(statics)) if !fails(&diags, opts.deny_warnings) => (t, fp, statics),
        _ => return Err(sorted(diags)),
    };
    // Begun only now: a book with errors creates nothing beside the destination.
    let new_site = match output {
        Output::Memory => None,
        Output::Site(dest) => match SiteWriter::begin(dest) {
            Ok(w) => Some(w),
            Err(e) => {
                diags.push(write_error(dest, &e));
                return Err(sorted(diags));
            }
        },
    };
    let writer = new_site.as_ref();

    // The index and the pages are made at the same time: neither reads the other (pages
    // find the index through search/manifest.*), and together they keep both cores busy.
    progress.stage("indexing and rendering pages");
    let BuildCache {
        keep,
        index: index_cache,
        segments,
        pages: page_memo,
        ..
    } = cache;
    let aliases: std::collections::HashMap<&str, &[String]> = config
        .kbook
        .connectors
        .iter()
        .map(|c| (c.slug.as_str(), c.aliases.as_slice()))
        .collect();
    let index_job = || -> Result<Vec<OutputFile>, Diagnostic> {
        let docs: Vec<kbook_search::EntryDoc> = book
            .entries
            .iter()
            .zip(&bodies)
            .map(|(e, b)| entry_doc(e, b, &aliases))
            .collect();
        // The index is rebuilt only when an indexed field changed (not for template edits).
        let docs_fp = kbook_search::docs_fingerprint(&docs);
        let mode = if *keep {
            AssetMode::Serve
        } else {
            AssetMode::Publish
        };
        let assets = match index_cache.take() {
            Some((fp, assets)) if fp == docs_fp => assets,
            _ => search_assets::build_search_assets(
                search_assets::Entries::All(&docs),
                mode,
                segments,
                writer,
            )
            .map_err(|e| {
                Diagnostic::error(
                    "(search index)",
                    0,
                    0,
                    format!("cannot build the search index: {e:#}"),
                )
            })?,
        };
        // The documents hold a copy of every body's text.
        drop(docs);
        if *keep {
            *index_cache = Some((docs_fp, assets.clone()));
        }
        Ok(assets.files)
    };
    let pages_job = || -> Result<Vec<OutputFile>, Vec<Diagnostic>> {
        // The `?v=` version covers only files with fixed names that pages link to (the theme
        // and search.js). The index and module are found through search/manifest.*, so a
        // changed entry changes no other page's HTML (CDN caches keep them).
        let search_js = [search_assets::search_js_file()];
        let version_of: Vec<&(String, Vec<u8>)> = statics.iter().chain(search_js.iter()).collect();
        let site = site_context(config, &book, &version_of);
        let global_fp = fingerprint(&format!(
            "{}{tera_fp}{config:?}",
            serde_json::to_string(&site).unwrap_or_default()
        ));
        let mut files = pages::render_all(
            &tera,
            config,
            &site,
            &book.entries,
            &bodies,
            global_fp,
            pages::PageSink {
                memo: page_memo,
                writer,
            },
        )?;
        files.extend(
            statics
                .into_iter()
                .map(|(p, b)| (format!("static/{p}"), Arc::new(b))),
        );
        if let Some(url) = &site.site_url {
            files.push((
                urls::OPENSEARCH.into(),
                Arc::new(opensearch(&site.title, url, &site.strings).into_bytes()),
            ));
        }
        Ok(files)
    };
    let (search_files, page_files) = rayon::join(index_job, pages_job);
    let mut files = match (search_files, page_files) {
        (Ok(search), Ok(mut pages)) => {
            pages.extend(search);
            pages
        }
        (search, pages) => {
            diags.extend(search.err());
            diags.extend(pages.err().into_iter().flatten());
            return Err(sorted(diags));
        }
    };
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(RenderedSite {
        files,
        entries: book.entries.len(),
        warnings: sorted(diags),
        writer: new_site,
    })
}

/// The error of a failed write into the new site at `dest`.
fn write_error(dest: &Path, e: &std::io::Error) -> Diagnostic {
    Diagnostic::error(dest, 0, 0, format!("cannot write the site: {e}"))
        .with_hint("check that the destination's parent directory is writable")
}

fn sorted(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostic::sort(&mut diags);
    diags
}

fn fails(diags: &[Diagnostic], deny_warnings: bool) -> bool {
    diags.iter().any(|d| d.is_error() || deny_warnings)
}

/// Renders every body: heading ids are collected first so links to `#anchors` in other
/// entries can be checked. With a keeping cache, a body is rendered again only when its text
/// or the link targets of the book changed.
fn render_bodies(
    book: &Book,
    config: &Config,
    cache: &mut BuildCache,
    static_files: HashSet<String>,
) -> (Vec<Arc<RenderedBody>>, Vec<Diagnostic>) {
    let mut targets = LinkTargets {
        static_files,
        ..LinkTargets::default()
    };
    let headings: Vec<_> = book
        .entries
        .par_iter()
        .map(|e| {
            let fp = fingerprint(&e.body);
            match cache.headings.get(&e.id) {
                Some((old, ids)) if *old == fp => (fp, ids.clone()),
                _ => (fp, MarkdownRenderer::heading_ids(&e.body)),
            }
        })
        .collect();
    let mut targets_fp = kbook_search::ContentHasher::default();
    for (e, (_, ids)) in book.entries.iter().zip(&headings) {
        let mut sorted: Vec<&String> = ids.iter().collect();
        sorted.sort();
        std::hash::Hash::hash(&(&e.rel_path, &e.id, &e.url, sorted), &mut targets_fp);
        targets.by_path.insert(e.rel_path.clone(), e.id.clone());
        targets
            .by_id
            .entry(e.id.clone())
            .or_insert((e.url.clone(), ids.clone()));
    }
    // Image sources into static/ are checked against the site's static files.
    let mut statics: Vec<&String> = targets.static_files.iter().collect();
    statics.sort();
    std::hash::Hash::hash(&statics, &mut targets_fp);
    // The raw-HTML policy changes every body that has raw HTML.
    std::hash::Hash::hash(&config.output.html.sanitize_html, &mut targets_fp);
    let targets_fp = std::hash::Hasher::finish(&targets_fp);
    let mut renderer =
        MarkdownRenderer::with_raw_html(if config.output.html.sanitize_html == Some(false) {
            RawHtml::Allow
        } else {
            RawHtml::Sanitize
        });
    if cache.keep {
        renderer = renderer.with_highlight_cache(cache.highlights.clone());
    }
    let results: Vec<(u64, Arc<RenderedBody>, Vec<Diagnostic>)> = book
        .entries
        .par_iter()
        .zip(&headings)
        .map(|(e, (body_fp, _))| {
            let fp = fingerprint(&(
                targets_fp,
                body_fp,
                &e.rel_path,
                &e.url,
                &e.path,
                e.body_line,
            ));
            if let Some((old, body, diags)) = cache.bodies.get(&e.id)
                && *old == fp
            {
                return (fp, body.clone(), diags.clone());
            }
            let (body, diags) =
                renderer.render(&e.body, &e.rel_path, &e.url, &targets, &e.path, e.body_line);
            (fp, Arc::new(body), diags)
        })
        .collect();
    let mut diags = Vec::new();
    let mut bodies = Vec::with_capacity(results.len());
    if cache.keep {
        cache.bodies.clear();
        cache.headings.clear();
        cache
            .highlights
            .retain(&book.entries.iter().map(|e| e.rel_path.as_str()).collect());
    }
    for ((e, (fp, body, d)), (hfp, ids)) in book.entries.iter().zip(results).zip(headings) {
        diags.extend(d.iter().cloned());
        if cache.keep {
            cache.bodies.insert(e.id.clone(), (fp, body.clone(), d));
            cache.headings.insert(e.id.clone(), (hfp, ids));
        }
        bodies.push(body);
    }
    (bodies, diags)
}

/// What a rebuild may reuse from the previous one (`kbook serve`); a one-shot build uses
/// an empty cache that keeps nothing.
#[derive(Default)]
pub struct BuildCache {
    keep: bool,
    load: content::LoadCache,
    headings: std::collections::HashMap<String, (u64, std::collections::HashSet<String>)>,
    bodies: std::collections::HashMap<String, (u64, Arc<RenderedBody>, Vec<Diagnostic>)>,
    pages: PageMemo,
    /// Highlighted code blocks by content (an edited body's untouched blocks are reused).
    highlights: Arc<crate::render::markdown::HighlightCache>,
    index: Option<(u64, SearchAssets)>,
    /// The search index's chunk segments, reused by the next build when `keep` is set.
    segments: kbook_search::KeptSegments,
}

impl BuildCache {
    /// A cache that keeps everything for the next rebuild.
    pub fn keeping() -> Self {
        BuildCache {
            keep: true,
            load: content::LoadCache::keeping(),
            pages: PageMemo::keeping(),
            ..BuildCache::default()
        }
    }
}

/// The index document of entry `e`; `aliases` are the connectors' aliases by slug.
fn entry_doc(
    e: &content::Entry,
    body: &RenderedBody,
    aliases: &std::collections::HashMap<&str, &[String]>,
) -> kbook_search::EntryDoc {
    kbook_search::EntryDoc {
        id: e.id.clone(),
        url: e.url.clone(),
        title: e.fm.title.clone(),
        connector: e.fm.connector.clone(),
        connector_aliases: aliases
            .get(e.fm.connector.as_str())
            .map(|a| a.to_vec())
            .unwrap_or_default(),
        kind: e.fm.kind.clone(),
        // Only the text is searched; a source URL is no part of the error.
        errors: e.fm.errors.iter().map(|err| err.text.clone()).collect(),
        generic_errors: e
            .fm
            .errors
            .iter()
            .filter(|err| err.generic)
            .map(|err| err.text.clone())
            .collect(),
        body: body.text.clone(),
        code: body.code.clone(),
        tags: e.fm.tags.clone(),
        // The reader's words for the problem: searched beside the tags, as weaker evidence
        // than the title and the error strings, and each line matched on its own.
        symptoms: e.fm.symptoms.clone(),
        versions: e.fm.versions.iter().map(|v| v.spec()).collect(),
    }
}

fn site_context(config: &Config, book: &Book, assets: &[&(String, Vec<u8>)]) -> SiteContext {
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for e in &book.entries {
        *counts.entry(e.fm.connector.as_str()).or_default() += 1;
    }
    // Configured connectors first, in their order; then any others A–Z.
    let mut connectors: Vec<ConnectorNav> = config
        .kbook
        .connectors
        .iter()
        .filter(|c| counts.contains_key(c.slug.as_str()))
        .map(|c| ConnectorNav {
            slug: c.slug.clone(),
            name: c.name.clone(),
            description: c.description.clone(),
            url: urls::connector_page(&c.slug),
            count: counts[c.slug.as_str()],
        })
        .collect();
    for (slug, count) in &counts {
        if !connectors.iter().any(|c| c.slug == *slug) {
            connectors.push(ConnectorNav {
                slug: slug.to_string(),
                name: slug.to_string(),
                description: String::new(),
                url: urls::connector_page(slug),
                count: *count,
            });
        }
    }
    let mut hasher = sha2_hex_hasher();
    // One version for the theme and search assets: pages reference them with `?v=` so a
    // browser never mixes a cached old script with a new page.
    for (p, b) in assets {
        sha2::Digest::update(&mut hasher, p.as_bytes());
        sha2::Digest::update(&mut hasher, b);
    }
    let html = &config.output.html;
    let strings = config.strings();
    SiteContext {
        title: config.book.title.clone(),
        description: config.book.description.clone(),
        authors: config.book.authors.clone(),
        language: config.book.language.clone(),
        repo_url: html.git_repository_url.clone(),
        default_theme: html.default_theme.clone().unwrap_or_else(|| "auto".into()),
        site_url: html
            .site_url
            .as_ref()
            .map(|u| format!("{}/", u.trim_end_matches('/'))),
        connectors,
        entry_count: book.entries.len(),
        asset_version: hex(&sha2::Digest::finalize(hasher))[..10].to_string(),
        content_security_policy: html.content_security_policy,
        strings_meta: if strings.script.is_empty() {
            String::new()
        } else {
            serde_json::to_string(&strings.script).unwrap_or_default()
        },
        strings,
    }
}

fn sha2_hex_hasher() -> sha2::Sha256 {
    use sha2::Digest;
    sha2::Sha256::new()
}

fn opensearch(title: &str, site_url: &str, strings: &crate::i18n::Strings) -> String {
    let t = escape(title);
    let u = escape(site_url);
    let d = escape(&strings.fill("opensearch_description", &[("title", title)]));
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n  <ShortName>{t}</ShortName>\n  <Description>{d}</Description>\n  <InputEncoding>UTF-8</InputEncoding>\n  <Url type=\"text/html\" template=\"{u}search.html?q={{searchTerms}}\"/>\n</OpenSearchDescription>\n"
    )
}

/// Builds the book at `root`: renders in memory, then writes to a temporary directory beside
/// the destination and swaps it in. On any error nothing is written.
pub fn build(root: &Path, opts: &BuildOptions) -> Result<BuildReport, Vec<Diagnostic>> {
    let start = Instant::now();
    let config = Config::load(root)?;
    let dest = opts.dest.clone().unwrap_or_else(|| config.build_dir());
    if !opts.check_only {
        recover_interrupted_swap(&dest);
    }
    if opts.check_only {
        let rendered = render_site(&config, opts, &mut BuildCache::default(), Output::Memory)?;
        let counted = Written {
            bytes: 0,
            ..Written::of(&rendered.files)
        };
        return Ok(BuildReport::new(rendered, counted, start, dest));
    }
    // The search files and entry pages are written as they are made; an error drops the
    // writer, which removes the new site and leaves the previous one as it was.
    let mut rendered = render_site(
        &config,
        opts,
        &mut BuildCache::default(),
        Output::Site(&dest),
    )?;
    let timing = Progress::new(false);
    timing.stage("writing the site");
    let writer = rendered
        .writer
        .take()
        .ok_or_else(|| vec![Diagnostic::error(&dest, 0, 0, "the new site was not begun")])?;
    let written = writer
        .write_all(&rendered.files)
        .and_then(|()| writer.commit())
        .map_err(|e| vec![write_error(&dest, &e)])?;
    drop(timing);
    Ok(BuildReport::new(rendered, written, start, dest))
}

/// A site rebuilt again and again by `kbook serve`: unchanged entries, bodies, pages and
/// index are reused, and only files whose bytes changed are written.
pub struct IncrementalSite {
    root: PathBuf,
    dest: PathBuf,
    deny_warnings: bool,
    cache: BuildCache,
    written: std::collections::HashMap<String, u64>,
}

impl IncrementalSite {
    /// A site for the book at `root`, written to `dest`.
    pub fn new(root: &Path, dest: &Path, deny_warnings: bool) -> Self {
        IncrementalSite {
            root: root.to_path_buf(),
            dest: dest.to_path_buf(),
            deny_warnings,
            cache: BuildCache::keeping(),
            written: std::collections::HashMap::new(),
        }
    }

    /// Rebuilds; on error nothing is written and the previous site stays.
    pub fn rebuild(&mut self) -> Result<BuildReport, Vec<Diagnostic>> {
        let start = Instant::now();
        let config = Config::load(&self.root)?;
        let opts = BuildOptions {
            dest: Some(self.dest.clone()),
            deny_warnings: self.deny_warnings,
            check_only: false,
            progress: false,
        };
        let rendered = render_site(&config, &opts, &mut self.cache, Output::Memory)?;
        let timing = Progress::new(false);
        timing.stage("writing changed files");
        let io_err = |e: std::io::Error| {
            vec![Diagnostic::error(
                &self.dest,
                0,
                0,
                format!("cannot write the site: {e}"),
            )]
        };
        // One fingerprint per file, on all cores: it decides what is written and is kept.
        let fps: Vec<u64> = rendered
            .files
            .par_iter()
            .map(|(_, d)| kbook_search::content_hash(d))
            .collect();
        let mut bytes = 0;
        if self.written.is_empty() {
            // First build: the whole site, swapped in atomically.
            bytes = write_atomically(&self.dest, &rendered.files)
                .map_err(io_err)?
                .bytes;
        } else {
            let changed: Vec<&OutputFile> = rendered
                .files
                .iter()
                .zip(&fps)
                .filter(|((path, _), fp)| self.written.get(path) != Some(fp))
                .map(|(f, _)| f)
                .collect();
            let results: Vec<std::io::Result<u64>> = changed
                .par_iter()
                .map(|(path, data)| {
                    let path = self.dest.join(path);
                    if data.len() >= IN_PLACE_BYTES && path.is_file() {
                        overwrite_in_place(&path, data)?;
                    } else {
                        write_file_atomically(&path, data)?;
                    }
                    Ok(data.len() as u64)
                })
                .collect();
            for r in results {
                bytes += r.map_err(io_err)?;
            }
            let now: std::collections::HashSet<&str> =
                rendered.files.iter().map(|f| f.0.as_str()).collect();
            for old in self.written.keys().filter(|k| !now.contains(k.as_str())) {
                let _ = std::fs::remove_file(self.dest.join(old));
            }
        }
        self.written = rendered
            .files
            .iter()
            .zip(fps)
            .map(|((p, _), fp)| (p.clone(), fp))
            .collect();
        drop(timing);
        // Every file of the site is counted; `bytes` are those written by this rebuild.
        let counted = Written {
            bytes,
            ..Written::of(&rendered.files)
        };
        Ok(BuildReport::new(
            rendered,
            counted,
            start,
            self.dest.clone(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The paths the content check keeps entries and aliases off are exactly the top-level
    /// files a build writes (with `site-url` set, which adds the sitemap and the OpenSearch
    /// description).
    #[test]
    fn reserved_paths_are_the_top_level_files_written() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/good");
        let mut config = Config::load(&root).unwrap();
        config.output.html.site_url = Some("https://kb.example.org/".into());
        let opts = BuildOptions {
            check_only: true,
            ..BuildOptions::default()
        };
        let rendered =
            render_site(&config, &opts, &mut BuildCache::default(), Output::Memory).unwrap();
        let written: BTreeSet<&str> = rendered
            .files
            .iter()
            .map(|f| f.0.as_str())
            .filter(|p| !p.contains('/'))
            .collect();
        let reserved: BTreeSet<&str> = urls::RESERVED_PATHS.into_iter().collect();
        assert_eq!(written, reserved);
    }
}
