//! The file system: symlinks, FIFOs, unreadable files, names that are not slugs, two
//! files on one URL, aliases onto other pages, a missing content directory.

use super::*;

#[test]
fn symlink_loop_is_refused() {
    let c = Case::with(&[]);
    let k = c.book.join("content/kafka");
    std::os::unix::fs::symlink(k.join("b.md"), k.join("a.md")).unwrap();
    std::os::unix::fs::symlink(k.join("a.md"), k.join("b.md")).unwrap();
    std::os::unix::fs::symlink(&k, k.join("again")).unwrap();
    assert_fails_with(
        &c,
        &[
            "content/kafka/a.md:1:1: error: symbolic links are not followed",
            "content/kafka/b.md:1:1: error: symbolic links are not followed",
            "content/kafka/again:1:1: error: symbolic links are not followed",
        ],
    );
}

#[test]
fn symlinks_leaving_the_book_are_refused() {
    let c = Case::with(&[]);
    let outside = c.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.md"), GOOD).unwrap();
    let k = c.book.join("content/kafka");
    std::os::unix::fs::symlink(outside.join("secret.md"), k.join("secret.md")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", k.join("passwd.md")).unwrap();
    std::os::unix::fs::symlink(&outside, c.book.join("content/elsewhere")).unwrap();
    assert_fails_with(
        &c,
        &[
            "content/kafka/secret.md:1:1: error: symbolic links are not followed",
            "content/kafka/passwd.md:1:1: error: symbolic links are not followed",
            "content/elsewhere:1:1: error: symbolic links are not followed",
        ],
    );
}

/// The content directory itself may be a link (to docs a repository or several books share),
/// as `root/` may; links inside it are still refused (above).
#[test]
fn content_directory_may_be_a_link() {
    let c = Case::with(&[]);
    let shared = c.dir.path().join("shared-docs");
    std::fs::rename(c.book.join("content"), &shared).unwrap();
    std::os::unix::fs::symlink(&shared, c.book.join("content")).unwrap();
    let again = shared.join("kafka/again.md");
    std::os::unix::fs::symlink(shared.join("kafka/fine.md"), &again).unwrap();
    let err = assert_fails_with(
        &c,
        &["content/kafka/again.md:1:1: error: symbolic links are not followed"],
    );
    assert!(!err.contains("content:1:1"), "{err}");
    std::fs::remove_file(&again).unwrap();
    // A link to nothing is said as such, not as a folder to make.
    let content = c.book.join("content");
    std::fs::remove_file(&content).unwrap();
    std::os::unix::fs::symlink(c.dir.path().join("gone"), &content).unwrap();
    assert_fails_without_position(
        &c,
        &[
            "content: error: the content directory is a link to",
            "which is not a folder",
        ],
    );
    // `kbook new` says the same, not that it cannot create a folder.
    c.write("book.toml", b"[book]\ntitle = \"T\"\n");
    let o = Command::new(env!("CARGO_BIN_EXE_kbook"))
        .args(["new", "kafka/another"])
        .current_dir(&c.book)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a link to") && stderr(&o).contains("which is not a folder"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(c.book.join("book.toml")).unwrap();
    std::fs::remove_file(&content).unwrap();
    std::os::unix::fs::symlink(&shared, &content).unwrap();
    let (o, _) = c.build(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(c.out.join("kafka/fine.html").is_file());
}

#[test]
fn fifo_named_like_an_entry_is_refused_not_read() {
    let c = Case::with(&[]);
    let fifo = c.book.join("content/kafka/pipe.md");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    // Reading a FIFO would block forever; the bounded time in assert_fails_with checks that.
    assert_fails_with(
        &c,
        &["content/kafka/pipe.md:1:1: error: not a regular file"],
    );
}

/// File names that are not slugs: accepted with an explicit `id:`, otherwise a clear error.
#[test]
fn file_names_with_spaces_and_non_ascii() {
    let c = Case::with(&[
        ("content/kafka/My Entry.md", GOOD.as_bytes()),
        ("content/kafka/fehler-überlauf.md", GOOD.as_bytes()),
    ]);
    assert_fails_with(
        &c,
        &[
            "content/kafka/My Entry.md:1:1: error: the file name `My Entry` is not a valid id",
            "content/kafka/fehler-überlauf.md:1:1: error: the file name `fehler-überlauf` is not a valid id",
            "set `id:` in the front-matter",
        ],
    );
    let with_id = |id: &str| GOOD.replace("---\ntitle", &format!("---\nid: {id}\ntitle"));
    c.write("content/kafka/My Entry.md", with_id("my-entry").as_bytes());
    c.write(
        "content/kafka/fehler-überlauf.md",
        with_id("fehler-ueberlauf").as_bytes(),
    );
    assert_builds(&c);
    assert!(c.out.join("kafka/my-entry.html").exists());
    assert!(c.out.join("kafka/fehler-ueberlauf.html").exists());
}

#[test]
fn two_files_with_the_same_url() {
    // Same stem in two folders, same connector: both would write kafka/shared.html.
    assert_fails_with(
        &Case::new("same-url"),
        &[
            "content/more/shared.md:1:1: error: duplicate id `shared`: content/kafka/shared.md uses it too",
        ],
    );
}

#[test]
fn alias_onto_another_entry() {
    assert_fails_with(
        &Case::new("alias-onto-entry"),
        &[
            "content/kafka/thief.md:5:1: error: an alias writes `kafka/target.html`, which content/kafka/target.md writes too",
        ],
    );
}

#[test]
fn anchored_aliases_share_a_page_but_not_an_anchor_or_an_entry_page() {
    let c = Case::new("alias-onto-entry");
    let entry = |title: &str, aliases: &str| {
        format!(
            "---\ntitle: \"{title}\"\nconnector: kafka\nkind: concept\naliases: [{aliases}]\n---\nBody.\n"
        )
    };
    // One old page, its anchors to two entries and the page itself to a third: one redirect page.
    c.write(
        "content/kafka/thief.md",
        entry("Intro", "\"old/faq/\"").as_bytes(),
    );
    c.write(
        "content/kafka/q1.md",
        entry("Q1", "\"old/faq/#q1\"").as_bytes(),
    );
    c.write(
        "content/kafka/q2.md",
        entry("Q2", "\"old/faq/#q2\"").as_bytes(),
    );
    assert_builds(&c);
    let page = std::fs::read_to_string(c.out.join("old/faq/index.html")).unwrap();
    assert!(
        page.contains("data-kbook-anchor=\"q2\" href=\"../../kafka/q2.html\""),
        "{page}"
    );
    assert!(page.contains("url=../../kafka/thief.html"), "{page}");
    // The same anchor twice, and an anchor on a page an entry writes.
    let c = Case::new("alias-onto-entry");
    c.write(
        "content/kafka/thief.md",
        entry("Intro", "\"old/faq/\"").as_bytes(),
    );
    c.write(
        "content/kafka/q1.md",
        entry("Q1", "\"old/faq/#q1\"").as_bytes(),
    );
    c.write(
        "content/kafka/q2.md",
        entry("Q2", "\"old/faq/#q1\", \"kafka/target.html#x\"").as_bytes(),
    );
    assert_fails_with(
        &c,
        &[
            "content/kafka/q2.md:5:1: error: an alias writes `old/faq/index.html#q1`, which content/kafka/q1.md writes too",
            "content/kafka/q2.md:5:1: error: an alias redirects from `kafka/target.html`, which content/kafka/target.md writes as a page",
        ],
    );
}

/// The effective user id, from the owner of a file we create.
fn euid(dir: &Path) -> u32 {
    let probe = dir.join("euid-probe");
    std::fs::write(&probe, "").unwrap();
    let uid = std::fs::metadata(&probe).unwrap().uid();
    std::fs::remove_file(probe).unwrap();
    uid
}

/// An unreadable entry and an unreadable folder. Root reads anything, so under root the
/// build runs as `nobody` through `setpriv` (util-linux); without it the case is skipped with
/// a message rather than passing vacuously.
#[test]
fn unreadable_file_and_folder() {
    let c = Case::with(&[("content/kafka/locked.md", GOOD.as_bytes())]);
    std::fs::create_dir_all(c.book.join("content/sealed")).unwrap();
    std::fs::write(c.book.join("content/sealed/inside.md"), GOOD).unwrap();
    let mut run_as: Vec<String> = Vec::new();
    if euid(c.dir.path()) == 0 {
        if !Path::new("/usr/bin/setpriv").exists() {
            eprintln!(
                "SKIPPED: running as root and /usr/bin/setpriv is missing, so permissions cannot be denied"
            );
            return;
        }
        run_as = [
            "/usr/bin/setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
        ]
        .map(String::from)
        .to_vec();
        // `nobody` must reach the book and may write beside `out` (it never does here).
        for p in walk(c.dir.path()) {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        for d in [
            c.dir.path().to_path_buf(),
            c.book.clone(),
            c.book.join("content"),
            c.book.join("content/kafka"),
            c.out.clone(),
            c.out.join("kafka"),
        ] {
            std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
    }
    std::fs::set_permissions(
        c.book.join("content/kafka/locked.md"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    std::fs::set_permissions(
        c.book.join("content/sealed"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let mut cmd = match run_as.split_first() {
        Some((prog, args)) => {
            let mut cmd = Command::new(prog);
            cmd.args(args).arg(env!("CARGO_BIN_EXE_kbook"));
            cmd
        }
        None => kbook_command(),
    };
    let o = cmd
        .arg("build")
        .arg("--book")
        .arg(&c.book)
        .arg("--dest")
        .arg(&c.out)
        .output()
        .unwrap();
    std::fs::set_permissions(
        c.book.join("content/sealed"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("content/kafka/locked.md:1:1: error: cannot read the file: Permission denied"),
        "{err}"
    );
    assert!(
        err.contains("content/sealed:1:1: error: cannot read"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert_previous_site_intact(&c.out);
}

#[test]
fn missing_content_directory() {
    let c = Case::new("");
    std::fs::remove_dir_all(c.book.join("content")).unwrap();
    assert_fails_without_position(
        &c,
        &["content: error: the content directory does not exist"],
    );
}

/// A build replaces its whole destination: one that is the book's sources, a file, or a folder
/// of other files is refused before anything is written, along with the book's own problems;
/// and the single-file book is not written over a source.
#[test]
fn destinations_that_would_lose_files_are_refused() {
    let c = Case::with(&[("content/kafka/broken.md", b"---\ntitle: [\n---\n")]);
    let snapshot = |p: &Path| crate::common::snapshot(p);
    let sources = snapshot(&c.book);
    let foreign = c.dir.path().join("mine");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("thesis.txt"), "my own").unwrap();
    let file = c.dir.path().join("notes.txt");
    std::fs::write(&file, "my own").unwrap();
    for (dest, said) in [
        (c.book.join("content"), "is the book's content directory"),
        (
            c.book.join("content/kafka"),
            "is inside the book's content directory",
        ),
        (c.book.clone(), "holds the book itself"),
        (c.dir.path().to_path_buf(), "holds the book itself"),
        (foreign.clone(), "holds files kbook did not write"),
        (file.clone(), "is a file"),
    ] {
        let o = crate::common::build_site(&c.book, &dest, &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{}: {err}", dest.display());
        assert!(err.contains(said), "missing `{said}` in:\n{err}");
        // The book's own problem is reported in the same run.
        assert!(err.contains("content/kafka/broken.md:"), "{err}");
        assert!(err.contains("nothing was written"), "{err}");
    }
    assert_eq!(snapshot(&c.book), sources, "the book changed");
    assert_eq!(snapshot(&foreign).len(), 1);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my own");
    std::fs::remove_file(c.book.join("content/kafka/broken.md")).unwrap();
    let sources = snapshot(&c.book);
    for (flag, path, said) in [
        ("--single-file", "book.toml", "is the book's book.toml"),
        (
            "--bundle",
            "content/kafka/kb.zip",
            "is inside the book's content directory",
        ),
    ] {
        let target = c.book.join(path).to_string_lossy().to_string();
        let o = crate::common::build_site(&c.book, &c.out, &[flag, &target]);
        assert_eq!(o.status.code(), Some(1), "{flag} {path}");
        assert!(
            stderr(&o).contains(said),
            "missing `{said}` in:\n{}",
            stderr(&o)
        );
    }
    assert_eq!(snapshot(&c.book), sources, "the book changed");
    assert_previous_site_intact(&c.out);
}

/// An alias inside the folders the site writes itself (`search/`, `static/`) is refused by
/// `check` and `build` alike, naming the alias's line.
#[test]
fn aliases_into_the_sites_own_folders_are_refused() {
    let c = Case::with(&[(
        "content/kafka/thief.md",
        b"---\ntitle: \"Thief\"\nconnector: kafka\nkind: concept\naliases: [\"static/kbook.css\", \"search/manifest.json\"]\n---\nText.\n",
    )]);
    let err = assert_fails_with(
        &c,
        &[
            "content/kafka/thief.md:5:1: error: an alias writes `static/kbook.css/index.html`, inside `static/`",
            "content/kafka/thief.md:5:1: error: an alias writes `search/manifest.json/index.html`, inside `search/`",
        ],
    );
    let check = kbook_command()
        .args(["check", "--book"])
        .arg(&c.book)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1));
    assert!(stderr(&check).contains("inside `static/`"), "{err}");
}

/// Hidden files and folders and editors' lock, backup and autosave files are not entries (an
/// Emacs lock is a dangling symlink: it used to fail every build while a buffer was
/// modified); another spelling of `.md` is said, not dropped silently.
#[test]
fn editor_files_are_skipped_and_other_markdown_extensions_are_named() {
    let c = Case::with(&[
        ("content/kafka/.hidden-draft.md", GOOD.as_bytes()),
        ("content/kafka/fine.md~", GOOD.as_bytes()),
        ("content/kafka/#fine.md#", GOOD.as_bytes()),
        ("content/.drafts/later.md", GOOD.as_bytes()),
        ("content/kafka/upper.MD", GOOD.as_bytes()),
        ("content/kafka/other.markdown", GOOD.as_bytes()),
    ]);
    std::os::unix::fs::symlink(
        "user@host.1234:1700000000",
        c.book.join("content/kafka/.#fine.md"),
    )
    .unwrap();
    let (o, _) = c.build(&[]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    for name in ["upper.MD", "other.markdown"] {
        assert!(
            err.contains(&format!(
                "content/kafka/{name}:1:1: warning: not read: entries are `.md` files"
            )),
            "{name}: {err}"
        );
    }
    for name in ["hidden", "later", ".#fine", "fine.md~"] {
        assert!(!err.contains(name), "{name}: {err}");
    }
    assert!(c.out.join("kafka/fine.html").is_file());
    assert!(!c.out.join("kafka/.hidden-draft.html").exists());
    assert!(!c.out.join("drafts").exists() && !c.out.join(".drafts").exists());
}
