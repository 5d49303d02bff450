//! The output's files: listing, sizes, and compressed sizes.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The first Markdown file under `dir` (names sorted, depth first).
pub(super) fn first_markdown(dir: &Path) -> Result<Option<PathBuf>> {
    let mut items: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    items.sort();
    for p in items {
        if p.is_dir() {
            if let Some(found) = first_markdown(&p)? {
                return Ok(Some(found));
            }
        } else if p.extension().is_some_and(|x| x == "md") {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// Files under `dir`: relative path (with `/`) → (length, full path).
pub(super) fn files_by_path(
    dir: &Path,
) -> Result<std::collections::BTreeMap<String, (u64, PathBuf)>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let e = e?;
            if e.file_type()?.is_dir() {
                stack.push(e.path());
            } else {
                let rel = e
                    .path()
                    .strip_prefix(dir)?
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, (e.metadata()?.len(), e.path()));
            }
        }
    }
    Ok(out)
}

pub(super) fn tree_size(dir: &Path) -> Result<(u64, usize)> {
    let mut bytes = 0;
    let mut files = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let e = e?;
            let t = e.file_type()?;
            if t.is_dir() {
                stack.push(e.path());
            } else {
                bytes += e.metadata()?.len();
                files += 1;
            }
        }
    }
    Ok((bytes, files))
}

pub(super) fn find_file(dir: &Path, prefix: &str, suffix: &str) -> Result<PathBuf> {
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let name = e?.file_name().to_string_lossy().to_string();
        if name.starts_with(prefix) && name.ends_with(suffix) {
            return Ok(dir.join(name));
        }
    }
    bail!("no {prefix}*{suffix} in {}", dir.display())
}

pub(super) fn compressed_len(tool: &str, args: &[&str], file: &Path) -> Result<u64> {
    let out = Command::new(tool)
        .args(args)
        .arg(file)
        .output()
        .with_context(|| format!("cannot run {tool} (install it: apt-get install -y {tool})"))?;
    if !out.status.success() {
        bail!("{tool} failed on {}", file.display());
    }
    Ok(out.stdout.len() as u64)
}
