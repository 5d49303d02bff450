//! `kbook completions`: a shell completion script on stdout.

use std::process::ExitCode;

/// Prints the completion script for `shell`.
pub fn run(shell: clap_complete::Shell) -> ExitCode {
    let mut cmd = <super::Cli as clap::CommandFactory>::command();
    clap_complete::generate(shell, &mut cmd, "kbook", &mut std::io::stdout());
    ExitCode::SUCCESS
}
