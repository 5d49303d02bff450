//! Writing the site: a whole new output swapped in atomically (`kbook build`), and single
//! files replaced without a reader ever seeing half a file (`kbook serve`).

use crate::render::pages::OutputFile;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

const TMP_MARK: &str = ".kbook-tmp-";
const OLD_MARK: &str = ".kbook-old-";

/// Writes `files` into a fresh sibling directory of `dest`, then replaces `dest` with it.
/// Leftovers of interrupted builds (sibling temp directories) are removed first.
pub fn write_atomically(dest: &Path, files: &[OutputFile]) -> std::io::Result<u64> {
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)?;
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "book".into());
    clean_leftovers(&parent, &name);
    let tmp = parent.join(format!(".{name}{TMP_MARK}{}", std::process::id()));
    let written = (|| {
        let mut bytes = 0u64;
        std::fs::create_dir_all(&tmp)?;
        let mut dirs = std::collections::BTreeSet::new();
        for (path, _) in files {
            if let Some((d, _)) = path.rsplit_once('/') {
                dirs.insert(d.to_string());
            }
        }
        for d in &dirs {
            std::fs::create_dir_all(tmp.join(d))?;
        }
        let results: Vec<std::io::Result<u64>> = files
            .par_iter()
            .map(|(path, data)| std::fs::write(tmp.join(path), data).map(|_| data.len() as u64))
            .collect();
        for r in results {
            bytes += r?;
        }
        Ok::<u64, std::io::Error>(bytes)
    })();
    let bytes = match written {
        Ok(b) => b,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    let old = parent.join(format!(".{name}{OLD_MARK}{}", std::process::id()));
    let had_old = dest.exists();
    if had_old {
        std::fs::rename(dest, &old)?;
    }
    if let Err(e) = std::fs::rename(&tmp, dest) {
        if had_old {
            let _ = std::fs::rename(&old, dest);
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if had_old {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(bytes)
}

/// A build killed between moving the previous site aside and moving the new one in leaves
/// no `dest`, only `.NAME.kbook-old-PID`: move the previous site back (before anything else,
/// so even a build that then fails restores it). Leftover temp directories are removed when
/// the next site is written.
pub fn recover_interrupted_swap(dest: &Path) {
    if dest.exists() {
        return;
    }
    let (Some(parent), Some(name)) = (dest.parent(), dest.file_name()) else {
        return;
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let old_prefix = format!(".{}{OLD_MARK}", name.to_string_lossy());
    let Ok(items) = std::fs::read_dir(parent) else {
        return;
    };
    let mut olds: Vec<PathBuf> = items
        .flatten()
        .filter(|i| i.file_name().to_string_lossy().starts_with(&old_prefix))
        .map(|i| i.path())
        .collect();
    olds.sort();
    if let Some(old) = olds.first() {
        let _ = std::fs::rename(old, dest);
    }
}

fn clean_leftovers(parent: &Path, name: &str) {
    let Ok(items) = std::fs::read_dir(parent) else {
        return;
    };
    let tmp_prefix = format!(".{name}{TMP_MARK}");
    let old_prefix = format!(".{name}{OLD_MARK}");
    for item in items.flatten() {
        let file_name = item.file_name().to_string_lossy().to_string();
        if file_name.starts_with(&tmp_prefix) || file_name.starts_with(&old_prefix) {
            let _ = std::fs::remove_dir_all(item.path());
        }
    }
}

/// Files at least this large are rewritten in place by `kbook serve` (see
/// [`overwrite_in_place`]).
pub const IN_PLACE_BYTES: usize = 1 << 20;

/// Rewrites an existing file in place, without truncating it first: replacing a large file by
/// a rename frees all its blocks (a synchronous discard on some file systems) and makes ext4
/// flush the new file, which took most of a rebuild's writing time for the search index. Only
/// for `kbook serve`, where the page reloads after the rebuild has finished writing.
pub fn overwrite_in_place(path: &Path, data: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
    f.write_all(data)?;
    f.set_len(data.len() as u64)
}

/// Replaces one file via a temporary sibling and a rename, so a reader never sees half a file.
pub fn write_file_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // The whole name plus a suffix: files written in parallel may share a stem
    // (`index.bin`, `index.head`).
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".kbook-tmp-{}", std::process::id()));
    let tmp = path.with_file_name(name);
    std::fs::write(&tmp, data)?;
    std::fs::rename(&tmp, path)
}
