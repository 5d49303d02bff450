//! Rebuilding again and again (`kbook serve`): what a rebuild may reuse from the previous one,
//! and a site that writes only the files whose bytes changed.

use super::{BuildOptions, BuildReport, Output, render_site};
use crate::content;
use crate::diagnostic::Diagnostic;
use crate::output::{
    IN_PLACE_BYTES, OutputFile, Written, overwrite_in_place, write_atomically,
    write_file_atomically,
};
use crate::progress::Progress;
use crate::render::markdown::RenderedBody;
use crate::render::memo::PageMemo;
use crate::search_assets::SearchAssets;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What a rebuild may reuse from the previous one (`kbook serve`); a one-shot build uses
/// an empty cache that keeps nothing.
#[derive(Default)]
pub struct BuildCache {
    pub(super) keep: bool,
    pub(super) load: content::LoadCache,
    pub(super) headings:
        std::collections::HashMap<String, (u64, std::collections::HashSet<String>)>,
    pub(super) bodies: std::collections::HashMap<String, (u64, Arc<RenderedBody>, Vec<Diagnostic>)>,
    pub(super) pages: PageMemo,
    /// Highlighted code blocks by content (an edited body's untouched blocks are reused).
    pub(super) highlights: Arc<crate::render::markdown::HighlightCache>,
    pub(super) index: Option<(u64, SearchAssets)>,
    /// The search index's chunk segments, reused by the next build when `keep` is set.
    pub(super) segments: kbook_search::KeptSegments,
}

impl BuildCache {
    /// A cache that keeps everything for the next rebuild.
    pub fn keeping() -> Self {
        BuildCache {
            keep: true,
            load: content::LoadCache::keeping(),
            pages: PageMemo::keeping(),
            ..BuildCache::default()
        }
    }
}

/// A site rebuilt again and again by `kbook serve`: unchanged entries, bodies, pages and
/// index are reused, and only files whose bytes changed are written.
pub struct IncrementalSite {
    root: PathBuf,
    dest: PathBuf,
    deny_warnings: bool,
    cache: BuildCache,
    written: std::collections::HashMap<String, u64>,
}

impl IncrementalSite {
    /// A site for the book at `root`, written to `dest`.
    pub fn new(root: &Path, dest: &Path, deny_warnings: bool) -> Self {
        IncrementalSite {
            root: root.to_path_buf(),
            dest: dest.to_path_buf(),
            deny_warnings,
            cache: BuildCache::keeping(),
            written: std::collections::HashMap::new(),
        }
    }

    /// Rebuilds; on error nothing is written and the previous site stays.
    pub fn rebuild(&mut self) -> Result<BuildReport, Vec<Diagnostic>> {
        let start = Instant::now();
        let config = super::load_config(&self.root)?;
        let opts = BuildOptions {
            dest: Some(self.dest.clone()),
            deny_warnings: self.deny_warnings,
            check_only: false,
            progress: false,
            single_file: None,
        };
        if self.written.is_empty()
            && let Some(d) = super::destination::refuse(&self.dest, &config)
        {
            return Err(vec![d]);
        }
        let rendered = render_site(&config, &opts, &mut self.cache, Output::Memory)?;
        let timing = Progress::new(false);
        timing.stage("writing changed files");
        let io_err = |e: std::io::Error| {
            vec![Diagnostic::error(
                &self.dest,
                0,
                0,
                format!("cannot write the site: {e}"),
            )]
        };
        // One fingerprint per file, on all cores: it decides what is written and is kept.
        let fps: Vec<u64> = rendered
            .files
            .par_iter()
            .map(|(_, d)| kbook_search::content_hash(d))
            .collect();
        let mut bytes = 0;
        if self.written.is_empty() {
            // First build: the whole site, swapped in atomically.
            bytes = write_atomically(&self.dest, &rendered.files)
                .map_err(io_err)?
                .bytes;
        } else {
            // Files gone are removed first: on a case-insensitive disk a renamed `Index.txt`
            // is the same file as the new `INDEX.txt`, which removing it after would delete.
            let now: std::collections::HashSet<&str> =
                rendered.files.iter().map(|f| f.0.as_str()).collect();
            for old in self.written.keys().filter(|k| !now.contains(k.as_str())) {
                let path = self.dest.join(old);
                let _ = std::fs::remove_file(&path);
                // A folder left empty goes too: a file of its name may be written now
                // (`root/docs/` replaced by `root/docs`). One that is not empty stays.
                for dir in path.ancestors().skip(1).take_while(|d| *d != self.dest) {
                    if std::fs::remove_dir(dir).is_err() {
                        break;
                    }
                }
            }
            let changed: Vec<&OutputFile> = rendered
                .files
                .iter()
                .zip(&fps)
                .filter(|((path, _), fp)| self.written.get(path) != Some(fp))
                .map(|(f, _)| f)
                .collect();
            let results: Vec<std::io::Result<u64>> = changed
                .par_iter()
                .map(|(path, data)| {
                    let path = self.dest.join(path);
                    if data.len() >= IN_PLACE_BYTES && path.is_file() {
                        overwrite_in_place(&path, data)?;
                    } else {
                        write_file_atomically(&path, data)?;
                    }
                    Ok(data.len() as u64)
                })
                .collect();
            for r in results {
                bytes += r.map_err(io_err)?;
            }
        }
        self.written = rendered
            .files
            .iter()
            .zip(fps)
            .map(|((p, _), fp)| (p.clone(), fp))
            .collect();
        drop(timing);
        // Every file of the site is counted; `bytes` are those written by this rebuild.
        let counted = Written {
            bytes,
            ..Written::of(&rendered.files)
        };
        Ok(BuildReport::new(
            rendered,
            counted,
            start,
            self.dest.clone(),
        ))
    }
}
