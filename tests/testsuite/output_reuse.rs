//! Rebuilds reuse the previous site's unchanged files: `kbook build` hard-links every file
//! whose bytes did not change from the previous site into the new one (no new inode, see
//! `write_atomically`), writes the others anew, and the result is byte for byte what a
//! fresh build gives.

#![cfg(unix)]

use crate::common::{build_site, leftovers, snapshot, walk, write_generated_book};
use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

const ENTRIES: usize = 24;
const CONNECTORS: usize = 3;

/// Writes a book; `changed` gets another body in entry 0 only.
fn write_book(root: &Path, changed: bool) {
    write_generated_book(root, "Reuse test", ENTRIES, CONNECTORS, |i, c| {
        let extra = if changed && i == 0 {
            "\nA line added later.\n"
        } else {
            ""
        };
        format!(
            "---\ntitle: \"Entry {i}\"\nconnector: c{c}\nkind: error\nerrors:\n  - \"org.example.Error{i}: failure {i}\"\n---\n## Symptom\n\nThe job fails with error {i}.\n{extra}\n## Solution\n\nRetry.\n"
        )
    });
}

/// A temporary directory with the unchanged book in `book/`, built into `out/`.
fn built_book() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    let dest = dir.path().join("out");
    std::fs::create_dir_all(&book).unwrap();
    write_book(&book, false);
    build(&book, &dest);
    (dir, book, dest)
}

fn build(book: &Path, dest: &Path) {
    let o = build_site(book, dest, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Inode of every file under `dir`, keyed by relative path.
fn inodes(dir: &Path) -> BTreeMap<String, u64> {
    walk(dir)
        .into_iter()
        .map(|p| {
            let ino = std::fs::symlink_metadata(&p).unwrap().ino();
            (rel(dir, &p), ino)
        })
        .collect()
}

fn rel(dir: &Path, p: &Path) -> String {
    p.strip_prefix(dir).unwrap().to_string_lossy().to_string()
}

/// Every file of the site has one name only (the previous site was removed entirely) and no
/// temporary or previous directory is left beside it.
fn assert_clean(dest: &Path) {
    for p in walk(dest) {
        let m = std::fs::symlink_metadata(&p).unwrap();
        assert!(m.is_file(), "{} is not a regular file", p.display());
        assert_eq!(m.nlink(), 1, "{} has other names", p.display());
    }
    let left = leftovers(dest);
    assert!(left.is_empty(), "leftovers: {left:?}");
}

#[test]
fn rebuilds_link_unchanged_files_and_write_changed_ones() {
    let (dir, book, dest) = built_book();
    let v1 = snapshot(&dest);
    let ino1 = inodes(&dest);
    assert!(v1.contains_key("c0/entry-0.html"), "{:?}", v1.keys());

    // Unchanged book: the same bytes, and every file is the previous one.
    build(&book, &dest);
    assert_eq!(snapshot(&dest), v1);
    assert_eq!(inodes(&dest), ino1, "unchanged files were written anew");
    assert_clean(&dest);

    // One entry changed: the site is what a fresh build gives; the changed page is a new
    // file, and a file keeps its inode exactly when its bytes did not change.
    write_book(&book, true);
    build(&book, &dest);
    let fresh = dir.path().join("fresh");
    build(&book, &fresh);
    let v2 = snapshot(&dest);
    assert_eq!(
        v2,
        snapshot(&fresh),
        "the rebuilt site differs from a fresh one"
    );
    assert!(String::from_utf8_lossy(&v2["c0/entry-0.html"]).contains("A line added later."));
    let ino2 = inodes(&dest);
    assert_ne!(ino2["c0/entry-0.html"], ino1["c0/entry-0.html"]);
    let mut shared = 0;
    for (path, bytes) in &v2 {
        let Some(before) = v1.get(path) else {
            continue;
        };
        if before == bytes {
            assert_eq!(ino2[path], ino1[path], "{path}: unchanged but written anew");
            shared += 1;
        } else {
            assert_ne!(ino2[path], ino1[path], "{path}: changed but kept its inode");
        }
    }
    assert!(shared > 0, "no file was reused");
    assert_clean(&dest);
}

/// A changed entry body changes its own page and the search files, and no other page: pages
/// do not name the content-hashed index (search/manifest.* does), so CDN caches of every
/// other page stay valid.
#[test]
fn a_changed_body_changes_only_its_page_and_the_search_files() {
    let (dir, book, dest) = built_book();
    let before = snapshot(&dest);
    write_book(&book, true);
    let after_dir = dir.path().join("after");
    build(&book, &after_dir);
    let after = snapshot(&after_dir);
    let mut changed: Vec<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|p| before.get(*p) != after.get(*p))
        .collect();
    changed.sort();
    changed.dedup();
    assert!(
        changed.iter().any(|p| p.starts_with("search/")),
        "the search files did not change: {changed:?}"
    );
    let outside: Vec<&&String> = changed
        .iter()
        .filter(|p| !p.starts_with("search/"))
        .collect();
    assert_eq!(
        outside,
        [&"c0/entry-0.html"],
        "files changed besides the search files"
    );
    // The fixed-name manifest names the new index, which exists.
    let manifest: serde_json::Value =
        serde_json::from_slice(&after["search/manifest.json"]).unwrap();
    let index = manifest["index"].as_str().unwrap();
    assert!(after.contains_key(index), "{index} is not in the site");
    assert_ne!(
        before["search/manifest.json"],
        after["search/manifest.json"]
    );
}

/// A previous file is reused only if it is a regular file with the bytes, owner and mode a
/// new one would get: one edited by hand (same length), made private, or replaced by a
/// symlink is written anew.
#[test]
fn previous_files_that_differ_are_written_anew() {
    let (dir, book, dest) = built_book();
    let v1 = snapshot(&dest);
    let ino1 = inodes(&dest);
    let html: Vec<&String> = v1.keys().filter(|k| k.ends_with(".html")).collect();
    assert!(html.len() >= 3, "{html:?}");
    let (edited, private, linked) = (html[0], html[1], html[2]);

    let mut bytes = v1[edited].clone();
    bytes[0] ^= 1;
    std::fs::write(dest.join(edited), &bytes).unwrap();
    std::fs::set_permissions(dest.join(private), std::fs::Permissions::from_mode(0o600)).unwrap();
    let outside = dir.path().join("outside.html");
    std::fs::write(&outside, &v1[linked]).unwrap();
    std::fs::remove_file(dest.join(linked)).unwrap();
    std::os::unix::fs::symlink(&outside, dest.join(linked)).unwrap();

    build(&book, &dest);
    assert_eq!(snapshot(&dest), v1);
    let ino2 = inodes(&dest);
    let mode = |p: &str| std::fs::metadata(dest.join(p)).unwrap().mode() & 0o777;
    for p in [edited, private, linked] {
        assert_ne!(ino2[p.as_str()], ino1[p.as_str()], "{p} was reused");
    }
    assert_eq!(mode(private), mode(edited), "{private} kept its mode");
    assert_eq!(
        std::fs::read(&outside).unwrap(),
        v1[linked],
        "outside file changed"
    );
    let reused = ino2
        .iter()
        .filter(|(p, ino)| ino1.get(p.as_str()) == Some(ino))
        .count();
    assert_eq!(reused, ino1.len() - 3);
    assert_clean(&dest);
}

/// A destination that is a link to the published folder stays a link, and the folder it
/// names gets the new site; one that is a mount point (a container's volume) is refilled in
/// place, since it cannot be renamed.
#[test]
fn a_linked_or_mounted_destination_is_refilled() {
    let (dir, book, built) = built_book();
    let release = dir.path().join("releases/kb");
    std::fs::create_dir_all(release.parent().unwrap()).unwrap();
    std::fs::rename(&built, &release).unwrap();
    let link = dir.path().join("public");
    std::os::unix::fs::symlink("releases/kb", &link).unwrap();
    write_book(&book, true);
    build(&book, &link);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced"
    );
    let fresh = dir.path().join("fresh");
    build(&book, &fresh);
    assert_eq!(snapshot(&release), snapshot(&fresh));
    assert_clean(&release);

    // A bind mount, where the system allows one (as root): skipped elsewhere.
    let mounted = dir.path().join("mnt");
    let under = dir.path().join("under");
    std::fs::create_dir_all(&mounted).unwrap();
    std::fs::create_dir_all(&under).unwrap();
    let mount = std::process::Command::new("mount")
        .arg("--bind")
        .arg(&under)
        .arg(&mounted)
        .output();
    if !mount.is_ok_and(|o| o.status.success()) {
        eprintln!("no bind mount here: the mount point case is not run");
        return;
    }
    // Unmounted however the builds end.
    struct Mounted<'a>(&'a Path);
    impl Drop for Mounted<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(self.0).status();
        }
    }
    let built_twice = {
        let _mounted = Mounted(&mounted);
        build(&book, &mounted);
        write_book(&book, false);
        build(&book, &mounted);
        snapshot(&mounted)
    };
    build(&book, &fresh);
    assert_eq!(built_twice, snapshot(&fresh));
    assert_clean(&under);
}
