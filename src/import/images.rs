//! Images the pages show: copied into the book's static files (`static/images/…`, below the
//! path they had in the source tree) and linked from the entries, which kbook writes one
//! directory deep (`<connector>/<id>.html`), so the link is `../static/images/…` over http and
//! from `file://` alike. An image that is not found inside the source tree keeps its link and
//! is reported.

use super::Leftover;
use super::source::SourceTree;
use pulldown_cmark::{Event, Options, Parser, Tag};
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
    for (event, range) in Parser::new_ext(body, Options::all()).into_offset_iter() {
        let Event::Start(Tag::Image { dest_url, .. }) = event else {
            continue;
        };
        let dest = dest_url.to_string();
        if dest.is_empty() || dest.contains("://") || dest.starts_with(['#', '<']) {
            continue;
        }
        if dest.starts_with("data:") {
            continue;
        }
        let Some(file) = find(&dest, &page_dir, tree, &images.root) else {
            notes.push(Leftover {
                at: super::line_at(at, &lines, range.start),
                what: format!("image `{dest}` is not in the source tree: its link is kept"),
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
        let rel = static_path(&file, &images.root);
        images.copies.insert(file, rel.clone());
        let start = range.start + link + 2;
        edits.push((
            start..start + dest.len(),
            format!("../static/{}", rel.replace(' ', "%20")),
        ));
    }
    let mut out = body.to_string();
    for (range, new) in edits.into_iter().rev() {
        out.replace_range(range, &new);
    }
    out
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
