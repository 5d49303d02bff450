//! `kbook completions`: a shell completion script on stdout.

use anyhow::Result;
use std::process::ExitCode;

/// Prints the completion script for `shell`.
pub fn run(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut cmd = <super::Cli as clap::CommandFactory>::command();
    // Written by us, not by `generate` (which panics when the reader has gone away).
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kbook", &mut script);
    out!("{}", String::from_utf8_lossy(&script))?;
    Ok(ExitCode::SUCCESS)
}
