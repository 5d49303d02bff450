//! Crash safety: `kbook build` killed with SIGKILL at several points of a build leaves the
//! previous site intact, and the next build succeeds and removes the leftovers.
//!
//! Kill points are found by watching the build's observable progress (bytes it has read,
//! its temporary directory, the files in it) in a bounded poll.

#![cfg(target_os = "linux")]

use crate::common::{
    build_command, build_site, leftovers, snapshot, try_walk, walk, write_generated_book,
};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Enough entries that each phase of a debug build lasts long enough to be caught by the
/// poll, few enough that the test stays well under a minute on a busy machine.
const ENTRIES: usize = 400;
const CONNECTORS: usize = 8;
/// Upper bound on any poll.
const POLL_LIMIT: Duration = Duration::from_secs(120);
/// Between two looks at the build: short against every phase, and it leaves the (possibly
/// only) other core to the build instead of spinning.
const POLL_EVERY: Duration = Duration::from_millis(1);

/// Writes a book of `ENTRIES` entries; `version` changes every title and body, so the
/// sites of two versions differ in every page.
fn write_book(root: &Path, version: u32) {
    write_generated_book(root, "Crash test", ENTRIES, CONNECTORS, |i, c| {
        format!(
            "---\ntitle: \"Entry {i} v{version}\"\nconnector: c{c}\nkind: error\nerrors:\n  - \"org.example.Error{i}: failure number {i} in stage {c}\"\ntags: [t{}]\n---\n## Symptom\n\nThe job fails with error {i} (version {version}).\n\n## Cause\n\n{}\n\n## Solution\n\nRun `SELECT {i} FROM t{c};` again.\n",
            i % 7,
            "Words about the cause of the failure. ".repeat(20)
        )
    });
}

fn build(book: &Path, dest: &Path) -> std::process::Output {
    build_site(book, dest, &[])
}

fn spawn_build(book: &Path, dest: &Path) -> Child {
    build_command(book, dest)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Bytes the process has read so far (`rchar` in /proc/PID/io).
fn bytes_read(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/io"))
        .ok()
        .and_then(|io| {
            io.lines()
                .find_map(|l| l.strip_prefix("rchar: ").map(|v| v.trim().parse().ok()))?
        })
        .unwrap_or(0)
}

/// Where to kill the build.
#[derive(Debug, Clone, Copy)]
enum KillPoint {
    /// Right after it started.
    AtStart,
    /// While it reads the content (half of the content's bytes read).
    WhileLoading,
    /// As soon as its temporary output directory exists.
    TempDirCreated,
    /// Half-way through writing the files into the temporary directory.
    HalfWritten,
}

/// The temporary directory the build with `pid` writes the new site into.
fn temp_dir_of(dest: &Path, pid: u32) -> PathBuf {
    let name = dest.file_name().unwrap().to_string_lossy();
    dest.with_file_name(format!(".{name}.kbook-tmp-{pid}"))
}

/// Polls (bounded) until the kill point is reached or the build exits. Returns whether the
/// kill point was reached while the build still ran.
fn wait_for(
    point: KillPoint,
    child: &mut Child,
    dest: &Path,
    content_bytes: u64,
    files: usize,
) -> bool {
    let start = Instant::now();
    let tmp = temp_dir_of(dest, child.id());
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let reached = match point {
            KillPoint::AtStart => true,
            KillPoint::WhileLoading => bytes_read(child.id()) > content_bytes / 2,
            KillPoint::TempDirCreated => tmp.exists(),
            // The directory may be renamed into place while it is walked.
            KillPoint::HalfWritten => try_walk(&tmp).is_ok_and(|f| f.len() > files / 2),
        };
        if reached {
            return true;
        }
        assert!(start.elapsed() < POLL_LIMIT, "{point:?} never reached");
        std::thread::sleep(POLL_EVERY);
    }
}

#[test]
fn sigkill_at_any_point_keeps_the_previous_site() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    let dest = dir.path().join("out");
    std::fs::create_dir_all(&book).unwrap();
    write_book(&book, 1);
    let o = build(&book, &dest);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v1 = snapshot(&dest);
    let files = v1.len();
    assert!(files > ENTRIES, "{files} files");
    write_book(&book, 2);
    let content_bytes: u64 = walk(&book.join("content"))
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();

    let mut reached = Vec::new();
    for point in [
        KillPoint::AtStart,
        KillPoint::WhileLoading,
        KillPoint::TempDirCreated,
        KillPoint::HalfWritten,
    ] {
        let mut child = spawn_build(&book, &dest);
        let hit = wait_for(point, &mut child, &dest, content_bytes, files);
        // SIGKILL on Unix.
        let _ = child.kill();
        let status = child.wait().unwrap();
        if hit {
            reached.push(point);
            assert!(
                status.code().is_none(),
                "{point:?}: the build was not killed: {status}"
            );
            let now = snapshot(&dest);
            assert!(
                now == v1,
                "{point:?}: the previous site changed ({} files now)",
                now.len()
            );
        } else {
            // The build finished before the point was seen: it must have swapped in the
            // whole new site. Put the old one back for the next kill point.
            assert!(status.success(), "{point:?}: the build failed: {status}");
            std::fs::remove_dir_all(&dest).unwrap();
            write_book(&book, 1);
            assert!(build(&book, &dest).status.success());
            write_book(&book, 2);
        }
    }
    assert!(
        reached.len() >= 3,
        "only {reached:?} were reached before the build finished"
    );
    eprintln!("killed at {reached:?}");
    if reached
        .iter()
        .any(|p| matches!(p, KillPoint::TempDirCreated | KillPoint::HalfWritten))
    {
        // Otherwise the check below that they are cleaned would prove nothing.
        assert!(!leftovers(&dest).is_empty(), "a killed build left nothing");
    }

    // The next build succeeds, writes the new site and removes every leftover.
    let o = build(&book, &dest);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v2 = snapshot(&dest);
    assert_eq!(v2.len(), files);
    assert_ne!(v2, v1);
    assert!(
        String::from_utf8_lossy(&v2["c0/entry-0.html"]).contains("Entry 0 v2"),
        "new site"
    );
    assert_eq!(
        leftovers(&dest),
        Vec::<PathBuf>::new(),
        "leftovers not cleaned"
    );
}

/// A kill between the two renames of the swap (previous site moved aside, new one not yet
/// moved in) is too short to hit from outside, so the state it leaves is made by hand: the
/// next build, even one that fails, puts the previous site back.
#[test]
fn kill_between_the_renames_is_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    let dest = dir.path().join("out");
    std::fs::create_dir_all(book.join("content/c0")).unwrap();
    std::fs::write(
        book.join("content/c0/a.md"),
        "---\ntitle: A\nconnector: c0\nkind: concept\n---\nBody.\n",
    )
    .unwrap();
    assert!(build(&book, &dest).status.success());
    let before = snapshot(&dest);
    std::fs::rename(&dest, dir.path().join(".out.kbook-old-4242")).unwrap();
    std::fs::create_dir_all(dir.path().join(".out.kbook-tmp-4242/c0")).unwrap();
    std::fs::write(dir.path().join(".out.kbook-tmp-4242/c0/a.html"), "half").unwrap();

    // A failing build restores the previous site and writes nothing else.
    std::fs::write(book.join("content/c0/bad.md"), "no front-matter\n").unwrap();
    let o = build(&book, &dest);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(snapshot(&dest), before, "previous site not restored");

    // A good build then replaces it and cleans every leftover.
    std::fs::remove_file(book.join("content/c0/bad.md")).unwrap();
    assert!(build(&book, &dest).status.success());
    assert_eq!(snapshot(&dest), before);
    assert_eq!(leftovers(&dest), Vec::<PathBuf>::new());
}
