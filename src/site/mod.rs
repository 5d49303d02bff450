//! The build: load → validate → render → index → write, with all problems reported together
//! and the output swapped in atomically so a failed build never leaves a half-written site.

use crate::config::Config;
use crate::content::{self, Book};
use crate::diagnostic::{self, Diagnostic};
use crate::fingerprint::fingerprint;
use crate::output::{OutputFile, SiteWriter, Written, recover_interrupted_swap};
use crate::progress::Progress;
use crate::render::links::LinkTargets;
use crate::render::markdown::{MarkdownRenderer, RenderedBody};
use crate::render::pages;
use crate::render::raw_html::RawHtml;
use crate::render::{templates, theme};
use crate::search_assets::{self, AssetMode};
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
    /// Also make the single-file book, from the new site before it replaces the old one: a
    /// book that cannot be made (ids that would clash) fails the build with the old site
    /// left as it was. The file's bytes are in [`BuildReport::single_file`].
    pub single_file: Option<crate::bundle::SingleFileOptions>,
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
    /// The single-file book, when [`BuildOptions::single_file`] asked for it.
    pub single_file: Option<Vec<u8>>,
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
            single_file: None,
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

mod destination;
mod incremental;
pub mod root_files;

pub use destination::{refuse as refuse_destination, refuse_file};

pub use incremental::{BuildCache, IncrementalSite};

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
    let (root, mut root_diags) = root_files::read(config);
    diags.append(&mut root_diags);
    progress.stage("rendering markdown");
    let static_names: HashSet<String> = statics.iter().flatten().map(|(p, _)| p.clone()).collect();
    diags.extend(root_files::early_clashes(
        &root,
        &book,
        &static_names,
        config,
    ));
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
    let connectors: std::collections::HashMap<&str, &crate::config::ConnectorConfig> = config
        .kbook
        .connectors
        .iter()
        .map(|c| (c.slug.as_str(), c))
        .collect();
    let index_job = || -> Result<Vec<OutputFile>, Diagnostic> {
        let docs: Vec<kbook_search::EntryDoc> = book
            .entries
            .iter()
            .zip(&bodies)
            .map(|(e, b)| search_assets::entry_doc(e, b, &connectors))
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
            .map_err(|e| Diagnostic::error("(search index)", 0, 0, diagnostic::with_causes(&e)))?,
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
        let site = crate::render::context::site_context(config, &book, &version_of);
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
                Arc::new(pages::opensearch(&site.title, url, &site.strings).into_bytes()),
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
    if let Err(mut clashes) = root_files::add(&mut files, root, writer) {
        diags.append(&mut clashes);
        return Err(sorted(diags));
    }
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
        unread: book.unread.clone(),
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
    // Relative `.html` links are checked against every page the site writes.
    targets.pages = urls::RESERVED_PATHS.iter().map(|p| p.to_string()).collect();
    for e in &book.entries {
        targets.pages.insert(e.url.clone());
        targets.pages.insert(urls::connector_page(&e.fm.connector));
        targets
            .pages
            .extend(e.fm.aliases.iter().filter_map(|a| urls::alias_page(a)));
    }
    for c in config.connector_slugs() {
        targets.pages.insert(urls::connector_page(c));
    }
    let mut pages: Vec<&String> = targets.pages.iter().collect();
    pages.sort();
    std::hash::Hash::hash(&pages, &mut targets_fp);
    // Image sources into static/ are checked against the site's static files.
    let mut statics: Vec<&String> = targets.static_files.iter().collect();
    statics.sort();
    std::hash::Hash::hash(&statics, &mut targets_fp);
    // The raw-HTML policy changes every body that has raw HTML.
    std::hash::Hash::hash(&config.output.html.sanitize_html, &mut targets_fp);
    let strings = config.strings();
    let anchor_label = strings.get("heading_link");
    std::hash::Hash::hash(anchor_label, &mut targets_fp);
    let alert_titles =
        crate::render::markdown::ALERT_KINDS.map(|(_, key)| strings.get(key).to_string());
    std::hash::Hash::hash(&alert_titles, &mut targets_fp);
    let targets_fp = std::hash::Hasher::finish(&targets_fp);
    let mut renderer =
        MarkdownRenderer::with_raw_html(if config.output.html.sanitize_html == Some(false) {
            RawHtml::Allow
        } else {
            RawHtml::Sanitize
        })
        .with_anchor_label(anchor_label)
        .with_alert_titles(alert_titles);
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

/// `book.toml` of the book at `root`; when it has errors, the book is checked too (as
/// `kbook check` does), with what could be read of it, so that one run reports every problem.
pub fn load_config(root: &Path) -> Result<Config, Vec<Diagnostic>> {
    Config::load(root).map_err(|mut diags| {
        match Config::salvage(root) {
            Some(partial) if !partial.unread.src || partial.src_dir().is_dir() => {
                let opts = BuildOptions {
                    check_only: true,
                    ..BuildOptions::default()
                };
                match render_site(&partial, &opts, &mut BuildCache::default(), Output::Memory) {
                    Ok(rendered) => diags.extend(rendered.warnings),
                    Err(found) => diags.extend(found),
                }
            }
            Some(_) => diags.push(
                Diagnostic::warning(
                    root.join("book.toml"),
                    0,
                    0,
                    "the entries were not checked: where they are (`[book] src`) could not be read",
                )
                .with_hint("fix book.toml, then run again"),
            ),
            None => {}
        }
        sorted(diags)
    })
}

/// Builds the book at `root`: renders in memory, then writes to a temporary directory beside
/// the destination and swaps it in. On any error nothing is written.
pub fn build(root: &Path, opts: &BuildOptions) -> Result<BuildReport, Vec<Diagnostic>> {
    let start = Instant::now();
    let config = load_config(root)?;
    let dest = opts.dest.clone().unwrap_or_else(|| config.build_dir());
    if !opts.check_only {
        if let Some(refused) = destination::refuse(&dest, &config) {
            // The book's own problems are reported too.
            let mut diags = render_site(&config, opts, &mut BuildCache::default(), Output::Memory)
                .err()
                .unwrap_or_default();
            diags.push(refused);
            return Err(sorted(diags));
        }
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
    writer
        .write_all(&rendered.files)
        .map_err(|e| vec![write_error(&dest, &e)])?;
    let single_file = match &opts.single_file {
        Some(options) => Some(
            crate::bundle::read_site(writer.staged())
                .and_then(|files| crate::bundle::single_file(&files, options))
                .map_err(|e| {
                    vec![
                        Diagnostic::error(
                            &dest,
                            0,
                            0,
                            format!("the single-file book cannot be made: {e}"),
                        )
                        .with_hint("nothing was written; fix it, or build without --single-file"),
                    ]
                })?,
        ),
        None => None,
    };
    let written = writer.commit().map_err(|e| vec![write_error(&dest, &e)])?;
    drop(timing);
    let mut report = BuildReport::new(rendered, written, start, dest);
    report.single_file = single_file;
    Ok(report)
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
