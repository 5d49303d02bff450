//! Images the pages show: copied into the book's static files (`static/images/…`, below the
//! path they had in the source tree) and linked from the entries, which kbook writes one
//! directory deep (`<connector>/<id>.html`), so the link is `../static/images/…` over http and
//! from `file://` alike. An image that is not found inside the source tree keeps its link and
//! is reported.

use super::Leftover;
use super::source::SourceTree;
use pulldown_cmark::{Event, Parser, Tag};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The images to copy: source file → its path below the book's `static/`.
#[derive(Debug)]
pub struct Images {
    /// The source tree's root, resolved once (images must lie inside it).
    root: PathBuf,
    pub copies: BTreeMap<PathBuf, String>,
}

impl Images {
    /// No images yet, for the tree at `root`.
    pub fn new(root: &Path) -> Self {
        Images {
            root: root.canonicalize().unwrap_or_else(|_| root.to_path_buf()),
            copies: BTreeMap::new(),
        }
    }

    /// A copied file's path relative to the source root, as reports name it.
    pub fn display(&self, file: &Path) -> String {
        super::display(file, &self.root)
    }

    /// Marks `file` to be copied; the link to its copy from an entry's page.
    fn copy(&mut self, file: PathBuf) -> String {
        let rel = static_path(&file, &self.root);
        let link = format!("../static/{}", rel.replace(' ', "%20"));
        self.copies.insert(file, rel);
        link
    }
}

/// The note for an image `dest` not found in the source tree.
fn not_found(dest: &str) -> String {
    format!("image `{dest}` is not in the source tree: its link is kept")
}

/// `body` (of an entry from the source page `page`, below the pages directory) with its image
/// links pointed at the copies; images not found go to `notes` (`at`: the source file and the
/// line of the body's first line in it).
pub fn rewrite(
    body: &str,
    page: &str,
    tree: &SourceTree,
    images: &mut Images,
    at: &(String, usize),
    notes: &mut Vec<Leftover>,
) -> String {
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let page_dir = tree
        .pages_dir
        .join(page)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| tree.pages_dir.clone());
    let lines = crate::diagnostic::LineIndex::new(body);
    let external = |dest: &str| {
        dest.is_empty()
            || dest.contains("://")
            || dest.starts_with(['#', '<'])
            || dest.starts_with("data:")
    };
    let parser = Parser::new_ext(body, crate::render::markdown::options());
    // Reference definitions of image files (`[Blog]: blog/blog.png`, which `![Blog]` and
    // `[![Blog]][Blog]` use): the file is copied and the definition points at the copy.
    let mut copied_defs: Vec<String> = Vec::new();
    for (_, def) in parser.reference_definitions().iter() {
        let dest = def.dest.to_string();
        let named = dest
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let is_image = [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"]
            .iter()
            .any(|e| named.ends_with(e));
        if !is_image || external(&dest) {
            continue;
        }
        let span = def.span.clone();
        let Some(file) = find(&dest, &page_dir, tree, &images.root) else {
            continue;
        };
        if let Some(i) = body.get(span.clone()).and_then(|t| t.find(&dest)) {
            let start = span.start + i;
            edits.push((start..start + dest.len(), images.copy(file)));
            copied_defs.push(dest);
        }
    }
    for (event, range) in parser.into_offset_iter() {
        let dest_url = match event {
            Event::Start(Tag::Image { dest_url, .. }) => dest_url,
            // Raw HTML as written: its `<img src>` are copied and pointed at the copies too.
            Event::Html(h) | Event::InlineHtml(h) if body.get(range.clone()) == Some(&*h) => {
                let fix = |dest: &str, image: bool| {
                    if !image || external(dest) {
                        return (None, None);
                    }
                    match find(dest, &page_dir, tree, &images.root) {
                        Some(file) => (Some(images.copy(file)), None),
                        None => (None, Some((not_found(dest), String::new()))),
                    }
                };
                edits.extend(super::raw_html_edit(&h, range, (at, &lines), notes, fix));
                continue;
            }
            _ => continue,
        };
        let dest = dest_url.to_string();
        if external(&dest) || copied_defs.contains(&dest) {
            continue;
        }
        let Some(file) = find(&dest, &page_dir, tree, &images.root) else {
            notes.push(Leftover {
                at: super::line_at(at, &lines, range.start),
                what: not_found(&dest),
            });
            continue;
        };
        // Only an inline `](dest` is rewritten (and its file copied); a reference-style or
        // `<dest>` image is reported.
        let text = &body[range.clone()];
        let Some(link) = text.rfind(&format!("]({dest}")) else {
            notes.push(Leftover {
                at: super::line_at(at, &lines, range.start),
                what: format!("image `{dest}` is not an inline `![…](…)` image: not copied"),
            });
            continue;
        };
        let start = range.start + link + 2;
        edits.push((start..start + dest.len(), images.copy(file)));
    }
    super::apply_edits(body, edits)
}

/// The image file `dest` names, inside the source tree: relative to the page, or from the
/// site root (`/img/x.png`: the generators' static folder, the pages directory, the root).
fn find(dest: &str, page_dir: &Path, tree: &SourceTree, root: &Path) -> Option<PathBuf> {
    let path = dest.split(['?', '#']).next().unwrap_or(dest);
    let path = path.replace("%20", " ");
    let candidates: Vec<PathBuf> = match path.strip_prefix('/') {
        Some(abs) => ["static", "assets", ""]
            .iter()
            .map(|d| tree.root.join(d).join(abs))
            .chain([tree.pages_dir.join(abs)])
            .collect(),
        None => vec![page_dir.join(&path)],
    };
    candidates
        .into_iter()
        .filter_map(|c| c.canonicalize().ok())
        .find(|c| c.starts_with(root) && c.is_file())
}

/// Where a copy goes below the book's `static/`: `images/` and the file's path in the source
/// tree (without a leading `static/`), so two images never meet.
fn static_path(file: &Path, root: &Path) -> String {
    let rel = super::display(file, root);
    let rel = rel.strip_prefix("static/").unwrap_or(&rel);
    format!("images/{rel}")
}

/// Copies the images into `dir` (the book's future `static/`).
pub fn copy(images: &Images, dir: &Path) -> std::io::Result<()> {
    for (from, rel) in &images.copies {
        let to = dir.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(from, &to)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree with pages under `docs/` and the image `docs/img/<name>`.
    fn docs_with_image(name: &str) -> (tempfile::TempDir, SourceTree) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("docs/img")).unwrap();
        std::fs::write(root.join("docs/img").join(name), b"png").unwrap();
        let mut tree = SourceTree::new(root);
        tree.pages_dir = root.join("docs");
        (dir, tree)
    }

    #[test]
    fn images_in_raw_html_are_copied_and_pointed_at_the_copies() {
        let (dir, tree) = docs_with_image("pic.png");
        let mut images = Images::new(dir.path());
        let mut notes = Vec::new();
        let body = "Text.\n\n<p><img src=\"img/pic.png\" alt=\"pic\" width=\"200\"> <img src='img/none.png'></p>\n\n![md](img/pic.png)\n";
        let out = rewrite(
            body,
            "a/page.md",
            &tree,
            &mut images,
            &("docs/a/page.md".to_string(), 1),
            &mut notes,
        );
        // The page is one folder down; its images were beside it.
        assert_eq!(out, body, "nothing found relative to docs/a/");
        let out = rewrite(
            body,
            "page.md",
            &tree,
            &mut images,
            &("docs/page.md".to_string(), 1),
            &mut notes,
        );
        assert_eq!(
            out,
            "Text.\n\n<p><img src=\"../static/images/docs/img/pic.png\" alt=\"pic\" width=\"200\"> <img src='img/none.png'></p>\n\n![md](../static/images/docs/img/pic.png)\n"
        );
        assert_eq!(images.copies.len(), 1);
        let last: Vec<&str> = notes
            .iter()
            .rev()
            .take(1)
            .map(|n| n.what.as_str())
            .collect();
        assert_eq!(
            last,
            ["image `img/none.png` is not in the source tree: its link is kept"]
        );
    }

    /// An image named by a reference definition (MkDocs' `[![Shot]][Shot]`) is copied and
    /// the definition points at the copy.
    #[test]
    fn images_of_reference_definitions_are_copied() {
        let (dir, tree) = docs_with_image("shot.png");
        let mut images = Images::new(dir.path());
        let mut notes = Vec::new();
        let body = "[![Shot]][Shot] and ![Shot]\n\n  [Shot]: img/shot.png\n  [Page]: other.md\n";
        let out = rewrite(
            body,
            "page.md",
            &tree,
            &mut images,
            &("docs/page.md".to_string(), 1),
            &mut notes,
        );
        assert_eq!(
            out,
            "[![Shot]][Shot] and ![Shot]\n\n  [Shot]: ../static/images/docs/img/shot.png\n  [Page]: other.md\n"
        );
        assert_eq!(images.copies.len(), 1);
        assert!(notes.is_empty(), "{notes:?}");
    }
}
