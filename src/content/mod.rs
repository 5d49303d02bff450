//! Loading a book's entries: walk the content directory, split and parse each file, then
//! validate what only the whole book can tell (duplicate ids, related ids, output paths:
//! `book_checks`).

mod book_checks;
pub mod fix;
pub mod frontmatter;

use crate::config::Config;
use crate::diagnostic::{Diagnostic, line_col};
use crate::urls;
use frontmatter::{EntryFrontMatter, Locator};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Front-matter longer than this is refused before the YAML/TOML parser sees it. It bounds
/// the parser's time and memory (deep nesting, alias expansion) on hostile input; real
/// front-matter is a few hundred bytes.
pub const MAX_FRONT_MATTER_BYTES: usize = 64 * 1024;

/// One knowledge-base entry, parsed and validated.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Unique id (front-matter `id` or the file stem).
    pub id: String,
    /// Path for messages, relative to the book root (e.g. `content/kafka/x.md`).
    pub path: PathBuf,
    /// Path relative to the content directory, `/`-separated (for edit links and link resolution).
    pub rel_path: String,
    /// Front-matter.
    pub fm: EntryFrontMatter,
    /// Markdown body.
    pub body: String,
    /// 1-based line of the body's first line in the file.
    pub body_line: usize,
    /// Output path relative to the site root: `<connector>/<id>.html`.
    pub url: String,
    /// Key and value positions in the front-matter.
    pub locator: Locator,
}

/// The loaded entries in a stable order (by connector, then id).
#[derive(Debug, Clone, Default)]
pub struct Book {
    /// Entries sorted by (connector, id); shared with the rebuild cache of `kbook serve`, so a
    /// rebuild copies no unchanged entry.
    pub entries: Vec<Arc<Entry>>,
    /// The ids (file stems) of entry files that could not be read or parsed: their errors
    /// say why, so links and `related` ids naming them are not reported as missing too.
    pub unread: std::collections::HashSet<String>,
}

impl Book {
    /// Index of entries by id.
    pub fn by_id(&self) -> HashMap<&str, &Entry> {
        self.entries.iter().map(|e| (e.id.as_str(), &**e)).collect()
    }
}

/// Reads and validates every entry. Returns the entries that parsed (so later stages can
/// still report their own problems) and every diagnostic.
pub fn load(config: &Config) -> (Book, Vec<Diagnostic>) {
    load_cached(config, &mut LoadCache::default())
}

/// A file's identity for the rebuild cache: size and modification time.
type Stamp = (u64, Option<std::time::SystemTime>);

/// One file after loading: path, stamp, the entry when it parsed, and its diagnostics.
type LoadedFile = (PathBuf, Option<Stamp>, Option<Arc<Entry>>, Vec<Diagnostic>);

/// A parsed file in the rebuild cache: its stamp, entry and diagnostics.
type CachedFile = (Stamp, Option<Arc<Entry>>, Vec<Diagnostic>);

/// Parsed files kept between rebuilds of `kbook serve`, keyed by path; a file is parsed
/// again only when its size or modification time changed.
#[derive(Debug, Default)]
pub struct LoadCache {
    files: HashMap<PathBuf, CachedFile>,
    kinds: Vec<String>,
    max_bytes: u64,
    keep: bool,
}

impl LoadCache {
    /// A cache that keeps parsed files for the next rebuild (a one-shot build keeps nothing).
    pub fn keeping() -> Self {
        LoadCache {
            keep: true,
            ..LoadCache::default()
        }
    }
}

/// [`load`], reusing the entries of unchanged files from `cache`.
pub fn load_cached(config: &Config, cache: &mut LoadCache) -> (Book, Vec<Diagnostic>) {
    let src = config.src_dir();
    let mut diags = Vec::new();
    let files = discover(&src, &config.root, &mut diags);
    let kinds = config.kinds();
    let max_bytes = config.max_entry_bytes();
    if cache.kinds != kinds || cache.max_bytes != max_bytes {
        cache.files.clear();
        cache.kinds = kinds.clone();
        cache.max_bytes = max_bytes;
    }
    let stamp = |f: &Path| {
        std::fs::metadata(f)
            .map(|m| (m.len(), m.modified().ok()))
            .ok()
    };
    let results: Vec<LoadedFile> = files
        .into_par_iter()
        .map(|file| {
            let st = stamp(&file);
            if let Some((old, e, d)) = cache.files.get(&file)
                && st.as_ref() == Some(old)
            {
                return (file, st, e.clone(), d.clone());
            }
            let (e, d) = load_entry(&file, &src, &config.root, &kinds, max_bytes);
            (file, st, e.map(Arc::new), d)
        })
        .collect();
    cache.files.clear();
    let mut entries = Vec::with_capacity(results.len());
    let mut unread = std::collections::HashSet::new();
    for (file, st, entry, d) in results {
        if entry.is_none()
            && let Some(stem) = file.file_stem()
        {
            unread.insert(stem.to_string_lossy().into_owned());
        }
        match st {
            Some(st) if cache.keep => {
                diags.extend(d.iter().cloned());
                entries.extend(entry.clone());
                cache.files.insert(file, (st, entry, d));
            }
            _ => {
                diags.extend(d);
                entries.extend(entry);
            }
        }
    }
    entries
        .sort_by(|a, b| (&a.fm.connector, &a.id, &a.path).cmp(&(&b.fm.connector, &b.id, &b.path)));
    let book = Book { entries, unread };
    book_checks::validate_book(&book, config, &mut diags);
    (book, diags)
}

/// Lists the `.md` files under `src`, sorted; symlinks inside it are refused (`src` itself
/// may be one, to a folder several books or a repository's docs share).
fn discover(src: &Path, root: &Path, diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    if !src.is_dir() {
        // A link whose target is gone or not a folder is said as such, not as a folder to make.
        if let Ok(target) = std::fs::read_link(src) {
            diags.push(
                Diagnostic::error(
                    display_path(src, root),
                    0,
                    0,
                    format!(
                        "the content directory is a link to {}, which is not a folder",
                        target.display()
                    ),
                )
                .with_hint(
                    "point the link at the folder of entries, or set `[book] src` in book.toml",
                ),
            );
            return Vec::new();
        }
        // Without a book.toml this is most likely not the book's folder at all.
        let hint = if root.join("book.toml").is_file() {
            "create it, or set `[book] src` in book.toml to where the entries are".to_string()
        } else {
            format!(
                "{} has no book.toml either: run kbook in the book's folder, pass --book DIR, \
                 or start one with `kbook init`",
                root.display()
            )
        };
        diags.push(
            Diagnostic::error(
                display_path(src, root),
                0,
                0,
                "the content directory does not exist",
            )
            .with_hint(hint),
        );
        return Vec::new();
    }
    let mut files = Vec::new();
    // Hidden files and folders, editors' lock, backup and autosave files (`.#entry.md`,
    // `entry.md~`, `#entry.md#`) are not entries, as in mdBook, Zola and Hugo.
    let skipped = |e: &walkdir::DirEntry| {
        let name = e.file_name().to_string_lossy();
        e.depth() > 0
            && (name.starts_with('.')
                || name.ends_with('~')
                || (name.starts_with('#') && name.ends_with('#')))
    };
    for item in walkdir::WalkDir::new(src)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !skipped(e))
    {
        match item {
            Ok(e) if e.path_is_symlink() && e.depth() > 0 => diags.push(
                Diagnostic::error(display_path(e.path(), root), 1, 1, "symbolic links are not followed in the content directory")
                    .with_hint("replace the link with the file itself, or move the target into the content directory"),
            ),
            Ok(e) if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md") => files.push(e.into_path()),
            // A FIFO, socket or device named `*.md` would block or never end: refuse it
            // rather than read it or drop it silently.
            Ok(e) if !e.file_type().is_dir() && e.path().extension().is_some_and(|x| x == "md") => diags.push(
                Diagnostic::error(display_path(e.path(), root), 1, 1, "not a regular file")
                    .with_hint("entries are plain text files; remove this one or replace it with a file"),
            ),
            // Another spelling of Markdown's extension is said, not dropped silently.
            Ok(e) if e.file_type().is_file()
                && e.path().extension().is_some_and(|x| {
                    let x = x.to_string_lossy().to_ascii_lowercase();
                    x == "md" || x == "markdown"
                }) =>
            {
                diags.push(
                    Diagnostic::warning(display_path(e.path(), root), 1, 1, "not read: entries are `.md` files")
                        .with_hint("rename it to end in `.md` (lowercase) to make it an entry"),
                );
            }
            Ok(_) => {}
            Err(e) => {
                let p = e.path().map_or_else(|| src.to_path_buf(), Path::to_path_buf);
                diags.push(
                    Diagnostic::error(display_path(&p, root), 1, 1, format!("cannot read: {e}")).with_hint("check the file's permissions"),
                );
            }
        }
    }
    files
}

/// `path` relative to the book root when it lies inside it.
pub fn display_path(path: &Path, root: &Path) -> PathBuf {
    path.strip_prefix(root)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

fn load_entry(
    file: &Path,
    src: &Path,
    root: &Path,
    kinds: &[String],
    max_bytes: u64,
) -> (Option<Entry>, Vec<Diagnostic>) {
    let shown = display_path(file, root);
    // Read at most one byte past the limit: a file that grows after `metadata` (or a special
    // file reporting length 0) still cannot make us read more than the limit.
    let read = std::fs::File::open(file).and_then(|f| {
        use std::io::Read;
        let mut bytes = Vec::new();
        f.take(max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)?;
        Ok(bytes)
    });
    let bytes = match read {
        Ok(b) if b.len() as u64 > max_bytes => {
            let d = Diagnostic::error(
                &shown,
                1,
                1,
                format!("the file is larger than the limit for an entry ({max_bytes} bytes)"),
            )
            .with_hint(
                "split it into several entries, or raise `[kbook] max-entry-bytes` in book.toml",
            );
            return (None, vec![d]);
        }
        Ok(b) => b,
        Err(e) => {
            let d = Diagnostic::error(&shown, 1, 1, format!("cannot read the file: {e}"))
                .with_hint("check that it exists and is readable");
            return (None, vec![d]);
        }
    };
    parse_entry(&bytes, file, src, root, kinds)
}

/// Parses the bytes of the entry file `file` (in content directory `src` of the book at
/// `root`): UTF-8, front-matter, id. Pure, so it can be fuzzed; never panics.
pub fn parse_entry(
    bytes: &[u8],
    file: &Path,
    src: &Path,
    root: &Path,
    kinds: &[String],
) -> (Option<Entry>, Vec<Diagnostic>) {
    let shown = display_path(file, root);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let good = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let (line, col) = line_col(good, good.len());
            let d = Diagnostic::error(&shown, line, col, "the file is not valid UTF-8")
                .with_hint("save the file as UTF-8");
            return (None, vec![d]);
        }
    };
    if let Some(i) = text.find('\0') {
        let (line, col) = line_col(text, i);
        let d = Diagnostic::error(&shown, line, col, "the file contains a NUL byte")
            .with_hint("remove it; entries are text files");
        return (None, vec![d]);
    }
    // A BOM and CRLF line endings are accepted; line numbers stay the same after this.
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n");
    let doc = match frontmatter::split(&text, &shown) {
        Ok(d) => d,
        Err(d) => return (None, vec![d]),
    };
    let (fm, locator, mut diags) = frontmatter::parse(&doc, &shown, kinds);
    let Some(fm) = fm else {
        return (None, diags);
    };
    if doc.body.trim().is_empty() {
        diags.push(
            Diagnostic::error(
                &shown,
                doc.body_line.saturating_sub(1),
                1,
                "the entry has no body",
            )
            .with_hint(
                "write the entry below the front-matter (e.g. ## Symptom, ## Cause, ## Solution)",
            ),
        );
    }
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let id = fm.id.clone().unwrap_or_else(|| stem.clone());
    if fm.id.is_none() && !crate::config::is_slug(&id) {
        diags.push(
            Diagnostic::error(&shown, 1, 1, format!("the file name `{stem}` is not a valid id"))
                .with_hint("rename the file to ASCII lowercase letters (a–z), digits and hyphens, or set `id:` in the front-matter"),
        );
    }
    let rel_path = file
        .strip_prefix(src)
        .unwrap_or(file)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    let url = urls::entry_page(&fm.connector, &id);
    let entry = Entry {
        id,
        path: shown,
        rel_path,
        body: doc.body.to_string(),
        body_line: doc.body_line,
        url,
        locator,
        fm,
    };
    (Some(entry), diags)
}
