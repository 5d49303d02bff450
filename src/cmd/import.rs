//! `kbook import`: a book from an existing docs tree.

use anyhow::{Context, Result};
use kbook::import::{Generator, import};
use std::path::PathBuf;
use std::process::ExitCode;

/// The generator a docs tree was written for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum From {
    /// Hugo (`content/`, YAML or TOML front-matter, shortcodes).
    Hugo,
    /// Zola (`content/`, TOML front-matter, shortcodes).
    Zola,
    /// Docusaurus (`docs/`, `.md`/`.mdx`, `:::` admonitions).
    Docusaurus,
    /// MkDocs (`mkdocs.yml`, `!!!` admonitions, snippets).
    Mkdocs,
    /// mdBook (`book.toml`, `SUMMARY.md`, `{{#include}}`).
    Mdbook,
}

/// Arguments of `kbook import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The generator the source tree was written for.
    #[arg(long, value_enum)]
    pub from: From,
    /// The source tree's root (the directory with the generator's configuration).
    pub src: PathBuf,
    /// The pages directory, relative to SRC, instead of the generator's (e.g. `content.zh`
    /// for a Hugo site's Chinese pages).
    #[arg(long, value_name = "DIR")]
    pub pages: Option<PathBuf>,
    /// Where to write the book (created; must not hold a book yet).
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub into: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Imports, prints the summary and every reported item.
pub fn run(args: &ImportArgs) -> Result<ExitCode> {
    let from = match args.from {
        From::Hugo => Generator::Hugo,
        From::Zola => Generator::Zola,
        From::Docusaurus => Generator::Docusaurus,
        From::Mkdocs => Generator::Mkdocs,
        From::Mdbook => Generator::Mdbook,
    };
    if args.into.is_file() {
        anyhow::bail!(
            "{} is a file: --into takes a folder for the book (new or empty)",
            args.into.display()
        );
    }
    // A failed import leaves `--into` as it found it: absent, or empty.
    let existed = args.into.exists();
    let was_empty = std::fs::read_dir(&args.into).is_ok_and(|mut d| d.next().is_none());
    std::fs::create_dir_all(&args.into)
        .with_context(|| format!("cannot create {}", args.into.display()))?;
    let report = match import(from, &args.src, args.pages.as_deref(), &args.into) {
        Ok(report) => report,
        Err(e) => {
            if !existed {
                let _ = std::fs::remove_dir_all(&args.into);
            } else if was_empty && let Ok(entries) = std::fs::read_dir(&args.into) {
                for entry in entries.flatten() {
                    let p = entry.path();
                    let _ = if p.is_dir() {
                        std::fs::remove_dir_all(&p)
                    } else {
                        std::fs::remove_file(&p)
                    };
                }
            }
            return Err(anyhow::Error::new(e).context(format!(
                "cannot import {} as {}",
                args.src.display(),
                from.name()
            )));
        }
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        out!("{report}")?;
        outln!(
            "\nWrote {} entries into {}. Next: `kbook check --book {}` to review warnings, then `kbook serve --book {}`.",
            report.entries,
            args.into.display(),
            args.into.display(),
            args.into.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
