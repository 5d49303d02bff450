//! The packed-index reader on corrupt bytes: `BookIndex::open` must return an error, and an
//! index that opens must answer searches without panicking.
//!
//! The packed format carries a checksum, so random bytes stop at the header. In repair mode
//! (`KBOOK_FUZZ_REPAIR=1`) with the low bit of the first byte set, the target repairs the
//! body length and checksum first, so the
//! mutations reach the file table and Tantivy's own files (what a stale or hand-edited index
//! would look like).
//!
//! Tantivy trusts its own files: an index whose checksum matches but whose Tantivy files are
//! inconsistent can make Tantivy panic (found here: tantivy-fst index out of bounds). Only
//! a deliberately crafted file gets past the checksum, so in repair mode panics *inside
//! Tantivy* (or the crates it reads with) are tolerated (caught and ignored); a panic anywhere else, including kbook's own
//! unpacking and search code, still fails the target.
#![no_main]

use kbook_search::{BookIndex, SearchOptions};
use libfuzzer_sys::fuzz_target;
use std::cell::Cell;
use std::sync::Once;

const HEADER_LEN: usize = 32;

thread_local! {
    static TOLERATE_TANTIVY: Cell<bool> = const { Cell::new(false) };
    static TANTIVY_PANICKED: Cell<bool> = const { Cell::new(false) };
}

/// Wraps libFuzzer's panic hook: a panic located in a tantivy crate while tolerated is noted
/// and unwinds to `catch_unwind`; every other panic goes to libFuzzer (a crash).
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Tantivy and the crates it reads with (byteorder, bitpacking, fst, …); a panic
            // located in kbook's own code is never tolerated.
            let in_kbook = info.location().is_none_or(|l| {
                l.file().contains("crates/search") || l.file().contains("fuzz_targets")
            });
            if !in_kbook && TOLERATE_TANTIVY.with(Cell::get) {
                TANTIVY_PANICKED.with(|p| p.set(true));
            } else {
                fuzzer_hook(info);
            }
        }));
    });
}

/// Repair mode is opt-in (`KBOOK_FUZZ_REPAIR=1`): past the checksum, Tantivy also
/// allocates whatever lengths its files claim (a 13 GB `String::with_capacity` in the doc
/// store was found), which no `catch_unwind` can tolerate. The default run checks the
/// contract that matters: bytes as stored or served, corrupt or truncated, give an error.
fn repair_mode() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("KBOOK_FUZZ_REPAIR").is_some_and(|v| v == "1"))
}

fn open_and_search(bytes: Vec<u8>) {
    if let Ok(index) = BookIndex::open(bytes) {
        let _ = index.num_docs();
        for q in [
            "kafka offsets",
            "java.sql.BatchUpdateException: Duplicate entry",
            "x",
        ] {
            let _ = index.search(
                q,
                &SearchOptions {
                    explain: true,
                    ..SearchOptions::default()
                },
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    install_hook();
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 && repair_mode() && bytes.len() >= HEADER_LEN {
        let body_len = (bytes.len() - HEADER_LEN) as u64;
        // The packed format's own checksum, so repaired inputs get past it.
        let sum = kbook_search::content_hash(&bytes[HEADER_LEN..]);
        bytes[16..24].copy_from_slice(&body_len.to_le_bytes());
        bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    }
    if mode & 1 == 1 && repair_mode() {
        TOLERATE_TANTIVY.with(|t| t.set(true));
        let result = std::panic::catch_unwind(move || open_and_search(bytes));
        TOLERATE_TANTIVY.with(|t| t.set(false));
        if result.is_err() {
            assert!(
                TANTIVY_PANICKED.with(|p| p.replace(false)),
                "a panic outside Tantivy"
            );
        }
    } else {
        // Bytes as they come (truncated, flipped, garbage): the checksum must catch them,
        // and nothing may panic.
        open_and_search(bytes);
    }
});
