//! The book's `root/` folder: files copied to the site's root as they are, for what a static
//! host reads there (`CNAME`, `robots.txt`, `.nojekyll`, `_headers`, `_redirects`,
//! `.well-known/…`, a search engine's verification page). Hidden files are kept, since hosts
//! read several; editors' backup and swap files are not.

use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::output::{OutputFile, SiteWriter};
use crate::urls;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::Path;
use std::sync::Arc;

/// The book's folder copied to the site's root.
pub const ROOT_DIR: &str = "root";

/// Files of the book's `root/` as (site path, bytes), and the problems of those that cannot
/// be copied (a symbolic link inside it, an unreadable file, a name that is not UTF-8). When
/// the content directory is `root/` (or they overlap), nothing is copied: the entries' sources
/// would be published.
pub fn read(config: &Config) -> (Vec<(String, Vec<u8>)>, Vec<Diagnostic>) {
    let dir = config.root.join(ROOT_DIR);
    let mut files = Vec::new();
    let mut diags = Vec::new();
    if !dir.is_dir() {
        return (files, diags);
    }
    let src = config.src_dir();
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a.starts_with(&b) || b.starts_with(&a),
        _ => false,
    };
    if same(&dir, &src) {
        diags.push(
            Diagnostic::warning(
                ROOT_DIR,
                0,
                0,
                "root/ is also where the entries are (`[book] src`): nothing of it is copied to the site's root",
            )
            .with_hint("keep the entries in another folder (`src` in book.toml) to publish root/'s files"),
        );
        return (files, diags);
    }
    let shown = |p: &Path| {
        Path::new(ROOT_DIR)
            .join(p.strip_prefix(&dir).unwrap_or(p))
            .display()
            .to_string()
    };
    let skipped =
        |e: &walkdir::DirEntry| e.depth() > 0 && editor_file(&e.file_name().to_string_lossy());
    // root/ itself may be a link (one CNAME shared by several books), as static/ may.
    for item in walkdir::WalkDir::new(&dir)
        .follow_links(false)
        .follow_root_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !skipped(e))
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
        if item.depth() > 0 && item.path_is_symlink() {
            diags.push(
                Diagnostic::error(
                    shown(item.path()),
                    1,
                    1,
                    "symbolic links inside root/ are not followed",
                )
                .with_hint("replace the link with the file itself"),
            );
        } else if item.file_type().is_file() {
            let rel = item.path().strip_prefix(&dir).unwrap_or(item.path());
            let Some(site_path) = rel
                .components()
                .map(|c| c.as_os_str().to_str())
                .collect::<Option<Vec<_>>>()
                .map(|parts| parts.join("/"))
            else {
                diags.push(
                    Diagnostic::error(
                        shown(item.path()),
                        1,
                        1,
                        "the file's name is not UTF-8, which a URL cannot carry",
                    )
                    .with_hint("rename it with UTF-8 characters"),
                );
                continue;
            };
            match std::fs::read(item.path()) {
                Ok(bytes) => files.push((site_path, bytes)),
                Err(e) => diags.push(
                    Diagnostic::error(shown(item.path()), 1, 1, format!("cannot read: {e}"))
                        .with_hint("make it readable, or move it out of root/"),
                ),
            }
        }
    }
    // Copied both, they are one file once the site reaches a case-insensitive disk.
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for (p, _) in &files {
        if let Some(first) = seen.insert(folded(p), p) {
            diags.push(
                Diagnostic::warning(
                    format!("{ROOT_DIR}/{p}"),
                    1,
                    1,
                    format!("`{ROOT_DIR}/{first}` differs from this file only in case or accent encoding: on Windows and macOS disks one replaces the other"),
                )
                .with_hint("rename one of them"),
            );
        }
    }
    (files, diags)
}

/// Editors' backup, lock and swap files, which are never published (vim's `.x.swp` to
/// `.x.swa`, Emacs' `x~`, `#x#` and `.#x`, macOS's `.DS_Store`).
fn editor_file(name: &str) -> bool {
    let vim_swap = name.starts_with('.')
        && name
            .rsplit_once('.')
            .is_some_and(|(_, ext)| ext.len() == 3 && ext.starts_with("sw"));
    name.ends_with('~')
        || name.starts_with(".#")
        || (name.starts_with('#') && name.ends_with('#'))
        || vim_swap
        || name == ".DS_Store"
}

/// The root files that would replace a file the site writes whatever the build renders (its
/// fixed pages, theme files, entries' and connectors' pages, aliases' redirects), reported
/// with the book's other problems; [`add`] checks the rest once everything is rendered.
pub fn early_clashes(
    root: &[(String, Vec<u8>)],
    book: &crate::content::Book,
    static_names: &std::collections::HashSet<String>,
    config: &Config,
) -> Vec<Diagnostic> {
    if root.is_empty() {
        return Vec::new();
    }
    let site_url = config.output.html.site_url.is_some();
    let search_files = [
        crate::search_assets::SEARCH_JS_PATH,
        crate::search_assets::MANIFEST_JSON_PATH,
        crate::search_assets::MANIFEST_JS_PATH,
    ];
    // Without `site-url` the site writes no sitemap or OpenSearch file: a book's own may be
    // in root/.
    let mut planned: Vec<String> = urls::RESERVED_PATHS
        .iter()
        .filter(|p| site_url || ![urls::SITEMAP, urls::OPENSEARCH].contains(p))
        .chain(&search_files)
        .map(|p| p.to_string())
        .collect();
    planned.extend(static_names.iter().map(|n| format!("static/{n}")));
    // An alias's page is changed in its entry, not in root/ or the templates: say which.
    let mut aliases = std::collections::HashMap::new();
    for e in &book.entries {
        planned.push(urls::entry_page(&e.fm.connector, &e.id));
        planned.push(urls::connector_page(&e.fm.connector));
        for a in &e.fm.aliases {
            if let Some(page) = urls::alias_page(a) {
                let entry = crate::content::display_path(&e.path, &config.root);
                aliases.insert(
                    page.clone(),
                    format!("the alias `{a}` of {}", entry.display()),
                );
                planned.push(page);
            }
        }
    }
    planned.extend(urls::RESERVED_DIRS.iter().map(|d| format!("{d}/")));
    let site = SitePaths::new(planned.iter().map(String::as_str));
    let alias = |p: String, inside: &str| (p, aliases.get(inside).cloned());
    clashes(
        root,
        |p| site.file(p).map(|f| alias(f.clone(), &f)),
        |p| site.folder(p).map(|(f, inside)| alias(f, inside)),
    )
}

/// `path` as a case-insensitive disk compares names: composed (macOS stores `é` as `e` and
/// an accent) and case-folded one character at a time (`ſ`, `ς` and `S`, `Σ` alike), as
/// NTFS's and APFS's tables do, not as a sentence's lowercase.
fn folded(path: &str) -> String {
    // A character whose case maps to several (`ß` → `SS`) stays itself, as in those tables.
    fn single(mut mapped: impl Iterator<Item = char>, c: char) -> char {
        match (mapped.next(), mapped.next()) {
            (Some(x), None) => x,
            _ => c,
        }
    }
    icu_normalizer::ComposingNormalizerBorrowed::new_nfc()
        .normalize(path)
        .chars()
        .map(|c| {
            let upper = single(c.to_uppercase(), c);
            single(upper.to_lowercase(), upper)
        })
        .collect()
}

/// The site's paths by their case-folded form: a root file whose name differs from a site
/// file's only in case would replace it on a case-insensitive disk (Windows, macOS).
struct SitePaths<'a> {
    folded: BTreeMap<String, Vec<&'a str>>,
}

impl<'a> SitePaths<'a> {
    fn new(paths: impl Iterator<Item = &'a str>) -> Self {
        let mut folded: BTreeMap<String, Vec<&'a str>> = BTreeMap::new();
        for p in paths {
            folded.entry(self::folded(p)).or_default().push(p);
        }
        Self { folded }
    }

    /// The site's file at `p`, in any case (its own spelling when the site has it).
    fn file(&self, p: &str) -> Option<String> {
        let found = self.folded.get(&folded(p))?;
        let found = found.iter().find(|f| **f == p).or_else(|| found.first())?;
        (!found.ends_with('/')).then(|| found.to_string())
    }

    /// The site's folder at `p` (one of its paths is inside it), in any case, and that path.
    fn folder(&self, p: &str) -> Option<(String, &'a str)> {
        let inside = format!("{}/", folded(p));
        let (key, found) = self
            .folded
            .range::<str, _>((Bound::Included(inside.as_str()), Bound::Unbounded))
            .next()?;
        let found = found.first().filter(|_| key.starts_with(&inside))?;
        let depth = p.split('/').count();
        Some((
            found.split('/').take(depth).collect::<Vec<_>>().join("/"),
            found,
        ))
    }
}

/// Adds the root files to the site's `files` (sorted by path), or names each one that would
/// replace a file the site writes, or stand where it needs a folder or the reverse. The site
/// is `files` and what `writer` has written already.
pub fn add(
    files: &mut Vec<OutputFile>,
    root: Vec<(String, Vec<u8>)>,
    writer: Option<&SiteWriter>,
) -> Result<(), Vec<Diagnostic>> {
    // Most books have no root/: folding every page's path would be work for nothing.
    if root.is_empty() {
        return Ok(());
    }
    let site = SitePaths::new(files.iter().map(|f| f.0.as_str()));
    let on_disk = |p: &str, folder: bool| {
        (writer.and_then(|w| w.holds(p)) == Some(folder)).then(|| p.to_string())
    };
    // Files streamed to disk already (the search index's) are named by hashes no root file
    // has in any case: found in exact case only.
    let diags = clashes(
        &root,
        |p| {
            site.file(p)
                .or_else(|| on_disk(p, false))
                .map(|f| (f, None))
        },
        |p| {
            site.folder(p)
                .map(|(f, _)| f)
                .or_else(|| on_disk(p, true))
                .map(|f| (f, None))
        },
    );
    if !diags.is_empty() {
        return Err(diags);
    }
    files.extend(root.into_iter().map(|(p, b)| (p, Arc::new(b))));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(())
}

/// An error for each root file where the site has a file (`site_file`) or a folder
/// (`site_folder`), or that needs a folder where the site has a file; each gives the site's
/// own spelling of the path and, for an alias's page, which entry's alias it is.
fn clashes(
    root: &[(String, Vec<u8>)],
    site_file: impl Fn(&str) -> Option<(String, Option<String>)>,
    site_folder: impl Fn(&str) -> Option<(String, Option<String>)>,
) -> Vec<Diagnostic> {
    let case = |path: &str, site: &str| {
        if path == site {
            String::new()
        } else {
            " (the names differ only in case or accent encoding: one name on Windows and macOS disks)".to_string()
        }
    };
    let of = |alias: &Option<String>| {
        alias
            .as_ref()
            .map_or_else(String::new, |a| format!(", for {a}"))
    };
    let mut diags = Vec::new();
    for (path, _) in root {
        let clash = if let Some((file, alias)) = site_file(path) {
            Some((
                format!(
                    "the site writes `{file}` itself{}{}",
                    case(path, &file),
                    of(&alias)
                ),
                alias,
            ))
        } else if let Some((folder, alias)) = site_folder(path) {
            Some((
                format!(
                    "the site writes the folder `{folder}/`, so this file cannot be there{}{}",
                    case(path, &folder),
                    of(&alias)
                ),
                alias,
            ))
        } else {
            path.match_indices('/')
                .map(|(i, _)| &path[..i])
                .find_map(|folder| site_file(folder).map(|file| (folder, file)))
                .map(|(folder, (file, alias))| {
                    (
                        format!(
                            "the site writes the file `{file}`, which this would need as a folder{}{}",
                            case(folder, &file),
                            of(&alias)
                        ),
                        alias,
                    )
                })
        };
        if let Some((why, alias)) = clash {
            let lower = path.to_lowercase();
            let hint = if alias.is_some() {
                "change that alias in its entry, or rename this file"
            } else if lower.starts_with("static/") {
                "a theme file is changed by the book's own static/ (a file of the same name), not root/"
            } else if lower.ends_with(".html") {
                "a page the site makes is changed through the book's templates/ (Tera), not root/"
            } else {
                "root/ holds files the site does not make (CNAME, robots.txt, …): rename or remove this one"
            };
            diags.push(Diagnostic::error(format!("{ROOT_DIR}/{path}"), 1, 1, why).with_hint(hint));
        }
    }
    diags
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
            // On a case-insensitive disk these are the site's own paths.
            (
                "Index.HTML",
                "writes `index.html` itself (the names differ only in case",
            ),
            (
                "KAFKA/Index.html",
                "writes `kafka/index.html` itself (the names differ",
            ),
            (
                "Kafka",
                "the folder `kafka/`, so this file cannot be there (the names",
            ),
            (
                "INDEX.html/x",
                "the file `index.html`, which this would need as a folder (the",
            ),
        ] {
            let mut files = site(&["index.html", "kafka/index.html"]);
            let d = add(&mut files, vec![(clash.to_string(), Vec::new())], None).unwrap_err();
            assert_eq!(d.len(), 1);
            assert!(d[0].message.contains(says), "{clash}: {}", d[0].message);
            assert_eq!(files.len(), 2, "nothing added on a clash");
        }
    }

    #[test]
    fn names_are_compared_as_case_insensitive_disks_compare_them() {
        let clash = |site_paths: &[&str], root: &str| {
            let mut files = site(site_paths);
            add(&mut files, vec![(root.to_string(), Vec::new())], None)
                .err()
                .map(|d| d[0].message.clone())
        };
        // Decomposed on a macOS disk, composed in the site's alias.
        let e = clash(&["caf\u{e9}/index.html"], "cafe\u{301}/index.html").unwrap_or_default();
        assert!(e.contains("writes `caf\u{e9}/index.html` itself"), "{e}");
        // One character at a time, not as a sentence's lowercase.
        for (site_path, root) in [
            ("search.html", "\u{17f}earch.html"),
            (
                "\u{39f}\u{394}\u{39f}\u{3a3}.html",
                "\u{3bf}\u{3b4}\u{3bf}\u{3c2}.html",
            ),
        ] {
            assert!(clash(&[site_path], root).is_some(), "{root}");
        }
        assert_eq!(clash(&["strasse.html"], "stra\u{df}e.html"), None);
        // The site's own spelling is named when it has it, without a case note.
        let e = clash(&["Old/FAQ.html", "old/faq.html"], "old/faq.html").unwrap_or_default();
        assert!(
            e.contains("writes `old/faq.html` itself") && !e.contains("case"),
            "{e}"
        );
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
            ".CNAME.swo",
            ".well-known/security.txt",
        ] {
            std::fs::write(root.join(f), f).unwrap();
        }
        let config = Config {
            root: dir.path().to_path_buf(),
            ..Config::default()
        };
        let (files, diags) = read(&config);
        assert!(diags.is_empty(), "{diags:?}");
        let paths: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(paths, [".nojekyll", ".well-known/security.txt", "CNAME"]);
        // Two names one file on a case-insensitive disk: both copied, with a warning.
        std::fs::write(root.join("cname"), "x").unwrap();
        let (files, diags) = read(&config);
        assert_eq!((files.len(), diags.len()), (4, 1), "{diags:?}");
        assert!(
            diags[0]
                .message
                .contains("`root/CNAME` differs from this file only in case"),
            "{diags:?}"
        );
        std::fs::remove_file(root.join("cname")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("CNAME"), root.join("robots.txt")).unwrap();
            let (_, diags) = read(&config);
            assert_eq!(diags.len(), 1);
            assert!(diags[0].message.contains("symbolic link"), "{diags:?}");
            std::fs::remove_file(root.join("robots.txt")).unwrap();
            // root/ itself may be a link.
            let shared = dir.path().join("shared");
            std::fs::rename(&root, &shared).unwrap();
            std::os::unix::fs::symlink(&shared, &root).unwrap();
            let (files, diags) = read(&config);
            assert!(diags.is_empty() && files.len() == 3, "{diags:?}");
            // Entries kept in root/ are not published.
            let config = Config {
                book: crate::config::BookSection {
                    src: std::path::PathBuf::from(ROOT_DIR),
                    ..Default::default()
                },
                ..config
            };
            let (files, diags) = read(&config);
            assert!(files.is_empty(), "{files:?}");
            assert!(
                diags[0].message.contains("also where the entries are"),
                "{diags:?}"
            );
        }
    }
}
