//! The block-split index: the packed index cut into fixed-size blocks that the browser fetches
//! on demand, plus a small *head* (`head.rs`) that is always loaded.
//!
//! The packed bytes (`pack.rs`) are cut into blocks that never span two files:
//! [`BLOCK_SIZE`] bytes, or [`STORE_BLOCK_SIZE`] in the document store (a search reads a few
//! scattered documents, and small blocks keep that cheap). The head holds the packed header and
//! file table, the length and checksum of every block, and the blocks Tantivy reads to open
//! the index (recorded at build time by opening it through the same directory, so the set
//! follows whatever the engine needs).
//!
//! Reading: a `BlockStore` holds the blocks loaded so far and a `BlockDirectory` serves
//! Tantivy's reads from them; a read that touches a missing block fails and records which
//! blocks were missing ([`crate::LazyIndex`] plans searches around that).

mod directory;
#[cfg(not(target_arch = "wasm32"))]
mod split;
mod store;

pub(crate) use directory::{BlockDirectory, Opened, open_directory};
#[cfg(not(target_arch = "wasm32"))]
pub use split::{BlockRanges, BlockSet, split_packed, split_packed_ranges, split_packed_sized};
pub(crate) use store::BlockStore;

/// Bytes per block (the last block may be shorter). Measured on the bundled book plus 10,000
/// synthetic entries with pasted errors (tests/realworld.jsonl). Raw bytes (`lazy::block_sizes`):
/// 32 KiB blocks gave a first search of 1.83 MB and later searches of 64 KB mean / 631 KB max;
/// 16 KiB 1.27 MB and 60 / 532 KB; 8 KiB 0.85 MB and 59 / 451 KB, for 113 requests instead of
/// 71. In Chromium (`cargo xtask bench`, brotli, with the phrase-pair positions budget), 8 KiB
/// took 548 KB / 185 KB max but its many requests made the first search 1.0 s and p95 127 ms;
/// 16 KiB took 816 KB / 251 KB max, 0.6 s and p95 105 ms. Readers accept blocks up to this size.
pub const BLOCK_SIZE: usize = 16 * 1024;
/// Bytes per block of the document store (`.store` files).
pub const STORE_BLOCK_SIZE: usize = 4 * 1024;
