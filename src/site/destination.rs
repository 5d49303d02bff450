//! Whether a directory may take the site: a build replaces the whole destination, so it must
//! not be, hold or sit inside the book's sources, and a directory that already exists must be
//! an earlier kbook site (or empty), not a folder of the reader's own files.

use crate::config::Config;
use crate::diagnostic::Diagnostic;
use std::path::{Component, Path, PathBuf};

/// An error naming `dest` when writing the site there would delete or overwrite what kbook did
/// not write; `None` when it is safe.
pub fn refuse(dest: &Path, config: &Config) -> Option<Diagnostic> {
    let error = |msg: String, hint: &str| Some(Diagnostic::error(dest, 0, 0, msg).with_hint(hint));
    let own_dir = "a build replaces the whole destination: name a directory of its own \
                   (`--dest`, or `build-dir` under [build] in book.toml)";
    let at = resolved(dest);
    let root = resolved(&config.root);
    if root.starts_with(&at) {
        return error(
            format!("the destination {} holds the book itself", dest.display()),
            own_dir,
        );
    }
    if let Some(msg) = among_sources(&at, dest, config) {
        return error(format!("the destination {msg}"), own_dir);
    }
    crate::output::not_replaceable(dest, crate::search_assets::MANIFEST_JSON_PATH).map(
        |(msg, hint)| {
            Diagnostic::error(dest, 0, 0, format!("the destination {msg}")).with_hint(hint)
        },
    )
}

/// Whether `path` is, holds or sits inside one of the book's sources: what to say if so.
fn among_sources(at: &Path, path: &Path, config: &Config) -> Option<String> {
    let sources = [
        (config.root.join("book.toml"), "book.toml"),
        (config.src_dir(), "content directory"),
        (config.root.join("static"), "static directory"),
        (config.root.join("templates"), "templates directory"),
        (
            config.root.join(super::root_files::ROOT_DIR),
            "root directory",
        ),
    ];
    sources.into_iter().find_map(|(source, what)| {
        let source = resolved(&source);
        let relation = if source == at {
            "is"
        } else if source.starts_with(at) {
            "holds"
        } else if at.starts_with(&source) {
            "is inside"
        } else {
            return None;
        };
        Some(format!("{} {relation} the book's {what}", path.display()))
    })
}

/// Why the offline bundle or the single-file book cannot be written to `path` (a file kbook
/// replaces): it is one of the book's sources, or a directory.
pub fn refuse_file(path: &Path, config: &Config) -> Option<String> {
    if let Some(msg) = among_sources(&resolved(path), path, config) {
        return Some(msg);
    }
    path.is_dir()
        .then(|| format!("{} is a directory", path.display()))
}

/// `path` made absolute, with symbolic links and `..` resolved as far as it exists (what
/// does not exist yet is appended as written, less `.` and `..`).
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            for c in rest.iter().rev() {
                match c {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::Normal(n) => out.push(n),
                    _ => {}
                }
            }
            return out;
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(dir: &Path) -> Config {
        std::fs::write(dir.join("book.toml"), "[book]\ntitle = \"t\"\n").unwrap();
        std::fs::create_dir_all(dir.join("content/kafka")).unwrap();
        std::fs::create_dir_all(dir.join("static")).unwrap();
        Config::load(dir).unwrap()
    }

    fn message(dest: &Path, config: &Config) -> Option<String> {
        refuse(dest, config).map(|d| d.message)
    }

    #[test]
    fn sources_files_and_foreign_folders_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("kb");
        std::fs::create_dir_all(&root).unwrap();
        let config = book(&root);
        let said = |p: &Path| message(p, &config).unwrap_or_default();
        assert!(said(&root).contains("holds the book itself"));
        assert!(said(dir.path()).contains("holds the book itself"));
        assert!(said(&root.join("content")).contains("is the book's content directory"));
        assert!(said(&root.join("content/kafka")).contains("is inside the book's content"));
        assert!(said(&root.join("static/site")).contains("is inside the book's static"));
        assert!(said(&root.join("book.toml")).contains("is the book's book.toml"));
        // Spelt another way, the same directory.
        assert!(said(&root.join("out/../content")).contains("content directory"));
        let file = root.join("notes.txt");
        std::fs::write(&file, "mine").unwrap();
        assert!(said(&file).contains("is a file"));
        let foreign = root.join("public");
        std::fs::create_dir_all(&foreign).unwrap();
        std::fs::write(foreign.join("thesis.txt"), "mine").unwrap();
        assert!(said(&foreign).contains("holds files kbook did not write"));
    }

    #[test]
    fn new_empty_and_earlier_sites_are_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let config = book(dir.path());
        assert_eq!(message(&dir.path().join("book"), &config), None);
        assert_eq!(message(&dir.path().join("out/site"), &config), None);
        let empty = dir.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        assert_eq!(message(&empty, &config), None);
        let earlier = dir.path().join("public");
        std::fs::create_dir_all(earlier.join("search")).unwrap();
        std::fs::write(earlier.join("search/manifest.json"), "{}").unwrap();
        std::fs::write(earlier.join("index.html"), "").unwrap();
        assert_eq!(message(&earlier, &config), None);
    }
}
