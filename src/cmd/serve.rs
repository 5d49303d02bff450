//! `kbook serve`: build, serve on loopback, rebuild on change (see [`kbook::serve`]).

use super::{BookArgs, diagnostics_error};
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

/// Where `kbook serve` writes the development site, inside the book (like `.docusaurus/`).
pub const SERVE_DIR: &str = ".kbook/serve";

/// Serves the book until the process is stopped.
pub fn run(
    args: &BookArgs,
    port: u16,
    bind: String,
    open: bool,
    dest: Option<PathBuf>,
) -> Result<ExitCode> {
    // Outside a book (no book.toml, no content/) there is nothing to watch or serve: say so
    // instead of waiting.
    if !args.book.join("book.toml").is_file() && !args.book.join("content").is_dir() {
        anyhow::bail!(
            "{} has no book.toml and no content/: run kbook serve in a book's folder, pass --book DIR, or start one with `kbook init`",
            args.book.display()
        );
    }
    // Loaded for its errors: a book.toml that does not parse is reported before serving, with
    // the entries' problems.
    kbook::site::load_config(&args.book).map_err(|d| diagnostics_error(&d))?;
    // Not the build directory: the development site (the index whole under a fixed name, the
    // reload script) must not replace the one `kbook build` wrote for publishing.
    let dest = dest.unwrap_or_else(|| args.book.join(SERVE_DIR));
    kbook::serve::serve(&kbook::serve::ServeOptions {
        book: args.book.clone(),
        dest,
        bind,
        port,
        open,
        format: args.message_format,
        verbose: args.verbose,
        deny_warnings: args.deny_warnings,
    })?;
    Ok(ExitCode::SUCCESS)
}
