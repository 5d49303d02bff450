//! `kbook new`: scaffold an entry with every front-matter field.

use super::diagnostics_error;
use anyhow::{Context, Result, bail};
use kbook::config::Config;
use std::path::Path;
use std::process::ExitCode;

/// Scaffolds `content/<connector>/<id>.md`.
pub fn run(book: &Path, spec: &str) -> Result<ExitCode> {
    let Some((connector, id)) = spec.trim_end_matches(".md").split_once('/') else {
        bail!("expected <connector>/<id>, e.g. `kafka/kafka-offset-out-of-range`, got `{spec}`");
    };
    for (what, s) in [("connector", connector), ("id", id)] {
        if !kbook::config::is_slug(s) {
            bail!("the {what} `{s}` is not a slug: use lowercase letters, digits and hyphens");
        }
    }
    if !book.join("book.toml").is_file() {
        bail!(
            "{} has no book.toml: run `kbook init {}` first, or name the book with --book",
            book.display(),
            book.display()
        );
    }
    let config = Config::load(book).map_err(|d| diagnostics_error(&d))?;
    let known = config.connector_slugs();
    if !known.is_empty() && !known.contains(&connector) {
        let guess = kbook::diagnostic::did_you_mean(connector, known.iter().copied())
            .map(|g| format!("did you mean `{g}`? "))
            .unwrap_or_default();
        bail!(
            "the connector `{connector}` is not in book.toml ({guess}known: {}): add it under \
             [[kbook.connectors]] first, or use one of those",
            known.join(", ")
        );
    }
    // A content link to nothing is said as `kbook build` says it, not as a folder to make.
    let src = config.src_dir();
    if !src.is_dir()
        && let Ok(target) = std::fs::read_link(&src)
    {
        bail!(
            "{} is a link to {}, which is not a folder: point the link at the folder of \
             entries, or set `[book] src` in book.toml",
            src.display(),
            target.display()
        );
    }
    let dir = src.join(connector);
    let path = dir.join(format!("{id}.md"));
    if path.exists() {
        bail!("{} already exists", path.display());
    }
    // Ids are unique across the book, not only within a connector's folder.
    if let Some(other) = walkdir::WalkDir::new(config.src_dir())
        .into_iter()
        .flatten()
        .find(|e| e.file_type().is_file() && e.file_name() == format!("{id}.md").as_str())
    {
        bail!(
            "{} already has the id `{id}`: ids are unique across the book; pick another",
            other.path().display()
        );
    }
    // A kind the book allows: `error` unless its `[kbook] kinds` leave it out.
    let kinds = config.kinds();
    let kind = if kinds.iter().any(|k| k == "error") {
        "error".to_string()
    } else {
        kinds
            .first()
            .cloned()
            .unwrap_or_else(|| "error".to_string())
    };
    let kind_comment = format!("# {}", kinds.join(" | "));
    // A title that passes `kbook check` until the author writes the real one.
    let mut title: String = id.replace('-', " ");
    if let Some(first) = title.get(..1) {
        title = first.to_uppercase() + &title[1..];
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // The sections in the book's language, as `kbook init` writes its examples.
    let sections = if kbook::i18n::is_chinese(&config.book.language) {
        ["现象", "原因", "解决方法"]
    } else {
        ["Symptom", "Cause", "Solution"]
    };
    // `check --fix` knows these comments as the scaffold's own, and may drop them.
    let [errors_note, versions_note, symptoms_note, language_line] =
        kbook::content::fix::SCAFFOLD_COMMENTS;
    let text = format!(
        "---\nid: {id}\ntitle: \"{title}\"\nconnector: {connector}\nkind: {kind}            {kind_comment}\nerrors: []             # {errors_note}\nversions: []           # {versions_note}\ntags: []\nsymptoms: []           # {symptoms_note}\nrelated: []\nupdated: {}\naliases: []\n# {language_line}\n---\n## {}\n\n## {}\n\n## {}\n\n1. \n",
        kbook::date::today(),
        sections[0],
        sections[1],
        sections[2],
    );
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    outln!("Created {}", path.display())?;
    Ok(ExitCode::SUCCESS)
}
