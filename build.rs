//! Builds the browser search module (`crates/search-wasm`) for `wasm32-unknown-unknown` so the
//! `kbook` binary can embed it with
//! `include_bytes!(concat!(env!("OUT_DIR"), "/kbook_search_wasm.wasm"))`.
//!
//! The module does not depend on the profile of the outer build (it always uses its own
//! `wasm-release` profile), so it is built once per state of its inputs into one place under
//! the workspace's target directory, `target/kbook-search-wasm/<hash of inputs>/`, and every
//! profile (dev, test, clippy, release) copies it from there: building it takes minutes.
//! A lock file serialises builds that run in parallel; the nested `cargo build` has its own
//! target directory there (a separate cargo lock, so no deadlock with the outer build).
//!
//! The wasm32 target is installed with rustup when missing: a fresh machine must build with
//! plain `cargo build`, and rustup's automatic installs are switched off on ours.
//! `KBOOK_SEARCH_WASM=/path/to/module.wasm` skips the nested build and embeds that file
//! instead (for packagers that build the module separately).

use sha2::{Digest, Sha256};
use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const WASM_TARGET: &str = "wasm32-unknown-unknown";
const WASM_PACKAGE: &str = "kbook-search-wasm";
const WASM_PROFILE: &str = "wasm-release";
const OUTPUT_NAME: &str = "kbook_search_wasm.wasm";
/// The shared directory under the target directory.
const SHARED_DIR: &str = "kbook-search-wasm";
/// The getrandom backend is defined inside the module (see crates/search-wasm/src/lib.rs):
/// the "wasm_js" backend would add wasm-bindgen imports the page cannot satisfy.
const WASM_RUSTFLAGS: &str = "--cfg getrandom_backend=\"custom\"";
/// What the module is built from, relative to the workspace root (besides the toolchain and
/// flags, which are part of the key too).
const INPUTS: [&str; 5] = [
    "crates/search",
    "crates/search-wasm",
    "Cargo.lock",
    "Cargo.toml",
    "rust-toolchain.toml",
];

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
    for path in INPUTS {
        println!(
            "cargo:rerun-if-changed={}",
            manifest_dir.join(path).display()
        );
    }
    println!("cargo:rerun-if-env-changed=CARGO_HOME");

    let cargo = env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    let rustflags = wasm_rustflags();
    let key = input_key(&manifest_dir, &rustc, &rustflags)?;
    let shared = target_dir(&manifest_dir, &out_dir).join(SHARED_DIR);
    let module = shared.join(&key).join(OUTPUT_NAME);
    if !module.is_file() {
        fs::create_dir_all(&shared)
            .map_err(|e| format!("could not create {}: {e}", shared.display()))?;
        let lock_path = shared.join("lock");
        let lock = fs::File::create(&lock_path)
            .map_err(|e| format!("could not create {}: {e}", lock_path.display()))?;
        // Another build (another profile, a parallel `cargo test`) may be building the same
        // module: wait for it, then use what it built. Released when `lock` is dropped.
        lock.lock()
            .map_err(|e| format!("could not lock {}: {e}", lock_path.display()))?;
        if !module.is_file() {
            ensure_wasm_target(&rustc)?;
            build_module(&cargo, &manifest_dir, &shared, &rustflags, &module)?;
        }
    }
    copy(&module, &output)
}

/// Builds the module with the nested cargo and stores it (optimised when `wasm-opt` is on
/// PATH) at `module`, written under a temporary name and renamed, so a reader that does not
/// take the lock never sees half a module.
fn build_module(
    cargo: &OsString,
    manifest_dir: &Path,
    shared: &Path,
    rustflags: &str,
    module: &Path,
) -> Result<(), String> {
    let target_dir = shared.join("cargo-target");
    let mut build = Command::new(cargo);
    build
        .current_dir(manifest_dir)
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
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS", rustflags)
        // Cargo reads build-script stdout as directives: keep the nested cargo's off it.
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    let status = build
        .status()
        .map_err(|e| format!("could not run {}: {e}", Path::new(cargo).display()))?;
    if !status.success() {
        return Err(format!(
            "`cargo build --profile {WASM_PROFILE} -p {WASM_PACKAGE} --target {WASM_TARGET}` exited with {status} (its errors are above)"
        ));
    }

    let built = target_dir
        .join(WASM_TARGET)
        .join(WASM_PROFILE)
        .join(OUTPUT_NAME);
    if !built.is_file() {
        return Err(format!(
            "the nested build succeeded but {} is missing",
            built.display()
        ));
    }
    let dir = module.parent().unwrap_or(shared);
    fs::create_dir_all(dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    let tmp = module.with_extension("wasm.tmp");
    if !optimise(&built, &tmp) {
        copy(&built, &tmp)?;
    }
    fs::rename(&tmp, module).map_err(|e| {
        format!(
            "could not rename {} to {}: {e}",
            tmp.display(),
            module.display()
        )
    })
}

/// The target directory of the outer build: the ancestor of `OUT_DIR` that cargo marked with
/// `CACHEDIR.TAG` (covers `--target-dir`, `CARGO_TARGET_DIR` and `build.target-dir`), else
/// `CARGO_TARGET_DIR`, else `<workspace>/target`.
fn target_dir(manifest_dir: &Path, out_dir: &Path) -> PathBuf {
    if let Some(dir) = out_dir
        .ancestors()
        .skip(1)
        .find(|d| d.join("CACHEDIR.TAG").is_file())
    {
        return dir.to_path_buf();
    }
    match env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => manifest_dir.join(dir),
        None => manifest_dir.join("target"),
    }
}

/// A hash of everything the module is built from: the files of [`INPUTS`] (paths and
/// contents, in a fixed order), the toolchain (`rustc -vV`), the module's rustflags and the
/// `wasm-opt` version (or its absence).
fn input_key(manifest_dir: &Path, rustc: &OsString, rustflags: &str) -> Result<String, String> {
    let mut hasher = Sha256::new();
    for input in INPUTS {
        let root = manifest_dir.join(input);
        if !root.exists() {
            hasher.update(format!("absent {input}\0"));
            continue;
        }
        // Not into target directories: a crate built on its own has one.
        let walk = walkdir::WalkDir::new(&root)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || e.file_name() != "target");
        for item in walk {
            let item = item.map_err(|e| format!("could not read {}: {e}", root.display()))?;
            if !item.file_type().is_file() {
                continue;
            }
            let rel = item
                .path()
                .strip_prefix(manifest_dir)
                .unwrap_or(item.path());
            let bytes = fs::read(item.path())
                .map_err(|e| format!("could not read {}: {e}", item.path().display()))?;
            hasher.update(rel.to_string_lossy().as_bytes());
            hasher.update([0]);
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
    }
    hasher.update(command_output(rustc, &["-vV"]).unwrap_or_default());
    hasher.update([0]);
    hasher.update(rustflags.as_bytes());
    hasher.update([0]);
    hasher.update(command_output(&OsString::from("wasm-opt"), &["--version"]).unwrap_or_default());
    let digest = hasher.finalize();
    Ok(digest.iter().take(12).map(|b| format!("{b:02x}")).collect())
}

/// What a command prints on stdout, `None` when it cannot run or fails.
fn command_output(program: &OsString, args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("could not copy {} to {}: {e}", from.display(), to.display()))
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
