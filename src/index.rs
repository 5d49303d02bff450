//! Search: the assets `kbook build` writes (packed index, browser module, file:// wrappers,
//! loader script) and the `kbook search` / `kbook eval` commands over a built book.

use crate::fingerprint::short_hash;
use crate::output::OutputFile;
use anyhow::{Context, Result, bail};
use kbook_search::version::{Version, VersionMatch, parse_product_version};
use kbook_search::{BookIndex, EntryDoc, SearchOptions, SearchResults, Tuning};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The browser search module, built for wasm32 by the root build script.
static WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/kbook_search_wasm.wasm"));
/// The page-side loader and UI.
static SEARCH_JS: &str = include_str!("../static/search.js");

/// Files the build writes for search, and where pages find them.
#[derive(Debug, Clone)]
pub struct SearchAssets {
    /// (path relative to the site root, bytes).
    pub files: Vec<OutputFile>,
    /// Paths for the `kbook-search` meta tag.
    pub meta: SearchMeta,
}

/// Paths (relative to the site root) of the search assets, as the page script reads them.
#[derive(Debug, Clone, Serialize)]
pub struct SearchMeta {
    /// The packed index (`search/index.<hash>.bin`).
    pub index: String,
    /// The browser module (`search/kbook-search.<hash>.wasm`).
    pub wasm: String,
    /// The index as a script, for file:// (`search/index.<hash>.js`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_js: Option<String>,
    /// The module as a script, for file:// (`search/kbook-search.<hash>.js`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wasm_js: Option<String>,
    /// The always-loaded head of the block-split index (`search/index.<hash>.head`), over http.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// Folder of the index blocks (`search/blocks.<hash>/`, files `<n>.bin`), fetched on demand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<String>,
}

/// Which search assets to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetMode {
    /// A site to publish: content-hashed names, the index split into blocks for lazy loading
    /// over http, and script wrappers for pages opened from file://.
    Publish,
    /// `kbook serve`: fixed names (everything is served no-cache), the whole index loaded at
    /// once over http. Splitting and wrapping the index are most of an edit's indexing time,
    /// and with fixed names a rebuilt index changes no page.
    Serve,
}

/// A script that stores `bytes` (base64) under `key` in `window.__kbookAssets`; file:// pages
/// cannot fetch, but they can load scripts.
fn js_wrapper(key: &str, bytes: &[u8]) -> Result<Vec<u8>> {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    let key_json = serde_json::to_string(key)?;
    Ok(
        format!("(window.__kbookAssets = window.__kbookAssets || {{}})[{key_json}] = \"{b64}\";\n")
            .into_bytes(),
    )
}

/// Builds the packed index and the other search assets for `docs`.
pub fn build_search_assets(docs: &[EntryDoc], mode: AssetMode) -> Result<SearchAssets> {
    let index = kbook_search::build_packed_index(docs).context("cannot build the search index")?;
    let search_js = (
        "search/search.js".to_string(),
        SEARCH_JS.as_bytes().to_vec(),
    );
    if mode == AssetMode::Serve {
        let meta = SearchMeta {
            index: "search/index.bin".into(),
            wasm: "search/kbook-search.wasm".into(),
            index_js: None,
            wasm_js: None,
            head: None,
            blocks: None,
        };
        let files = vec![
            (meta.index.clone(), index),
            (meta.wasm.clone(), WASM.to_vec()),
            search_js,
        ];
        return Ok(SearchAssets {
            files: shared(files),
            meta,
        });
    }
    // Refuse to ship an index the reader cannot open.
    BookIndex::open(index.clone()).context("the freshly built search index does not open")?;
    let index_hash = short_hash(&index);
    let index_path = format!("search/index.{index_hash}.bin");
    let wasm_path = format!("search/kbook-search.{}.wasm", short_hash(WASM));
    let index_js = js_wrapper(&index_path, &index)?;
    let wasm_js = js_wrapper(&wasm_path, WASM)?;
    let index_js_path = format!("search/index.{}.js", short_hash(&index_js));
    let wasm_js_path = format!("search/kbook-search.{}.js", short_hash(&wasm_js));
    // Over http the browser loads the head and fetches blocks as searches need them.
    let split =
        kbook_search::blocks::split_packed(&index).context("cannot split the search index")?;
    let head_path = format!("search/index.{index_hash}.head");
    let blocks_dir = format!("search/blocks.{index_hash}/");
    let meta = SearchMeta {
        index: index_path.clone(),
        wasm: wasm_path.clone(),
        index_js: Some(index_js_path.clone()),
        wasm_js: Some(wasm_js_path.clone()),
        head: Some(head_path.clone()),
        blocks: Some(blocks_dir.clone()),
    };
    let mut files = vec![
        (index_path, index),
        (wasm_path, WASM.to_vec()),
        (index_js_path, index_js),
        (wasm_js_path, wasm_js),
        search_js,
        (head_path, split.head),
    ];
    for (i, block) in split.blocks.into_iter().enumerate() {
        files.push((format!("{blocks_dir}{i}.bin"), block));
    }
    Ok(SearchAssets {
        files: shared(files),
        meta,
    })
}

fn shared(files: Vec<(String, Vec<u8>)>) -> Vec<OutputFile> {
    files
        .into_iter()
        .map(|(p, b)| (p, std::sync::Arc::new(b)))
        .collect()
}

// ------------------------------------------------------------------ locating a built index

#[derive(Deserialize, Default)]
struct BookToml {
    #[serde(default)]
    build: BuildSection,
}

#[derive(Deserialize, Default)]
struct BuildSection {
    #[serde(rename = "build-dir")]
    build_dir: Option<PathBuf>,
}

/// Finds `search/index.*.bin` in the built site: `site` when given, else the book's build
/// directory (newest if several).
fn find_index(book: &Path, site: Option<&Path>) -> Result<PathBuf> {
    let dir = match site {
        Some(site) => site.join("search"),
        None => book_build_dir(book)?.join("search"),
    };
    let entries = std::fs::read_dir(&dir).with_context(|| {
        format!(
            "no search index in {}: run `kbook build` first",
            dir.display()
        )
    })?;
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    for e in entries {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("index.") && name.ends_with(".bin") {
            let modified = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            found.push((modified, e.path()));
        }
    }
    found.sort();
    match found.pop() {
        Some((_, p)) => Ok(p),
        None => bail!(
            "no search/index.*.bin in {}: run `kbook build` first",
            dir.display()
        ),
    }
}

/// The book's build directory (`[build] build-dir` in book.toml, default `book`).
fn book_build_dir(book: &Path) -> Result<PathBuf> {
    let toml_path = book.join("book.toml");
    let build_dir = match std::fs::read_to_string(&toml_path) {
        Ok(text) => {
            let parsed: BookToml = toml::from_str(&text)
                .with_context(|| format!("cannot parse {}", toml_path.display()))?;
            parsed
                .build
                .build_dir
                .unwrap_or_else(|| PathBuf::from("book"))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("no book.toml in {}: pass --book DIR", book.display())
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", toml_path.display())),
    };
    Ok(book.join(build_dir))
}

pub(crate) fn open_book(book: &Path, site: Option<&Path>) -> Result<BookIndex> {
    let path = find_index(book, site)?;
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    BookIndex::open(bytes)
        .with_context(|| format!("cannot open {}: rebuild the book", path.display()))
}

// ------------------------------------------------------------------ kbook search

/// `kbook search`: search the built book from a terminal.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchArgs {
    /// The query: words, an error message, or a pasted line (quote it in the shell).
    pub query: Vec<String>,
    /// Read the query from standard input (e.g. `kubectl logs pod | kbook search --stdin`).
    #[arg(long)]
    pub stdin: bool,
    /// Print JSON (`{"hits": [...], "confident": bool}`).
    #[arg(long)]
    pub json: bool,
    /// Maximum number of results.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Only entries of this connector.
    #[arg(long)]
    pub connector: Option<String>,
    /// Only entries of this kind.
    #[arg(long)]
    pub kind: Option<String>,
    /// Your product version, e.g. `vvr=8.0.7`: entries that do not affect it are listed
    /// after the others, marked `[not your version]`.
    #[arg(long, value_name = "PRODUCT=VERSION")]
    pub version: Option<String>,
    /// Show which fields and terms scored for each result.
    #[arg(long)]
    pub explain: bool,
    /// The book's root directory (with book.toml).
    #[arg(long, default_value = ".")]
    pub book: PathBuf,
    /// The built site to search (default: the book's build directory), e.g. a `--dest` of `kbook build`.
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
}

fn read_query(args: &SearchArgs) -> Result<String> {
    let mut q = args.query.join(" ");
    if args.stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("cannot read standard input")?;
        // Logs are not always UTF-8; keep what can be read.
        let text = String::from_utf8_lossy(&buf);
        if !q.is_empty() {
            q.push('\n');
        }
        q.push_str(&text);
    }
    Ok(q)
}

/// Runs `kbook search`.
pub fn run_search(args: &SearchArgs) -> Result<ExitCode> {
    let query = read_query(args)?;
    if query.trim().is_empty() {
        bail!("empty query: pass words to search for, or --stdin to read a paste");
    }
    let version = match &args.version {
        Some(v) => Some(parse_product_version(v).with_context(|| {
            format!("bad --version `{v}`: expected PRODUCT=VERSION, e.g. vvr=8.0.7")
        })?),
        None => None,
    };
    let index = open_book(&args.book, args.site.as_deref())?;
    let opts = SearchOptions {
        limit: args.limit.max(1),
        connector: args.connector.clone(),
        kind: args.kind.clone(),
        version,
        explain: args.explain,
        tuning: Tuning::default(),
    };
    let results = index.search(&query, &opts)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        print_results(&results, args.explain, opts.version.as_ref());
    }
    Ok(ExitCode::SUCCESS)
}

/// The line `kbook search --version` prints under a hit; the page shows the same marks.
fn version_mark(
    m: VersionMatch,
    fixed_in: Option<&str>,
    product: &str,
    version: &Version,
) -> Option<String> {
    match (m, fixed_in) {
        (VersionMatch::Affected, Some(f)) => {
            Some(format!("affects {product} {version}; fixed in {f}"))
        }
        (VersionMatch::Affected, None) => Some(format!("affects {product} {version}")),
        (VersionMatch::Fixed, Some(f)) => Some(format!(
            "[not your version] does not affect {product} {version} (fixed in {f})"
        )),
        (VersionMatch::Fixed | VersionMatch::NotAffected, _) => Some(format!(
            "[not your version] does not affect {product} {version}"
        )),
        (VersionMatch::Unknown, _) => None,
    }
}

fn print_results(r: &SearchResults, explain: bool, reader: Option<&(String, Version)>) {
    if r.hits.is_empty() {
        println!("No entries match.");
        return;
    }
    if !r.confident {
        println!("No confident match; closest entries:");
    }
    for (i, h) in r.hits.iter().enumerate() {
        println!(
            "{:>2}. {}  [{} · {}]  score {:.2}",
            i + 1,
            h.title,
            h.connector,
            h.kind,
            h.score
        );
        println!("    {}", h.url);
        if let Some(e) = &h.matched_error {
            println!("    matched: {}", one_line(e, 160));
        }
        if let (Some(m), Some((product, version))) = (h.version_match, reader)
            && let Some(mark) = version_mark(m, h.fixed_in.as_deref(), product, version)
        {
            println!("    {mark}");
        }
        if explain && let Some(x) = &h.explain {
            for line in x.lines() {
                println!("      {line}");
            }
        }
    }
}

pub(crate) fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        let cut: String = flat.chars().take(max).collect();
        format!("{cut}…")
    }
}
