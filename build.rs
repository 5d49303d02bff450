//! Builds the browser search module (`crates/search-wasm`) for `wasm32-unknown-unknown` so the
//! `kbook` binary can embed it with
//! `include_bytes!(concat!(env!("OUT_DIR"), "/kbook_search_wasm.wasm"))`.
//!
//! A nested `cargo build` into its own target dir under `OUT_DIR` (a separate lock, so no
//! deadlock with the outer build). The wasm32 target is installed with rustup when missing:
//! a fresh machine must build with plain `cargo build`, and rustup's automatic installs are
//! switched off on ours. `KBOOK_SEARCH_WASM=/path/to/module.wasm` skips the nested build
//! and embeds that file instead (for packagers that build the module separately).

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const WASM_TARGET: &str = "wasm32-unknown-unknown";
const WASM_PACKAGE: &str = "kbook-search-wasm";
const WASM_PROFILE: &str = "wasm-release";
const OUTPUT_NAME: &str = "kbook_search_wasm.wasm";
/// The getrandom backend is defined inside the module (see crates/search-wasm/src/lib.rs):
/// the "wasm_js" backend would add wasm-bindgen imports the page cannot satisfy.
const WASM_RUSTFLAGS: &str = "--cfg getrandom_backend=\"custom\"";

fn main() {
    if let Err(message) = run() {
        eprintln!("error: building the search module (crates/search-wasm) failed: {message}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let manifest_dir = PathBuf::from(env_var("CARGO_MANIFEST_DIR")?);
    let out_dir = PathBuf::from(env_var("OUT_DIR")?);
    let output = out_dir.join(OUTPUT_NAME);

    println!("cargo:rerun-if-env-changed=KBOOK_SEARCH_WASM");
    if let Some(prebuilt) = env::var_os("KBOOK_SEARCH_WASM").filter(|p| !p.is_empty()) {
        let prebuilt = PathBuf::from(prebuilt);
        println!("cargo:rerun-if-changed={}", prebuilt.display());
        fs::copy(&prebuilt, &output).map_err(|e| {
            format!(
                "could not copy KBOOK_SEARCH_WASM={}: {e}",
                prebuilt.display()
            )
        })?;
        return Ok(());
    }
    for path in [
        "crates/search-wasm",
        "crates/search",
        "Cargo.lock",
        "Cargo.toml",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            manifest_dir.join(path).display()
        );
    }

    let cargo = env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    ensure_wasm_target(&rustc)?;

    let target_dir = out_dir.join("wasm-target");
    let mut build = Command::new(&cargo);
    build
        .current_dir(&manifest_dir)
        .args([
            "build",
            "--profile",
            WASM_PROFILE,
            "-p",
            WASM_PACKAGE,
            "--target",
            WASM_TARGET,
        ])
        .arg("--target-dir")
        .arg(&target_dir)
        // The outer build's flags are for the host; the module gets only its own.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        // `cargo clippy` sets this; the module must be compiled, not linted.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
            wasm_rustflags(),
        )
        // Cargo reads build-script stdout as directives: keep the nested cargo's off it.
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    let status = build
        .status()
        .map_err(|e| format!("could not run {}: {e}", Path::new(&cargo).display()))?;
    if !status.success() {
        return Err(format!(
            "`cargo build --profile {WASM_PROFILE} -p {WASM_PACKAGE} --target {WASM_TARGET}` exited with {status} (its errors are above)"
        ));
    }

    let built = target_dir
        .join(WASM_TARGET)
        .join(WASM_PROFILE)
        .join("kbook_search_wasm.wasm");
    if !built.is_file() {
        return Err(format!(
            "the nested build succeeded but {} is missing",
            built.display()
        ));
    }
    if !optimise(&built, &output) {
        fs::copy(&built, &output).map_err(|e| {
            format!(
                "could not copy {} to {}: {e}",
                built.display(),
                output.display()
            )
        })?;
    }
    Ok(())
}

/// The module's rustflags. Panic locations embed dependency paths under CARGO_HOME; mapping
/// that prefix to a fixed name keeps the module (and so its content hash) the same on every
/// machine. Skipped for a CARGO_HOME with whitespace, which this space-separated variable
/// cannot carry.
fn wasm_rustflags() -> String {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    match home.as_deref().and_then(Path::to_str) {
        Some(home) if !home.is_empty() && !home.contains(char::is_whitespace) => {
            format!("{WASM_RUSTFLAGS} --remap-path-prefix={home}=/cargo-home")
        }
        _ => WASM_RUSTFLAGS.to_string(),
    }
}

fn env_var(name: &str) -> Result<String, String> {
    env::var(name).map_err(|e| format!("{name} is not set by cargo: {e}"))
}

/// Installs the wasm32 target into the active toolchain when its standard library is missing.
fn ensure_wasm_target(rustc: &OsString) -> Result<(), String> {
    let sysroot = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| {
            format!(
                "could not run `{} --print sysroot`: {e}",
                Path::new(rustc).display()
            )
        })?;
    if !sysroot.status.success() {
        return Err(format!(
            "`rustc --print sysroot` failed: {}",
            String::from_utf8_lossy(&sysroot.stderr).trim()
        ));
    }
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if sysroot.join("lib/rustlib").join(WASM_TARGET).is_dir() {
        return Ok(());
    }
    println!(
        "cargo:warning=installing the {WASM_TARGET} target with rustup (needed for the search module)"
    );
    let added = Command::new("rustup")
        .args(["target", "add", WASM_TARGET])
        .stdout(Stdio::null())
        .output()
        .map_err(|e| {
            format!(
                "could not add the wasm32 target: running `rustup target add {WASM_TARGET}` failed ({e}); install rustup, or add the target to your toolchain by hand"
            )
        })?;
    if !added.status.success() {
        return Err(format!(
            "could not add the wasm32 target: `rustup target add {WASM_TARGET}` exited with {}: {}",
            added.status,
            String::from_utf8_lossy(&added.stderr).trim()
        ));
    }
    Ok(())
}

/// Runs `wasm-opt -Oz` when it is on PATH (optional: Debian's `binaryen`). Returns false,
/// with a warning, when it is missing or fails, so the caller copies the module unchanged.
fn optimise(input: &Path, output: &Path) -> bool {
    let run = Command::new("wasm-opt")
        .arg("-Oz")
        // rustc enables these wasm features by default; older wasm-opt builds do not.
        .args([
            "--enable-bulk-memory",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-nontrapping-float-to-int",
            "--enable-reference-types",
            "--enable-multivalue",
        ])
        .arg(input)
        .arg("-o")
        .arg(output)
        .stdout(Stdio::null())
        .output();
    match run {
        Ok(out) if out.status.success() => true,
        Ok(out) => {
            println!(
                "cargo:warning=wasm-opt failed ({}); embedding the unoptimised search module: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .next()
                    .unwrap_or("")
            );
            false
        }
        // Not installed: the module works without it, only a little larger.
        Err(_) => false,
    }
}
