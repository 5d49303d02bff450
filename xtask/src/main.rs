//! Project tasks: `cargo xtask test` installs what the tests need (Debian's Chromium for the
//! browser tests) and runs the whole test suite; `cargo xtask bench` measures builds and search
//! (see bench/mod.rs).

mod bench;
mod synth;

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(&args[1..]),
        Some("install-test-deps") => install_test_deps(),
        Some("gen-book") => gen_book(&args[1..]),
        Some("gen-distractors") => gen_distractors(&args[1..]),
        Some("add-book") => add_book(&args[1..]),
        Some("bench") => bench::bench(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <task>\n\ntasks:\n  test [ARGS]          install test prerequisites, then `cargo test --workspace [ARGS]`\n  install-test-deps    install Chromium, npm, Hugo and a CJK font (Debian packages) for the tests\n  gen-book N DIR       write a deterministic synthetic book of N entries into DIR\n  gen-distractors N BOOK DIR  copy BOOK to DIR and add N synthetic distractor entries\n  add-book BOOK OTHER DIR  copy BOOK to DIR and add OTHER's entries (another book's real text) as\n                       distractors, under content/distractor/ with the connector `distractor`\n  bench [--sizes 1000,10000,100000] [--runs N] [--queries FILE] [--base BOOK|none]\n        [--no-browser] [--no-pagefind] [--no-hugo] [--no-edit]\n                       build the bundled book plus N synthetic entries for each size and print build,\n                       size and search numbers (pasted errors) beside Pagefind's and Hugo's"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Where the browser tests look for Chromium.
const CHROMIUM: &str = "/usr/bin/chromium";
/// The font file of Debian's fonts-wqy-microhei.
const CJK_FONT: &str = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";

fn install_test_deps() -> Result<ExitCode> {
    let has_npm = Command::new("npm")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let mut packages = Vec::new();
    if !Path::new(CHROMIUM).exists() {
        packages.push("chromium");
    }
    // A small CJK font, so the Chinese book's screenshots show characters, not boxes.
    if !Path::new(CJK_FONT).exists() {
        packages.push("fonts-wqy-microhei");
    }
    if !has_npm {
        packages.push("npm");
    }
    // `kbook index` is tested on a site Hugo builds from a fixture.
    let has_hugo = Command::new("hugo")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_hugo {
        packages.push("hugo");
    }
    if packages.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "xtask: installing Debian packages for the browser tests: {}",
        packages.join(" ")
    );
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    let apt = |args: &[&str]| -> Result<()> {
        let mut cmd = if root {
            Command::new("apt-get")
        } else {
            let mut c = Command::new("sudo");
            c.arg("-n").arg("apt-get");
            c
        };
        let status = cmd
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .context("cannot run apt-get")?;
        if !status.success() {
            bail!(
                "`apt-get {}` failed; install them yourself (`apt-get install -y {}`) and run again",
                args.join(" "),
                packages.join(" ")
            );
        }
        Ok(())
    };
    apt(&["update", "-qq"])?;
    let mut install = vec!["install", "-y", "-qq"];
    install.extend(&packages);
    apt(&install)?;
    if !Path::new(CHROMIUM).exists() {
        bail!("chromium was installed but {CHROMIUM} does not exist");
    }
    Ok(ExitCode::SUCCESS)
}

fn test(extra: &[String]) -> Result<ExitCode> {
    let code = install_test_deps()?;
    if code != ExitCode::SUCCESS {
        return Ok(code);
    }
    install_axe()?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["test", "--workspace"])
        .args(extra)
        .status()
        .context("cannot run cargo test")?;
    Ok(if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// axe-core for the accessibility test (tests/testsuite/reader/budget.rs), pinned by tests/a11y/package-lock.json
/// and installed from the npm registry with `npm ci` when tests/a11y/node_modules is missing.
fn install_axe() -> Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/a11y");
    if dir.join("node_modules/axe-core/axe.min.js").is_file() {
        return Ok(());
    }
    eprintln!("xtask: installing axe-core (npm ci in tests/a11y) for the accessibility test");
    let status = Command::new("npm")
        .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
        .current_dir(&dir)
        .status()
        .context("cannot run npm (install Node.js and npm: `apt-get install -y npm`)")?;
    if !status.success() {
        bail!("`npm ci` in {} failed", dir.display());
    }
    Ok(())
}

fn count_arg(s: Option<&String>) -> Result<usize> {
    s.context("missing entry count")?
        .parse()
        .context("the entry count must be a whole number")
}

fn gen_book(args: &[String]) -> Result<ExitCode> {
    let n = count_arg(args.first())?;
    let dir = args.get(1).context("missing output directory")?;
    synth::write_book(Path::new(dir), n, 42)?;
    eprintln!("wrote a synthetic book of {n} entries to {dir}");
    Ok(ExitCode::SUCCESS)
}

/// The bundled (or any) book plus `n` distractors: relevance must survive a crowded index.
fn gen_distractors(args: &[String]) -> Result<ExitCode> {
    let n = count_arg(args.first())?;
    let book = Path::new(args.get(1).context("missing book directory")?);
    let out = Path::new(args.get(2).context("missing output directory")?);
    copy_tree(book, out, &["book", "target", ".git"])?;
    add_synthetic_connectors(&out.join("book.toml"))?;
    synth::write_entries(&out.join("content"), n, 7, "distractor")?;
    eprintln!("wrote {} with {n} distractor entries", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The connector (and folder) of the entries `add-book` adds: a word no query uses, since
/// the connector's name is also indexed as a word of each of its entries.
const OTHER_BOOK: &str = "distractor";

/// The bundled (or any) book plus another book's entries: distractors of real text on the
/// same subject (an imported docs tree: long reference pages, another team's FAQ), which
/// synthetic entries are not. Their connector is one the queries never name, so the other
/// book's own connector names do not count as the reader naming a connector.
fn add_book(args: &[String]) -> Result<ExitCode> {
    let book = Path::new(args.first().context("missing book directory")?);
    let other = Path::new(
        args.get(1)
            .context("missing directory of the book to add")?,
    );
    let out = Path::new(args.get(2).context("missing output directory")?);
    copy_tree(book, out, &["book", "target", ".git"])?;
    let dest = out.join("content").join(OTHER_BOOK);
    copy_tree(&other.join("content"), &dest, &[])?;
    if other.join("static").is_dir() {
        copy_tree(&other.join("static"), &out.join("static"), &[])?;
    }
    let mut added = 0;
    for path in markdown_files(&dest)? {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let Some(text) = with_connector(&text, OTHER_BOOK) else {
            bail!(
                "{}: no `connector:` line in its front-matter",
                path.display()
            );
        };
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        added += 1;
    }
    let toml = out.join("book.toml");
    let mut text = std::fs::read_to_string(&toml).context("cannot read book.toml")?;
    if text.contains("[[kbook.connectors]]") {
        text.push_str(&format!(
            "\n[[kbook.connectors]]\nslug = \"{OTHER_BOOK}\"\nname = \"{OTHER_BOOK}\"\n"
        ));
        std::fs::write(&toml, text).context("cannot write book.toml")?;
    }
    eprintln!(
        "wrote {} with {added} entries of {}",
        out.display(),
        other.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The Markdown files under `dir`, in a stable order.
fn markdown_files(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for item in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let path = item?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `text` with the first `connector:` line of its front-matter set to `slug`.
fn with_connector(text: &str, slug: &str) -> Option<String> {
    let body = text.strip_prefix("---\n")?;
    let end = body.find("\n---")?;
    let (front, rest) = body.split_at(end);
    let mut found = false;
    let lines: Vec<String> = front
        .lines()
        .map(|l| {
            if !found && l.starts_with("connector:") {
                found = true;
                format!("connector: {slug}")
            } else {
                l.to_string()
            }
        })
        .collect();
    found.then(|| format!("---\n{}{rest}", lines.join("\n")))
}

/// Synthetic entries' connectors must be known when the book lists its connectors.
fn add_synthetic_connectors(toml: &Path) -> Result<()> {
    let mut text = std::fs::read_to_string(toml).unwrap_or_default();
    if text.contains("[[kbook.connectors]]") {
        for c in synth::CONNECTORS {
            if !text.contains(&format!("slug = \"{c}\"")) {
                text.push_str(&format!(
                    "\n[[kbook.connectors]]\nslug = \"{c}\"\nname = \"{c}\"\n"
                ));
            }
        }
        std::fs::write(toml, text).context("cannot write book.toml")?;
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path, skip: &[&str]) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    for item in
        std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?
    {
        let item = item?;
        let name = item.file_name();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        let (src, dest) = (item.path(), to.join(&name));
        if item.file_type()?.is_dir() {
            copy_tree(&src, &dest, &[])?;
        } else {
            std::fs::copy(&src, &dest).with_context(|| format!("cannot copy {}", src.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::with_connector;

    #[test]
    fn add_book_sets_the_connector_of_the_front_matter_only() {
        let entry = "---\nid: a\nconnector: faq\ntitle: x\n---\nconnector: in the body\n";
        assert_eq!(
            with_connector(entry, "distractor").as_deref(),
            Some("---\nid: a\nconnector: distractor\ntitle: x\n---\nconnector: in the body\n")
        );
        // No front-matter, or none naming a connector: nothing to set (add-book reports it).
        assert_eq!(with_connector("connector: x\n", "distractor"), None);
        assert_eq!(
            with_connector("---\nid: a\n---\nbody\n", "distractor"),
            None
        );
    }
}
