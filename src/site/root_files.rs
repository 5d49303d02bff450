//! The book's `root/` folder: files copied to the site's root as they are, for what a static
//! host reads there (`CNAME`, `robots.txt`, `.nojekyll`, `_headers`, `_redirects`,
//! `.well-known/…`, a search engine's verification page). Hidden files are kept, since hosts
//! read several; editors' backup and swap files are not.

use crate::diagnostic::Diagnostic;
use crate::output::{OutputFile, SiteWriter};
use std::path::Path;
use std::sync::Arc;

/// The book's folder copied to the site's root.
pub const ROOT_DIR: &str = "root";

/// Files of `book_root/root/` as (site path, bytes), and the problems of those that cannot be
/// copied (a symbolic link, an unreadable file).
pub fn read(book_root: &Path) -> (Vec<(String, Vec<u8>)>, Vec<Diagnostic>) {
    let dir = book_root.join(ROOT_DIR);
    let mut files = Vec::new();
    let mut diags = Vec::new();
    if !dir.is_dir() {
        return (files, diags);
    }
    let shown = |p: &Path| {
        Path::new(ROOT_DIR)
            .join(p.strip_prefix(&dir).unwrap_or(p))
            .display()
            .to_string()
    };
    let backup = |e: &walkdir::DirEntry| {
        let name = e.file_name().to_string_lossy();
        e.depth() > 0
            && (name.ends_with('~')
                || name.starts_with(".#")
                || (name.starts_with('#') && name.ends_with('#'))
                || (name.starts_with('.') && (name.ends_with(".swp") || name.ends_with(".swx")))
                || name == ".DS_Store")
    };
    for item in walkdir::WalkDir::new(&dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !backup(e))
    {
        let item = match item {
            Ok(item) => item,
            Err(e) => {
                let path = e.path().map_or_else(|| ROOT_DIR.to_string(), shown);
                diags.push(
                    Diagnostic::error(path, 1, 1, format!("cannot read: {e}"))
                        .with_hint("make it readable, or move it out of root/"),
                );
                continue;
            }
        };
        if item.path_is_symlink() {
            diags.push(
                Diagnostic::error(
                    shown(item.path()),
                    1,
                    1,
                    "symbolic links in root/ are not followed",
                )
                .with_hint("replace the link with the file itself"),
            );
        } else if item.file_type().is_file() {
            let rel = item.path().strip_prefix(&dir).unwrap_or(item.path());
            let site_path = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            match std::fs::read(item.path()) {
                Ok(bytes) => files.push((site_path, bytes)),
                Err(e) => diags.push(
                    Diagnostic::error(shown(item.path()), 1, 1, format!("cannot read: {e}"))
                        .with_hint("make it readable, or move it out of root/"),
                ),
            }
        }
    }
    (files, diags)
}

/// Adds the root files to the site's `files` (sorted by path), or names each one that would
/// replace a file the site writes, or stand where it needs a folder or the reverse. The site
/// is `files` and what `writer` has written already.
pub fn add(
    files: &mut Vec<OutputFile>,
    root: Vec<(String, Vec<u8>)>,
    writer: Option<&SiteWriter>,
) -> Result<(), Vec<Diagnostic>> {
    let listed: std::collections::BTreeSet<&str> = files.iter().map(|f| f.0.as_str()).collect();
    let is_file = |p: &str| listed.contains(p) || writer.and_then(|w| w.holds(p)) == Some(false);
    let is_dir = |p: &str| {
        let inside = format!("{p}/");
        listed
            .range(inside.as_str()..)
            .next()
            .is_some_and(|w| w.starts_with(&inside))
            || writer.and_then(|w| w.holds(p)) == Some(true)
    };
    let mut diags = Vec::new();
    for (path, _) in &root {
        let clash = if is_file(path) {
            Some(format!("the site writes `{path}` itself"))
        } else if is_dir(path) {
            Some(format!(
                "the site writes the folder `{path}/`, so this file cannot be there"
            ))
        } else {
            path.match_indices('/')
                .map(|(i, _)| &path[..i])
                .find(|folder| is_file(folder))
                .map(|file| {
                    format!("the site writes the file `{file}`, which this would need as a folder")
                })
        };
        if let Some(why) = clash {
            diags.push(
                Diagnostic::error(format!("{ROOT_DIR}/{path}"), 1, 1, why)
                    .with_hint("root/ holds files the site does not make (CNAME, robots.txt, …): rename or remove this one"),
            );
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    files.extend(root.into_iter().map(|(p, b)| (p, Arc::new(b))));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(paths: &[&str]) -> Vec<OutputFile> {
        paths
            .iter()
            .map(|p| (p.to_string(), Arc::new(Vec::new())))
            .collect()
    }

    #[test]
    fn root_files_join_the_site_unless_they_clash_with_its_own() {
        let mut files = site(&["index.html", "kafka/index.html", "search/manifest.json"]);
        let root = vec![
            ("CNAME".to_string(), b"kb.example.org\n".to_vec()),
            (".well-known/security.txt".to_string(), Vec::new()),
        ];
        add(&mut files, root, None).unwrap();
        let paths: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".well-known/security.txt",
                "CNAME",
                "index.html",
                "kafka/index.html",
                "search/manifest.json"
            ]
        );
        for (clash, says) in [
            ("index.html", "writes `index.html` itself"),
            ("kafka", "the folder `kafka/`"),
            ("index.html/x", "the file `index.html`"),
        ] {
            let mut files = site(&["index.html", "kafka/index.html"]);
            let d = add(&mut files, vec![(clash.to_string(), Vec::new())], None).unwrap_err();
            assert_eq!(d.len(), 1);
            assert!(d[0].message.contains(says), "{clash}: {}", d[0].message);
            assert_eq!(files.len(), 2, "nothing added on a clash");
        }
    }

    #[test]
    fn hidden_files_are_kept_and_editor_files_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(ROOT_DIR);
        std::fs::create_dir_all(root.join(".well-known")).unwrap();
        for f in [
            ".nojekyll",
            "CNAME",
            "CNAME~",
            ".CNAME.swp",
            ".well-known/security.txt",
        ] {
            std::fs::write(root.join(f), f).unwrap();
        }
        let (files, diags) = read(dir.path());
        assert!(diags.is_empty(), "{diags:?}");
        let paths: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(paths, [".nojekyll", ".well-known/security.txt", "CNAME"]);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("CNAME"), root.join("robots.txt")).unwrap();
            let (_, diags) = read(dir.path());
            assert_eq!(diags.len(), 1);
            assert!(diags[0].message.contains("symbolic link"), "{diags:?}");
        }
    }
}
