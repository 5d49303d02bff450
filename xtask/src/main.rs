//! Project tasks: `cargo xtask test` installs what the tests need (Debian's Chromium for the
//! browser tests) and runs the whole test suite.

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(&args[1..]),
        Some("install-test-deps") => install_test_deps(),
        _ => {
            eprintln!("usage: cargo xtask <task>\n\ntasks:\n  test [ARGS]          install test prerequisites, then `cargo test --workspace [ARGS]`\n  install-test-deps    install Chromium (Debian package) for the browser tests");
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

fn install_test_deps() -> Result<ExitCode> {
    if Path::new(CHROMIUM).exists() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("xtask: {CHROMIUM} is missing; installing Debian's chromium package for the browser tests");
    let root = Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false);
    let apt = |args: &[&str]| -> Result<()> {
        let mut cmd = if root {
            Command::new("apt-get")
        } else {
            let mut c = Command::new("sudo");
            c.arg("-n").arg("apt-get");
            c
        };
        let status = cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive").status().context("cannot run apt-get")?;
        if !status.success() {
            bail!("`apt-get {}` failed; install Chromium yourself (`apt-get install -y chromium`) and run again", args.join(" "));
        }
        Ok(())
    };
    apt(&["update", "-qq"])?;
    apt(&["install", "-y", "-qq", "chromium"])?;
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
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo).args(["test", "--workspace"]).args(extra).status().context("cannot run cargo test")?;
    Ok(if status.success() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
