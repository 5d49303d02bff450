//! Measured builds: kbook's (wall, CPU, peak RSS and stage timings from `/usr/bin/time` and
//! the progress lines), Hugo's of the same entries, and the files one edited entry changes.

use super::ASIDE;
use super::files::{files_by_path, first_markdown};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// One measured build.
#[derive(Default, Clone)]
pub(super) struct BuildRun {
    pub(super) wall: f64,
    pub(super) cpu: f64,
    pub(super) rss_kib: u64,
    pub(super) stages: Vec<(String, u64, u64)>,
}

/// `program` under `/usr/bin/time` when it exists (wall, user+system CPU, peak RSS on stderr,
/// read back by [`read_time`]).
fn timed(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let time = Path::new("/usr/bin/time");
    if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "bench-time: %e %U %S %M"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// Fills `run` from a `bench-time:` line of [`timed`]; false for other lines.
fn read_time(line: &str, run: &mut BuildRun) -> bool {
    let Some(rest) = line.strip_prefix("bench-time: ") else {
        return false;
    };
    let f: Vec<f64> = rest
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    if let [w, u, s, m] = f.as_slice() {
        run.wall = *w;
        run.cpu = u + s;
        run.rss_kib = *m as u64;
    }
    true
}

/// Builds once under `/usr/bin/time` (wall, user+system CPU, peak RSS) with stage timings.
pub(super) fn build_once(kbook: &Path, book: &Path, site: &Path) -> Result<BuildRun> {
    let mut cmd = timed(kbook);
    let start = Instant::now();
    let out = cmd
        .arg("build")
        .arg("--book")
        .arg(book)
        .arg("--dest")
        .arg(site)
        .env("KBOOK_TIMINGS", "1")
        .stdout(Stdio::null())
        .output()
        .context("cannot run kbook")?;
    let wall = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        bail!(
            "kbook build failed:\n{}",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    let mut run = BuildRun {
        wall,
        ..BuildRun::default()
    };
    for line in stderr.lines() {
        if read_time(line, &mut run) {
            continue;
        }
        if let Some(rest) = line.strip_prefix("timing: ") {
            // "NAME: W ms (cpu C ms)"
            if let Some((name, v)) = rest.rsplit_once(": ") {
                let nums: Vec<u64> = v
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|x| x.parse().ok())
                    .collect();
                run.stages.push((
                    name.to_string(),
                    nums.first().copied().unwrap_or(0),
                    nums.get(1).copied().unwrap_or(0),
                ));
            }
        }
    }
    Ok(run)
}

/// Markdown files under `dir`.
pub(super) fn count_markdown(dir: &Path) -> Result<usize> {
    Ok(crate::markdown_files(dir)?.len())
}

/// Builds the same entries with Hugo (Debian's `hugo`): the content folder as it is, minimal
/// templates (title and content), no taxonomies, feeds, sitemap or search. Err: why not.
pub(super) fn hugo_build(work: &Path, book: &Path, n: usize) -> Result<BuildRun, String> {
    let ok = Command::new("hugo")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        return Err("hugo not installed (apt-get install hugo)".into());
    }
    let site = work.join(format!("hugo-{n}"));
    let out = work.join(format!("hugo-{n}-public"));
    let prepare = || -> Result<()> {
        let _ = std::fs::remove_dir_all(&site);
        crate::copy_tree(&book.join("content"), &site.join("content"), &[])?;
        std::fs::write(
            site.join("hugo.toml"),
            "baseURL = \"http://127.0.0.1/\"\ntitle = \"bench\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\"]\n[markup.goldmark.renderer]\nunsafe = false\n",
        )?;
        let layouts = site.join("layouts/_default");
        std::fs::create_dir_all(&layouts)?;
        let page = "<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1>{{ .Content }}</body></html>\n";
        std::fs::write(layouts.join("single.html"), page)?;
        std::fs::write(
            layouts.join("list.html"),
            "<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul></body></html>\n",
        )?;
        Ok(())
    };
    prepare().map_err(|e| format!("cannot write the Hugo site: {e:#}"))?;
    if out.exists() {
        let aside = work.join(format!("{ASIDE}hugo-{n}-{}", std::process::id()));
        std::fs::rename(&out, &aside).map_err(|e| e.to_string())?;
    }
    let mut cmd = timed("hugo");
    let start = Instant::now();
    let o = cmd
        .arg("--quiet")
        .arg("--source")
        .arg(&site)
        .arg("--destination")
        .arg(&out)
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run hugo: {e}"))?;
    let mut run = BuildRun {
        wall: start.elapsed().as_secs_f64(),
        ..BuildRun::default()
    };
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        return Err(format!(
            "hugo failed: {}",
            stderr.lines().rev().take(5).collect::<Vec<_>>().join(" / ")
        ));
    }
    for line in stderr.lines() {
        read_time(line, &mut run);
    }
    eprintln!(
        "bench:   hugo built in {:.2} s wall, {:.2} s CPU, {} MiB peak RSS",
        run.wall,
        run.cpu,
        run.rss_kib / 1024
    );
    Ok(run)
}

/// Edits the body of one synthetic entry, builds into another folder and compares it with
/// `site` (built from the unedited book): (files changed, of them outside search/). The
/// entry is restored afterwards.
pub(super) fn edited_entry_changes(
    kbook: &Path,
    work: &Path,
    book: &Path,
    site: &Path,
    n: usize,
) -> Result<(usize, usize)> {
    let entry = if n > 0 {
        let id = crate::synth::entry_id("synthetic", n / 2);
        let connector = crate::synth::CONNECTORS[(n / 2) % crate::synth::CONNECTORS.len()];
        book.join("content")
            .join(connector)
            .join(format!("{id}.md"))
    } else {
        // No synthetic entries: the first entry of the base book.
        first_markdown(&book.join("content"))?
            .with_context(|| format!("no entry under {}", book.join("content").display()))?
    };
    let original = std::fs::read_to_string(&entry)
        .with_context(|| format!("cannot read {}", entry.display()))?;
    std::fs::write(
        &entry,
        format!("{original}\nOne more paragraph, added to measure what an edit changes.\n"),
    )?;
    let edited = work.join(format!("site-{n}-edited"));
    if edited.exists() {
        let aside = work.join(format!("{ASIDE}edited-{n}-{}", std::process::id()));
        std::fs::rename(&edited, &aside)?;
    }
    let built = build_once(kbook, book, &edited);
    std::fs::write(&entry, original)?;
    built?;
    let (a, b) = (files_by_path(site)?, files_by_path(&edited)?);
    let mut changed = 0;
    let mut outside = 0;
    for path in a.keys().chain(b.keys().filter(|p| !a.contains_key(*p))) {
        let differs = match (a.get(path), b.get(path)) {
            (Some(x), Some(y)) => x.0 != y.0 || std::fs::read(&x.1)? != std::fs::read(&y.1)?,
            _ => true,
        };
        if differs {
            changed += 1;
            if !path.starts_with("search/") {
                outside += 1;
            }
        }
    }
    eprintln!("bench:   one edited entry body changed {changed} files ({outside} outside search/)");
    Ok((changed, outside))
}
