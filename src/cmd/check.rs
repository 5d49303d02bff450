//! `kbook check`: validate and render in memory, write nothing (with `--fix`, first rewrite
//! front-matter into its canonical form).

use super::{BookArgs, build, diagnostics_error};
use anyhow::{Context, Result};
use kbook::config::Config;
use std::process::ExitCode;

/// Checks the book; `fix` rewrites front-matter first.
pub fn run(args: &BookArgs, fix: bool) -> Result<ExitCode> {
    if fix {
        let config = Config::load(&args.book).map_err(|d| diagnostics_error(&d))?;
        let fixed = kbook::content::fix::fix_front_matter(&config)
            .context("cannot rewrite front-matter")?;
        for p in &fixed.rewritten {
            eprintln!("normalised {}", p.display());
        }
        for p in &fixed.commented {
            eprintln!(
                "left {} as it is: its front-matter has comments, which rewriting would drop",
                p.display()
            );
        }
        eprintln!("--fix: {} file(s) rewritten", fixed.rewritten.len());
    }
    Ok(build::build_or_check(args, None, true))
}
