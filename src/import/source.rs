//! Where each generator keeps its pages, its title and its section names.

use super::{ImportError, Leftover, display};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The docs generators `kbook import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    /// Hugo: `content/`, front-matter in YAML or TOML, `_index.md` for sections.
    Hugo,
    /// Zola: `content/`, TOML front-matter, `_index.md` for sections.
    Zola,
    /// Docusaurus: `docs/`, `.md`/`.mdx`, `_category_.json` for sections.
    Docusaurus,
    /// MkDocs: `mkdocs.yml` (`docs_dir`, `site_name`, `nav`).
    Mkdocs,
    /// mdBook: `book.toml` (`[book] src`), `SUMMARY.md`.
    Mdbook,
}

impl Generator {
    /// Every generator, by its `--from` name.
    pub const ALL: [(&'static str, Generator); 5] = [
        ("hugo", Generator::Hugo),
        ("zola", Generator::Zola),
        ("docusaurus", Generator::Docusaurus),
        ("mkdocs", Generator::Mkdocs),
        ("mdbook", Generator::Mdbook),
    ];

    /// The `--from` name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, g)| *g == self)
            .map_or("?", |(n, _)| n)
    }
}

/// A docs tree as the import reads it.
#[derive(Debug)]
pub struct SourceTree {
    /// The source root (as given).
    pub root: PathBuf,
    /// The directory pages are found in (`content/`, `docs/`, `src/`).
    pub pages_dir: PathBuf,
    /// The site's title from its configuration.
    pub title: Option<String>,
    /// The site's language from its configuration.
    pub language: Option<String>,
    /// Section names by top-level directory (from `_index.md`, `_category_.json`, the nav or
    /// the summary).
    pub sections: BTreeMap<String, String>,
    /// The pages, in a stable order.
    pub pages: Vec<SourcePage>,
    /// Files that are not pages, and configuration that could not be read.
    pub notes: Vec<Leftover>,
    /// The directories every page below the top lies in (`docs/` when the tree keeps all its
    /// pages under `content/docs/`): sections start below it.
    pub section_prefix: String,
    /// The site's description, authors, repository and edit-link template, as its
    /// configuration gives them (mdBook, MkDocs).
    pub description: Option<String>,
    pub authors: Vec<String>,
    pub repo_url: Option<String>,
    pub edit_url_template: Option<String>,
    /// mdBook's `[output.html.redirect]`: each page's address (`reference/config.html`) →
    /// the old addresses that redirect to it.
    pub redirects: BTreeMap<String, Vec<String>>,
    /// What the site put before the pages' addresses: a translation's language (`zh/`), for
    /// the old addresses that become aliases.
    pub url_prefix: String,
    /// Hugo's site parameters (`[params]`) that are plain values, by lowercased name (Hugo's
    /// names are case-insensitive), for `{{< param name >}}`.
    pub params: BTreeMap<String, String>,
}

impl SourceTree {
    /// A tree rooted at `root` whose pages are found there until the generator says otherwise.
    pub fn new(root: &Path) -> Self {
        SourceTree {
            root: root.to_path_buf(),
            pages_dir: root.to_path_buf(),
            title: None,
            language: None,
            sections: BTreeMap::new(),
            pages: Vec::new(),
            notes: Vec::new(),
            section_prefix: String::new(),
            url_prefix: String::new(),
            redirects: BTreeMap::new(),
            description: None,
            authors: Vec::new(),
            repo_url: None,
            edit_url_template: None,
            params: BTreeMap::new(),
        }
    }

    /// The section (top-level directory below [`SourceTree::section_prefix`]) of a page.
    pub fn section_of<'a>(&self, rel: &'a str) -> &'a str {
        top_dir(
            rel.strip_prefix(self.section_prefix.as_str())
                .unwrap_or(rel),
        )
    }
}

/// One Markdown page of the source.
#[derive(Debug)]
pub struct SourcePage {
    /// The file.
    pub path: PathBuf,
    /// Its path below the pages directory, `/`-separated.
    pub rel: String,
    /// Its title in the navigation (mkdocs `nav`, mdBook `SUMMARY.md`), if any.
    pub nav_title: Option<String>,
    /// A section index page (`_index.md`): its title names the section.
    pub section_index: bool,
}

/// Hugo's configuration files, in the order Hugo looks for them.
const HUGO_CONFIGS: &[&str] = &[
    "hugo.toml",
    "hugo.yaml",
    "hugo.yml",
    "config.toml",
    "config.yaml",
];

/// The generators whose configuration `root` holds, each with the file that says so.
fn markers(root: &Path) -> Vec<(Generator, String)> {
    let mut out = Vec::new();
    let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap_or_default();
    let has = |f: &str| root.join(f).is_file();
    // Hugo's configuration names `baseURL`, Zola's `base_url` (both may be config.toml).
    if let Some(f) = HUGO_CONFIGS.iter().find(|f| {
        has(f) && (f.starts_with("hugo.") || read(f).to_ascii_lowercase().contains("baseurl"))
    }) {
        out.push((Generator::Hugo, (*f).to_string()));
    }
    if let Some(f) = ["config.toml", "zola.toml"]
        .iter()
        .find(|f| has(f) && read(f).contains("base_url"))
    {
        out.push((Generator::Zola, (*f).to_string()));
    }
    if let Some(f) = [
        "docusaurus.config.js",
        "docusaurus.config.ts",
        "docusaurus.config.mjs",
    ]
    .iter()
    .find(|f| has(f))
    {
        out.push((Generator::Docusaurus, (*f).to_string()));
    }
    if let Some(f) = ["mkdocs.yml", "mkdocs.yaml"].iter().find(|f| has(f)) {
        out.push((Generator::Mkdocs, (*f).to_string()));
    }
    if has("book.toml") && read("book.toml").contains("[book]") {
        out.push((Generator::Mdbook, "book.toml".to_string()));
    }
    out
}

/// Reads the layout of the tree at `root` as `from` expects it.
pub fn read_tree(
    from: Generator,
    root: &Path,
    pages: Option<&Path>,
) -> Result<SourceTree, ImportError> {
    if !root.is_dir() {
        return Err(ImportError::Source(format!(
            "{} is not a directory: give the root of the {} site",
            root.display(),
            from.name()
        )));
    }
    // A tree another generator's configuration marks, without the one asked for: the wrong
    // `--from` would leave that generator's syntax unconverted, and say little about it.
    let marks = markers(root);
    if !marks.iter().any(|(g, _)| *g == from)
        && let Some((other, why)) = marks.first()
    {
        return Err(ImportError::Source(format!(
            "{} looks like a {} site ({why}), not a {} one: import it with --from {}",
            root.display(),
            other.name(),
            from.name(),
            other.name()
        )));
    }
    let mut tree = SourceTree::new(root);
    // The Hugo or Zola configuration, kept for Hugo's languages below (read once).
    let mut site_config: Option<serde_json::Value> = None;
    let mut nav: BTreeMap<String, String> = BTreeMap::new();
    match from {
        Generator::Hugo | Generator::Zola => {
            tree.pages_dir = root.join("content");
            let configs: &[&str] = if from == Generator::Hugo {
                HUGO_CONFIGS
            } else {
                &["config.toml", "zola.toml"]
            };
            if let Some((value, _)) = read_config(root, configs, &mut tree.notes) {
                tree.title = str_at(&value, &["title"]);
                tree.language = str_at(&value, &["languageCode"])
                    .or_else(|| str_at(&value, &["default_language"]));
                if let Some(params) = value.get("params").and_then(|p| p.as_object()) {
                    tree.params = plain_params(params);
                }
                site_config = Some(value);
            }
        }
        Generator::Docusaurus => {
            tree.pages_dir = root.join("docs");
            tree.title = docusaurus_title(root);
        }
        Generator::Mkdocs => {
            let Some((value, _)) =
                read_config(root, &["mkdocs.yml", "mkdocs.yaml"], &mut tree.notes)
            else {
                return Err(ImportError::Source(format!(
                    "{} has no readable mkdocs.yml: give the directory that holds it",
                    root.display()
                )));
            };
            tree.title = str_at(&value, &["site_name"]);
            tree.language = str_at(&value, &["theme", "language"]);
            tree.description = str_at(&value, &["site_description"]);
            tree.authors = str_at(&value, &["site_author"]).into_iter().collect();
            tree.repo_url = str_at(&value, &["repo_url"]);
            let docs = str_at(&value, &["docs_dir"]).unwrap_or_else(|| "docs".into());
            tree.pages_dir = root.join(docs);
            if let Some(items) = value.get("nav") {
                mkdocs_nav(items, None, &mut nav, &mut tree.sections);
            }
        }
        Generator::Mdbook => {
            let Some((value, _)) = read_config(root, &["book.toml"], &mut tree.notes) else {
                return Err(ImportError::Source(format!(
                    "{} has no readable book.toml: give the mdBook's root directory",
                    root.display()
                )));
            };
            tree.title = str_at(&value, &["book", "title"]);
            tree.language = str_at(&value, &["book", "language"]);
            tree.description = str_at(&value, &["book", "description"]);
            tree.authors = value
                .get("book")
                .and_then(|b| b.get("authors"))
                .and_then(|a| a.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            tree.repo_url = str_at(&value, &["output", "html", "git-repository-url"]);
            tree.edit_url_template = str_at(&value, &["output", "html", "edit-url-template"]);
            // Old addresses the book redirects (`"/old.html" = "new.html"`) become aliases of
            // the page they lead to (one into a heading, `new.html#part`, too).
            let redirects = value
                .get("output")
                .and_then(|o| o.get("html"))
                .and_then(|h| h.get("redirect"))
                .and_then(|r| r.as_object());
            for (old, new) in redirects.into_iter().flatten() {
                let Some(new) = new.as_str() else { continue };
                let target = new.split('#').next().unwrap_or(new).trim_start_matches('/');
                let old = old.trim_start_matches('/');
                if !target.is_empty() && !old.is_empty() && !new.contains("://") {
                    tree.redirects
                        .entry(target.to_string())
                        .or_default()
                        .push(old.to_string());
                }
            }
            let src = str_at(&value, &["book", "src"]).unwrap_or_else(|| "src".into());
            tree.pages_dir = root.join(src);
            let summary = tree.pages_dir.join("SUMMARY.md");
            if let Ok(text) = std::fs::read_to_string(&summary) {
                mdbook_summary(&text, &mut nav);
            }
        }
    }
    if let Some(p) = pages {
        tree.pages_dir = root.join(p);
    }
    // A multilingual Hugo site's languages, by code.
    let languages = site_config
        .as_ref()
        .filter(|_| from == Generator::Hugo)
        .and_then(|c| c.get("languages"))
        .and_then(|l| l.as_object());
    if let Some(languages) = languages {
        // A multilingual site: the language whose `contentDir` is the pages directory.
        let dir = display(&tree.pages_dir, root);
        for (code, lang) in languages {
            if str_at(lang, &["contentDir"]).is_some_and(|d| d.trim_end_matches('/') == dir) {
                tree.language = Some(code.clone());
            }
        }
        // Hugo serves the languages other than the default one below their code (all of
        // them with `defaultContentLanguageInSubdir`).
        let config = site_config.as_ref();
        let default = config
            .and_then(|c| str_at(c, &["defaultContentLanguage"]))
            .unwrap_or_else(|| "en".into());
        let all_in_subdirs = config
            .and_then(|c| c.get("defaultContentLanguageInSubdir"))
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false);
        if let Some(code) = &tree.language
            && (all_in_subdirs || !code.eq_ignore_ascii_case(&default))
        {
            tree.url_prefix = format!("{}/", code.to_lowercase());
        }
    }
    // A Docusaurus translation (`i18n/zh-CN/docusaurus-plugin-content-docs/current`): its
    // locale is the book's language and the first part of its addresses.
    if from == Generator::Docusaurus {
        let dir = display(&tree.pages_dir, root);
        if let Some(locale) = dir
            .strip_prefix("i18n/")
            .and_then(|r| r.split_once('/'))
            .filter(|(_, rest)| rest.starts_with("docusaurus-plugin-content-docs"))
            .map(|(l, _)| l.to_string())
        {
            tree.language.get_or_insert_with(|| locale.clone());
            tree.url_prefix = format!("{locale}/");
        }
    }
    if !tree.pages_dir.is_dir() {
        return Err(ImportError::Source(format!(
            "{} has no {} directory: is this a {} site? (--from names the generator)",
            root.display(),
            display(&tree.pages_dir, root),
            from.name()
        )));
    }
    // Docusaurus' `_category_.json` labels by their folder (any depth).
    let mut categories = BTreeMap::new();
    collect_pages(from, &mut tree, &nav, &mut categories)?;
    if let Some(languages) = languages {
        let this = tree
            .language
            .clone()
            .or_else(|| {
                site_config
                    .as_ref()
                    .and_then(|c| str_at(c, &["defaultContentLanguage"]))
            })
            .unwrap_or_else(|| "en".to_string());
        drop_translations(&mut tree, languages, &this);
    }
    tree.section_prefix = common_dirs(tree.pages.iter().map(|p| p.rel.as_str()));
    if !tree.section_prefix.is_empty() {
        let prefix = tree.section_prefix.clone();
        tree.sections = std::mem::take(&mut tree.sections)
            .into_iter()
            .map(|(k, v)| {
                let k = format!("{k}/");
                (
                    top_dir(k.strip_prefix(&prefix).unwrap_or(&k)).to_string(),
                    v,
                )
            })
            .collect();
    }
    // A category names a section when its folder is a section's (one level below the common
    // folders); a subsection's or the common folder's own label names none.
    for (dir, label) in categories {
        if let Some(section) = format!("{dir}/")
            .strip_prefix(tree.section_prefix.as_str())
            .and_then(|rest| rest.strip_suffix('/'))
            .filter(|s| !s.is_empty() && !s.contains('/'))
        {
            tree.sections.insert(section.to_string(), label);
        }
    }
    Ok(tree)
}

/// Hugo's translations by file name (`faq.zh.md` of a site whose `languages` include `zh`)
/// belong to another language's book than `this` one's: left out of the pages, and said.
fn drop_translations(
    tree: &mut SourceTree,
    languages: &serde_json::Map<String, serde_json::Value>,
    this: &str,
) {
    let other = |rel: &str| {
        let stem = rel.rsplit('/').next()?.strip_suffix(".md")?;
        let (_, code) = stem.rsplit_once('.')?;
        let code = code.to_lowercase();
        (!code.eq_ignore_ascii_case(this)
            && languages.keys().any(|k| k.eq_ignore_ascii_case(&code)))
        .then_some(code)
    };
    let (root, notes) = (&tree.root, &mut tree.notes);
    tree.pages.retain(|page| match other(&page.rel) {
        Some(code) => {
            notes.push(Leftover {
                at: display(&page.path, root),
                what: format!(
                    "a translation into `{code}`: not imported with the `{}` pages",
                    this.to_lowercase()
                ),
            });
            false
        }
        None => true,
    });
}

/// Walks the pages directory: Markdown pages in path order; section metadata; other files
/// noted (they are not copied).
fn collect_pages(
    from: Generator,
    tree: &mut SourceTree,
    nav: &BTreeMap<String, String>,
    categories: &mut BTreeMap<String, String>,
) -> Result<(), ImportError> {
    let mut others = 0usize;
    let walk = walkdir::WalkDir::new(&tree.pages_dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'));
    for item in walk {
        let item = item.map_err(|e| {
            let path = e.path().unwrap_or(&tree.pages_dir).to_path_buf();
            ImportError::io(&path, std::io::Error::other(e.to_string()))
        })?;
        // Links are not followed (one could lead out of the tree, or round in a loop), but
        // said: what they point at is not imported.
        if item.path_is_symlink() {
            tree.notes.push(Leftover {
                at: display(item.path(), &tree.root),
                what: "a symbolic link: not followed, so what it points at is not imported                        (copy the page or folder into the tree instead)"
                    .into(),
            });
            continue;
        }
        if !item.file_type().is_file() {
            continue;
        }
        let path = item.path();
        let rel = display(path, &tree.pages_dir);
        let name = item.file_name().to_string_lossy().to_string();
        let markdown =
            name.ends_with(".md") || (from == Generator::Docusaurus && name.ends_with(".mdx"));
        if from == Generator::Docusaurus && (name == "_category_.json" || name == "_category_.yml")
        {
            if let Some(label) = category_label(path) {
                let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
                categories.insert(dir.to_string(), label);
            }
            continue;
        }
        if from == Generator::Mdbook && name == "SUMMARY.md" {
            continue;
        }
        if !markdown {
            others += 1;
            if others <= 20 {
                tree.notes.push(Leftover {
                    at: display(path, &tree.root),
                    what: "not a Markdown page, and no page shows it: not copied (downloads \
                           need to go into the book's static files by hand)"
                        .into(),
                });
            }
            continue;
        }
        tree.pages.push(SourcePage {
            path: path.to_path_buf(),
            nav_title: nav.get(&rel).cloned(),
            section_index: name == "_index.md",
            rel,
        });
    }
    if others > 20 {
        tree.notes.push(Leftover {
            at: display(&tree.pages_dir, &tree.root),
            what: format!("{} more files that are not Markdown pages", others - 20),
        });
    }
    Ok(())
}

/// The directories (ending in `/`) that every page in a subdirectory lies in, as long as
/// something below them still tells the pages apart; pages at the top are not counted.
fn common_dirs<'a>(pages: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<Vec<&str>> = pages
        .map(|rel| {
            let mut dirs: Vec<&str> = rel.split('/').collect();
            dirs.pop();
            dirs
        })
        .filter(|d| !d.is_empty())
        .collect();
    let Some(first) = all.first() else {
        return String::new();
    };
    let mut common = first.clone();
    for dirs in &all[1..] {
        let n = common.iter().zip(dirs).take_while(|(a, b)| a == b).count();
        common.truncate(n);
    }
    // When every page lies right in the shared directory, that directory is the section.
    if all.iter().all(|d| d.len() == common.len()) {
        common.pop();
    }
    common.iter().map(|d| format!("{d}/")).collect()
}

/// The first directory of a `/`-separated path (empty for a file at the top).
pub fn top_dir(rel: &str) -> &str {
    match rel.split_once('/') {
        Some((first, _)) => first,
        None => "",
    }
}

/// Reads the first configuration file of `names` that exists (TOML or YAML by extension) as
/// JSON-like data. A file that cannot be parsed is noted and skipped.
fn read_config(
    root: &Path,
    names: &[&str],
    notes: &mut Vec<Leftover>,
) -> Option<(serde_json::Value, PathBuf)> {
    for name in names {
        let path = root.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let parsed = if name.ends_with(".toml") {
            super::front_matter::toml_to_json(&text).map_err(|e| e.to_string())
        } else {
            super::front_matter::yaml_to_json(&text)
        };
        match parsed {
            Ok(v) => return Some((v, path)),
            Err(e) => notes.push(Leftover {
                at: name.to_string(),
                what: format!("could not read the configuration ({e}); title and sections taken from the files instead"),
            }),
        }
    }
    None
}

/// A string at a key path of JSON-like data.
/// The parameters that are strings, numbers or booleans, by lowercased name.
fn plain_params(params: &serde_json::Map<String, serde_json::Value>) -> BTreeMap<String, String> {
    params
        .iter()
        .filter_map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                _ => return None,
            };
            Some((k.to_lowercase(), text))
        })
        .collect()
}

pub fn str_at(value: &serde_json::Value, keys: &[&str]) -> Option<String> {
    let mut v = value;
    for k in keys {
        v = v.get(k)?;
    }
    v.as_str()
        .map(str::to_string)
        .filter(|s| !s.trim().is_empty())
}

/// The `title: '…'` of `docusaurus.config.{js,ts}` (a JavaScript file: only a plain string
/// literal on its own line is read).
fn docusaurus_title(root: &Path) -> Option<String> {
    for name in [
        "docusaurus.config.js",
        "docusaurus.config.ts",
        "docusaurus.config.mjs",
    ] {
        let Ok(text) = std::fs::read_to_string(root.join(name)) else {
            continue;
        };
        for line in text.lines() {
            let Some(rest) = line.trim().strip_prefix("title:") else {
                continue;
            };
            let rest = rest.trim().trim_end_matches(',');
            let quote = rest.chars().next()?;
            if matches!(quote, '\'' | '"' | '`') && rest.len() > 1 && rest.ends_with(quote) {
                return Some(rest[1..rest.len() - 1].to_string());
            }
        }
    }
    None
}

/// The `label` of a Docusaurus `_category_.json` / `_category_.yml`.
fn category_label(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let value: serde_json::Value = if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).ok()?
    } else {
        super::front_matter::yaml_to_json(&text).ok()?
    };
    str_at(&value, &["label"])
}

/// Page titles and section names from an mkdocs `nav` (`- Title: page.md`, `- Section: [...]`).
fn mkdocs_nav(
    items: &serde_json::Value,
    section: Option<&str>,
    nav: &mut BTreeMap<String, String>,
    sections: &mut BTreeMap<String, String>,
) {
    let Some(items) = items.as_array() else {
        return;
    };
    for item in items {
        let Some(map) = item.as_object() else {
            continue;
        };
        for (title, target) in map {
            match target {
                serde_json::Value::String(page) => {
                    nav.insert(page.clone(), title.clone());
                    let dir = top_dir(page);
                    if section.is_none() && !dir.is_empty() {
                        sections
                            .entry(dir.to_string())
                            .or_insert_with(|| title.clone());
                    }
                }
                serde_json::Value::Array(children) => {
                    // A top-level nav section names the directory its first page is in.
                    if section.is_none() {
                        for child in children.iter().filter_map(|c| c.as_object()) {
                            if let Some(page) = child.values().find_map(|v| v.as_str()) {
                                let dir = top_dir(page);
                                if !dir.is_empty() {
                                    sections
                                        .entry(dir.to_string())
                                        .or_insert_with(|| title.clone());
                                }
                                break;
                            }
                        }
                    }
                    mkdocs_nav(target, Some(title), nav, sections);
                }
                _ => {}
            }
        }
    }
}

/// Page titles from an mdBook `SUMMARY.md`: every `[Title](path.md)` link.
fn mdbook_summary(text: &str, nav: &mut BTreeMap<String, String>) {
    for line in text.lines() {
        let line = line.trim_start().trim_start_matches(['-', '*']).trim();
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let Some((title, after)) = rest.split_once("](") else {
            continue;
        };
        let Some((target, _)) = after.split_once(')') else {
            continue;
        };
        let target = target.trim().trim_start_matches("./");
        if !target.is_empty() {
            nav.insert(target.to_string(), title.trim().to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_translations_by_file_name_stay_out_of_another_languages_book() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("hugo.toml"),
            "title = \"x\"\n[languages.en]\nweight = 1\n[languages.zh]\nweight = 2\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("content/kafka")).unwrap();
        for page in ["faq.md", "faq.zh.md", "v1.2.md"] {
            std::fs::write(root.join("content/kafka").join(page), "# T\n\nText.\n").unwrap();
        }
        let tree = read_tree(Generator::Hugo, root, None).unwrap();
        let pages: Vec<&str> = tree.pages.iter().map(|p| p.rel.as_str()).collect();
        assert_eq!(pages, ["kafka/faq.md", "kafka/v1.2.md"]);
        assert!(
            tree.notes.iter().any(|n| n.at == "content/kafka/faq.zh.md"
                && n.what == "a translation into `zh`: not imported with the `en` pages"),
            "{:?}",
            tree.notes
        );
    }

    #[test]
    fn docusaurus_categories_name_their_own_sections() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("docusaurus.config.js"), "module.exports = {};\n").unwrap();
        let docs = root.join("docs/troubleshooting");
        for sub in ["kafka", "mysql/deep"] {
            std::fs::create_dir_all(docs.join(sub)).unwrap();
        }
        let label = |dir: &Path, l: &str| {
            std::fs::write(
                dir.join("_category_.json"),
                format!("{{\"label\": \"{l}\"}}"),
            )
            .unwrap()
        };
        label(&docs, "Troubleshooting guides");
        label(&docs.join("kafka"), "Apache Kafka");
        label(&docs.join("mysql/deep"), "Deep MySQL");
        for page in ["kafka/lag.md", "mysql/deep/x.md", "mysql/y.md"] {
            std::fs::write(docs.join(page), "# T\n\nText.\n").unwrap();
        }
        let tree = read_tree(Generator::Docusaurus, root, None).unwrap();
        assert_eq!(tree.section_prefix, "troubleshooting/");
        let sections: Vec<(&str, &str)> = tree
            .sections
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        // The common folder's label and a subsection's name no section.
        assert_eq!(sections, [("kafka", "Apache Kafka")]);
    }

    #[test]
    fn summary_and_nav_give_titles_and_sections() {
        let mut nav = BTreeMap::new();
        mdbook_summary(
            "# Summary\n\n[Intro](README.md)\n- [FAQ](faq/index.md)\n  - [Kafka](./faq/kafka.md)\n",
            &mut nav,
        );
        assert_eq!(nav.get("faq/kafka.md").map(String::as_str), Some("Kafka"));
        assert_eq!(nav.get("README.md").map(String::as_str), Some("Intro"));

        let yaml = "nav:\n  - Home: index.md\n  - Troubleshooting:\n      - Kafka: trouble/kafka.md\n      - MySQL: trouble/mysql.md\n";
        let value = super::super::front_matter::yaml_to_json(yaml).unwrap();
        let (mut nav, mut sections) = (BTreeMap::new(), BTreeMap::new());
        mkdocs_nav(value.get("nav").unwrap(), None, &mut nav, &mut sections);
        assert_eq!(
            nav.get("trouble/mysql.md").map(String::as_str),
            Some("MySQL")
        );
        assert_eq!(
            sections.get("trouble").map(String::as_str),
            Some("Troubleshooting")
        );
        assert!(!sections.contains_key(""));
        let pages = [
            "_index.md",
            "docs/faq/faq.md",
            "docs/connectors/kafka.md",
            "docs/_index.md",
        ];
        assert_eq!(common_dirs(pages.into_iter()), "docs/");
        assert_eq!(common_dirs(["kafka/a.md", "mysql/b.md"].into_iter()), "");
        let pages = ["_index.md", "docs/faq/faq.md", "docs/connectors/kafka.md"];
        assert_eq!(common_dirs(pages.into_iter()), "docs/");
        assert_eq!(common_dirs(["a/b/c.md", "a/b/d.md"].into_iter()), "a/");
    }
}
