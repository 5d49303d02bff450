//! The search-assets stage: the files `kbook build` writes for search (packed index, its
//! blocks, browser module, file:// wrappers, loader script), and finding the packed index
//! again in a built site (for `kbook search` and `kbook eval`).

use crate::fingerprint::short_hash;
use crate::output::{OutputFile, SiteWriter};
use kbook_search::{BookIndex, EntryDoc};
use serde::Serialize;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What can go wrong making a site's search files or reading a built site's. Each message
/// says what failed and what to do; the cause is the error's source.
#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    /// A file could not be read, written or listed.
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// The index could not be built, opened or split.
    #[error("{what}")]
    Index {
        what: String,
        #[source]
        source: kbook_search::SearchError,
    },
    /// A manifest could not be made or read.
    #[error("{what}")]
    Json {
        what: String,
        #[source]
        source: serde_json::Error,
    },
    /// A built site without a search index, or an index without its header.
    #[error("{0}")]
    Missing(String),
}

type Result<T> = std::result::Result<T, AssetError>;

/// An I/O error with what failed.
fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> AssetError {
    let what = what.into();
    move |source| AssetError::Io { what, source }
}

/// A search-core error with what failed.
fn search_err(what: impl Into<String>) -> impl FnOnce(kbook_search::SearchError) -> AssetError {
    let what = what.into();
    move |source| AssetError::Index { what, source }
}

/// The browser search module, built for wasm32 by the root build script.
static WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/kbook_search_wasm.wasm"));
/// The page-side loader and UI.
static SEARCH_JS: &str = include_str!("../static/search.js");

/// The page-side script (a fixed name: pages link it with a `?v=` version).
pub const SEARCH_JS_PATH: &str = "search/search.js";
/// Where the script finds the other search files over http: a small fixed-name file, fetched
/// past caches, so no page has to name the content-hashed index (one changed entry would
/// otherwise change every page).
pub const MANIFEST_JSON_PATH: &str = "search/manifest.json";
/// The same for file:// pages, which cannot fetch but can load scripts.
pub const MANIFEST_JS_PATH: &str = "search/manifest.js";

/// search.js as the build writes it (pages version their link to it by its bytes).
pub fn search_js_file() -> (String, Vec<u8>) {
    (SEARCH_JS_PATH.to_string(), SEARCH_JS.as_bytes().to_vec())
}

/// Files the build writes for search, and where pages find them.
#[derive(Debug, Clone)]
pub struct SearchAssets {
    /// (path relative to the site root, bytes).
    pub files: Vec<OutputFile>,
    /// Paths of the search files, as search/manifest.* lists them.
    pub meta: SearchMeta,
}

/// Paths (relative to the site root) of the search assets, as the page script reads them from
/// search/manifest.json (http) or search/manifest.js (file://).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
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
fn js_wrapper(key: &str, bytes: &[u8]) -> Vec<u8> {
    use base64::Engine as _;
    // A string always serialises; the fallback only keeps this free of a panic path.
    let key_json = serde_json::to_string(key).unwrap_or_else(|_| "\"\"".to_string());
    let prefix = format!("(window.__kbookAssets = window.__kbookAssets || {{}})[{key_json}] = \"");
    // One buffer, encoded into in place: the copy of a large book's index is hundreds of MB.
    let mut js = String::with_capacity(prefix.len() + bytes.len().div_ceil(3) * 4 + 3);
    js.push_str(&prefix);
    base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut js);
    js.push_str("\";\n");
    js.into_bytes()
}

/// The entries to index: all at hand, or made a batch at a time (in entry order) as the
/// index writer takes them, so making them runs while the index is written.
pub enum Entries<'a> {
    /// Every entry.
    All(&'a [EntryDoc]),
    /// Batches of entries.
    Batches(&'a mut (dyn Iterator<Item = Vec<EntryDoc>> + Send)),
}

/// Where made files go: written at once with a site writer (and freed), else kept for the
/// caller.
#[derive(Clone, Copy)]
struct Emitter<'w>(Option<&'w SiteWriter>);

impl Emitter<'_> {
    /// Writes or keeps one file; borrowed bytes are copied only when kept.
    fn emit(&self, path: String, bytes: Cow<[u8]>, kept: &mut Vec<OutputFile>) -> Result<()> {
        match self.0 {
            Some(w) => w
                .write(&path, &bytes)
                .map_err(io("cannot write the search files")),
            None => {
                kept.push((path, Arc::new(bytes.into_owned())));
                Ok(())
            }
        }
    }
}

/// Builds the packed index and the other search assets for `entries`. `kbook serve` reuses the
/// index segments in `kept` (an edit re-indexes only the chunk of entries that holds it);
/// a site to publish gets one segment. With a `writer`, a site's files are written as they
/// are made and each is freed at once (the index, its script copy and its blocks would
/// otherwise all be in memory together); the returned assets hold the others.
pub fn build_search_assets(
    entries: Entries<'_>,
    mode: AssetMode,
    kept: &mut kbook_search::KeptSegments,
    writer: Option<&SiteWriter>,
) -> Result<SearchAssets> {
    let timing = crate::progress::Progress::new(false);
    timing.stage("writing the search index");
    let out = Emitter(writer);
    let mut files: Vec<OutputFile> = Vec::new();
    let (path, js) = search_js_file();
    out.emit(path, js.into(), &mut files)?;
    let meta = match mode {
        AssetMode::Serve => serve_files(entries, kept, out, &mut files)?,
        AssetMode::Publish => {
            // The module's files do not depend on the index: they are made while it is
            // written (the index writer leaves a core partly idle).
            let (index, module) = rayon::join(
                || {
                    match entries {
                        Entries::All(docs) => kbook_search::build_packed_index(docs),
                        Entries::Batches(batches) => {
                            kbook_search::build_packed_index_batched(batches)
                        }
                    }
                    .map_err(search_err("cannot build the search index"))
                },
                || module_files(out),
            );
            let index = index?;
            let (module, wasm_path, wasm_js_path) = module?;
            files.extend(module);
            timing.stage("writing the search files");
            let (index_files, meta) = index_files(&index, wasm_path, wasm_js_path, out)?;
            files.extend(index_files);
            meta
        }
    };
    for (path, bytes) in manifest_files(&meta)? {
        out.emit(path, bytes.into(), &mut files)?;
    }
    Ok(SearchAssets { files, meta })
}

/// `kbook serve`'s index and module, under fixed names, the index whole.
fn serve_files(
    entries: Entries<'_>,
    kept: &mut kbook_search::KeptSegments,
    out: Emitter<'_>,
    files: &mut Vec<OutputFile>,
) -> Result<SearchMeta> {
    let collected: Vec<EntryDoc>;
    let docs = match entries {
        Entries::All(docs) => docs,
        Entries::Batches(batches) => {
            collected = batches.flatten().collect();
            &collected
        }
    };
    let index = kbook_search::build_packed_index_keeping(docs, kept)
        .map_err(search_err("cannot build the search index"))?;
    let meta = SearchMeta {
        index: "search/index.bin".into(),
        wasm: "search/kbook-search.wasm".into(),
        index_js: None,
        wasm_js: None,
        head: None,
        blocks: None,
    };
    out.emit(meta.index.clone(), index.into(), files)?;
    out.emit(meta.wasm.clone(), WASM.into(), files)?;
    Ok(meta)
}

/// The browser module and its file:// script copy; their paths.
fn module_files(out: Emitter<'_>) -> Result<(Vec<OutputFile>, String, String)> {
    let mut kept = Vec::new();
    let wasm_path = format!("search/kbook-search.{}.wasm", short_hash(WASM));
    out.emit(wasm_path.clone(), WASM.into(), &mut kept)?;
    // Named by the module's hash: the script is made from the module alone.
    let wasm_js_path = wasm_path.replace(".wasm", ".js");
    let wasm_js = js_wrapper(&wasm_path, WASM);
    out.emit(wasm_js_path.clone(), wasm_js.into(), &mut kept)?;
    Ok((kept, wasm_path, wasm_js_path))
}

/// The published index, its file:// script copy, its head and blocks for http; the manifest
/// data naming them and the module's files.
fn index_files(
    index: &[u8],
    wasm_path: String,
    wasm_js_path: String,
    out: Emitter<'_>,
) -> Result<(Vec<OutputFile>, SearchMeta)> {
    // Read off the index's header (which holds its checksum): no pass over the bytes.
    let index_hash = kbook_search::packed_digest(index)
        .map(|d| format!("{d:016x}"))
        .ok_or_else(|| {
            AssetError::Missing("the freshly built search index has no header".to_string())
        })?;
    let index_path = format!("search/index.{index_hash}.bin");
    // Named by the index's hash: the script is made from the index alone.
    let index_js_path = format!("search/index.{index_hash}.js");
    let head_path = format!("search/index.{index_hash}.head");
    let blocks_dir = format!("search/blocks.{index_hash}/");
    // Checking that the index opens (then writing it), its file:// script and its http
    // blocks are independent: made side by side. Nothing is in place before the writer
    // commits, so an index that does not open is never published.
    let (opens, (script, http)) = rayon::join(
        || -> Result<Vec<OutputFile>> {
            BookIndex::open_bytes(index)
                .map_err(search_err("the freshly built search index does not open"))?;
            let mut kept = Vec::new();
            out.emit(index_path.clone(), Cow::Borrowed(index), &mut kept)?;
            Ok(kept)
        },
        || {
            rayon::join(
                || -> Result<Vec<OutputFile>> {
                    let mut kept = Vec::new();
                    let js = js_wrapper(&index_path, index);
                    out.emit(index_js_path.clone(), js.into(), &mut kept)?;
                    Ok(kept)
                },
                || -> Result<Vec<OutputFile>> {
                    // Over http the browser loads the head and fetches blocks as searches
                    // need them.
                    let mut kept = Vec::new();
                    let split = kbook_search::blocks::split_packed_ranges(index)
                        .map_err(search_err("cannot split the search index"))?;
                    out.emit(head_path.clone(), split.head.into(), &mut kept)?;
                    for (i, block) in split.blocks.into_iter().enumerate() {
                        let path = format!("{blocks_dir}{i}.bin");
                        out.emit(path, index[block].into(), &mut kept)?;
                    }
                    Ok(kept)
                },
            )
        },
    );
    let mut files = opens?;
    files.extend(script?);
    files.extend(http?);
    let meta = SearchMeta {
        index: index_path,
        wasm: wasm_path,
        index_js: Some(index_js_path),
        wasm_js: Some(wasm_js_path),
        head: Some(head_path),
        blocks: Some(blocks_dir),
    };
    Ok((files, meta))
}

/// search/manifest.json and search/manifest.js for `meta`.
fn manifest_files(meta: &SearchMeta) -> Result<[(String, Vec<u8>); 2]> {
    let json = serde_json::to_string(meta).map_err(|source| AssetError::Json {
        what: "cannot serialise the search manifest".to_string(),
        source,
    })?;
    Ok([
        (
            MANIFEST_JSON_PATH.to_string(),
            format!("{json}\n").into_bytes(),
        ),
        (
            MANIFEST_JS_PATH.to_string(),
            format!("window.__kbookSearch = {json};\n").into_bytes(),
        ),
    ])
}

/// Reads search/manifest.json of the built site `site`.
pub fn read_manifest(site: &Path) -> Result<SearchMeta> {
    let path = site.join(MANIFEST_JSON_PATH);
    let text = std::fs::read_to_string(&path).map_err(|e| unreadable(site, &path, e))?;
    serde_json::from_str(&text).map_err(|source| AssetError::Json {
        what: format!(
            "{} is not a search manifest: rebuild the site",
            path.display()
        ),
        source,
    })
}

// ------------------------------------------------------------------ reading a built site

/// A file or folder of the site `site` that could not be read: what to do depends on why (a
/// missing build, a folder given one level too deep, permissions).
fn unreadable(site: &Path, path: &Path, e: std::io::Error) -> AssetError {
    if e.kind() != std::io::ErrorKind::NotFound {
        return AssetError::Io {
            what: format!("cannot read {}", path.display()),
            source: e,
        };
    }
    AssetError::Missing(no_index_message(site, path))
}

/// Why `site` has no index at `missing`, and what to give instead. Read only when the index
/// is missing.
fn no_index_message(site: &Path, missing: &Path) -> String {
    if !site.exists() {
        return format!(
            "{} does not exist: give --site the folder `kbook build` wrote (its --dest, or the book's build-dir), or build it first",
            site.display()
        );
    }
    if !site.is_dir() {
        return format!(
            "{} is not a folder: give --site the folder `kbook build` wrote",
            site.display()
        );
    }
    // The search folder itself (`--site site/search`).
    if site
        .join(MANIFEST_JSON_PATH.trim_start_matches("search/"))
        .is_file()
        && let Some(parent) = site.parent()
    {
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        return format!(
            "{} is the site's search folder: give the site itself, {}",
            site.display(),
            parent.display()
        );
    }
    // A site `kbook index` added search to holds it in a folder of its own (`kbook/`).
    let indexed = std::fs::read_dir(site).ok().and_then(|items| {
        items.flatten().map(|e| e.path()).find(|p| {
            p.join(crate::site_index::LOADER).is_file() && p.join(MANIFEST_JSON_PATH).is_file()
        })
    });
    match indexed {
        Some(sub) => format!(
            "no search index in {}: this site's search is in {} (give that as --site)",
            site.display(),
            sub.display()
        ),
        None => format!(
            "no search index in {} ({} is missing): build the site with `kbook build`, or give --site the folder it wrote",
            site.display(),
            missing.display()
        ),
    }
}

/// Finds the packed index of the built site `site`: the one its manifest names, or (a site
/// without one) the newest `search/index.*.bin`.
pub fn find_index(site: &Path) -> Result<PathBuf> {
    let manifest = site.join(MANIFEST_JSON_PATH);
    match std::fs::metadata(&manifest) {
        Ok(_) => return Ok(site.join(read_manifest(site)?.index)),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(unreadable(site, &manifest, e));
        }
        Err(_) => {}
    }
    let dir = site.join("search");
    let entries = std::fs::read_dir(&dir).map_err(|e| unreadable(site, &dir, e))?;
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    for e in entries {
        let e = e.map_err(io(format!("cannot list {}", dir.display())))?;
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
        None => Err(AssetError::Missing(no_index_message(
            site,
            &dir.join("index.*.bin"),
        ))),
    }
}

/// Opens the packed index of the built site `site`.
pub fn open_index(site: &Path) -> Result<BookIndex> {
    let path = find_index(site)?;
    let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
        // The manifest names an index the folder no longer holds.
        std::io::ErrorKind::NotFound => AssetError::Missing(format!(
            "{} is missing (search/manifest.json names it): rebuild the site with `kbook build`",
            path.display()
        )),
        _ => AssetError::Io {
            what: format!("cannot read {}", path.display()),
            source: e,
        },
    })?;
    BookIndex::open(bytes).map_err(search_err(format!(
        "cannot open {}: rebuild the book",
        path.display()
    )))
}

/// The index document of entry `e`; `connectors` are the book's connectors by slug.
pub(crate) fn entry_doc(
    e: &crate::content::Entry,
    body: &crate::render::markdown::RenderedBody,
    connectors: &std::collections::HashMap<&str, &crate::config::ConnectorConfig>,
) -> kbook_search::EntryDoc {
    let connector = connectors.get(e.fm.connector.as_str());
    kbook_search::EntryDoc {
        id: e.id.clone(),
        url: e.url.clone(),
        title: e.fm.title.clone(),
        connector: e.fm.connector.clone(),
        connector_aliases: connector.map(|c| c.aliases.clone()).unwrap_or_default(),
        cross_connector: connector.is_some_and(|c| c.cross_connector),
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
        anchors: body.anchors.clone(),
    }
}
