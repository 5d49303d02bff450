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
        bail!(
            "the connector `{connector}` is not in book.toml (known: {}): add it under \
             [[kbook.connectors]] first, or use one of those",
            known.join(", ")
        );
    }
    let dir = config.src_dir().join(connector);
    let path = dir.join(format!("{id}.md"));
    if path.exists() {
        bail!("{} already exists", path.display());
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // The sections in the book's language, as `kbook init` writes its examples.
    let sections = if kbook::i18n::is_chinese(&config.book.language) {
        ["现象", "原因", "解决方法"]
    } else {
        ["Symptom", "Cause", "Solution"]
    };
    let text = format!(
        "---\nid: {id}\ntitle: \"\"\nconnector: {connector}\nkind: error            # error | troubleshooting | howto | concept | behavior\nerrors:                # verbatim error text from the logs, or {{ text: \"…\", source: \"https://…\" }}\n  - \"\"\nversions: []           # e.g. - {{ product: vvr, affected: \">=8.0.5, <8.0.9\", fixed: \"8.0.9\" }}\ntags: []\nsymptoms: []           # how readers describe it, any language: \"no rows arrive downstream\"\nrelated: []\nupdated: {}\naliases: []\n---\n## {}\n\n## {}\n\n## {}\n\n1. \n",
        kbook::date::today(),
        sections[0],
        sections[1],
        sections[2],
    );
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    outln!("Created {}", path.display())?;
    Ok(ExitCode::SUCCESS)
}
