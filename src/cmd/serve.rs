//! `kbook serve`: build, serve on loopback, rebuild on change (see [`kbook::serve`]).

use super::{BookArgs, diagnostics_error};
use anyhow::Result;
use kbook::config::Config;
use std::path::PathBuf;
use std::process::ExitCode;

/// Serves the book until the process is stopped.
pub fn run(
    args: &BookArgs,
    port: u16,
    bind: String,
    open: bool,
    dest: Option<PathBuf>,
) -> Result<ExitCode> {
    let config = Config::load(&args.book).map_err(|d| diagnostics_error(&d))?;
    let dest = dest.unwrap_or_else(|| config.build_dir());
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
