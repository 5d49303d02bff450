//! The blocks of one index as Tantivy reads them: which are loaded, and which reads found
//! missing.

use super::BLOCK_SIZE;
use crate::SearchError;
use crate::hash::word_hash64;
use crate::head::decode_head;
use crate::pack::unpack_table;
use std::collections::{BTreeSet, HashMap};
use std::io;
use std::ops::Range;
use std::sync::{Arc, Mutex, RwLock};
use tantivy::directory::OwnedBytes;

fn corrupt(msg: impl Into<String>) -> SearchError {
    SearchError::Corrupt(msg.into())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The blocks of one index: which are loaded, which reads found missing.
pub(crate) struct BlockStore {
    total_len: usize,
    /// Start offset of every block, then `total_len`.
    starts: Vec<usize>,
    sums: Vec<u64>,
    /// Packed file name → byte range in the packed bytes.
    files: HashMap<String, Range<usize>>,
    blocks: RwLock<Vec<Option<OwnedBytes>>>,
    missing: Mutex<BTreeSet<u32>>,
    /// Build time only: every byte range read.
    touched: Mutex<Option<Vec<Range<usize>>>>,
}

impl std::fmt::Debug for BlockStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockStore")
            .field("blocks", &self.sums.len())
            .finish()
    }
}

impl BlockStore {
    /// `table` is the packed header and file table (the first bytes of the packed index).
    /// `blocks` are (length, checksum) pairs.
    pub(super) fn new(
        table: &[u8],
        total_len: usize,
        blocks: Vec<(usize, u64)>,
    ) -> Result<BlockStore, SearchError> {
        let files = unpack_table(table, total_len)?;
        let mut starts = Vec::with_capacity(blocks.len() + 1);
        let mut at = 0usize;
        for &(len, _) in &blocks {
            if len == 0 || len > BLOCK_SIZE {
                return Err(corrupt("bad block length"));
            }
            starts.push(at);
            at = at
                .checked_add(len)
                .ok_or_else(|| corrupt("block lengths overflow"))?;
        }
        starts.push(at);
        if at != total_len {
            return Err(corrupt("block lengths do not add up to the index length"));
        }
        let sums: Vec<u64> = blocks.into_iter().map(|(_, s)| s).collect();
        let mut map = HashMap::new();
        for (name, range) in files {
            if name.is_empty() || name.contains('/') || name.contains('\\') || name == ".." {
                return Err(corrupt("bad file name"));
            }
            map.insert(name, range);
        }
        if !map.contains_key("meta.json") {
            return Err(corrupt("no meta.json"));
        }
        let n = sums.len();
        Ok(BlockStore {
            total_len,
            starts,
            sums,
            files: map,
            blocks: RwLock::new(vec![None; n]),
            missing: Mutex::new(BTreeSet::new()),
            touched: Mutex::new(None),
        })
    }

    /// Adds block `i` after checking its length and checksum.
    pub(crate) fn add(&self, i: u32, bytes: Vec<u8>) -> Result<(), SearchError> {
        let idx = i as usize;
        let Some(&sum) = self.sums.get(idx) else {
            return Err(corrupt(format!("no block {i}")));
        };
        let want = self.starts[idx + 1] - self.starts[idx];
        if bytes.len() != want || word_hash64(&bytes) != sum {
            return Err(corrupt(format!(
                "block {i} is damaged or from another build"
            )));
        }
        let mut blocks = self
            .blocks
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        blocks[idx] = Some(OwnedBytes::new(bytes));
        lock(&self.missing).remove(&i);
        Ok(())
    }

    /// The block holding byte `off` (< total_len).
    pub(super) fn block_of(&self, off: usize) -> usize {
        self.starts.partition_point(|&s| s <= off).saturating_sub(1)
    }

    /// Bytes `range` of the packed index, or an error after recording the missing blocks.
    pub(super) fn read(&self, range: Range<usize>) -> io::Result<OwnedBytes> {
        if range.start >= range.end {
            return Ok(OwnedBytes::empty());
        }
        if range.end > self.total_len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "read past the end of the index",
            ));
        }
        let first = self.block_of(range.start);
        let last = self.block_of(range.end - 1);
        if let Some(t) = lock(&self.touched).as_mut() {
            t.push(range.clone());
        }
        let blocks = self
            .blocks
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let absent: Vec<u32> = (first..=last)
            .filter(|&i| blocks.get(i).is_none_or(Option::is_none))
            .map(|i| i as u32)
            .collect();
        if !absent.is_empty() {
            lock(&self.missing).extend(absent);
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                "index block not loaded yet",
            ));
        }
        let present: Vec<&OwnedBytes> = blocks[first..=last].iter().flatten().collect();
        if let [only] = present.as_slice() {
            let base = self.starts[first];
            return Ok(only.slice(range.start - base..range.end - base));
        }
        let mut out = Vec::with_capacity(range.len());
        for (i, piece) in (first..=last).zip(present) {
            let base = self.starts[i];
            let b = piece.as_slice();
            let s = range.start.max(base) - base;
            let e = range.end.min(base + b.len()) - base;
            out.extend_from_slice(&b[s..e]);
        }
        Ok(OwnedBytes::new(out))
    }

    /// Number of blocks.
    pub(crate) fn block_count(&self) -> usize {
        self.sums.len()
    }

    /// The byte range of packed file `name` in the packed bytes.
    pub(super) fn file(&self, name: &str) -> Option<&Range<usize>> {
        self.files.get(name)
    }

    /// Starts recording every byte range read (build time: which blocks opening reads).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn record_reads(&self) {
        *lock(&self.touched) = Some(Vec::new());
    }

    /// Stops recording and returns the byte ranges read since [`BlockStore::record_reads`].
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn take_reads(&self) -> Vec<Range<usize>> {
        lock(&self.touched).take().unwrap_or_default()
    }

    /// Takes the blocks recorded missing since the last call.
    pub(crate) fn take_missing(&self) -> Vec<u32> {
        std::mem::take(&mut *lock(&self.missing))
            .into_iter()
            .collect()
    }
}

/// Parses a head into a block store with the preloaded blocks added.
pub(crate) fn store_from_head(head: &[u8]) -> Result<Arc<BlockStore>, SearchError> {
    let head = decode_head(head)?;
    let store = BlockStore::new(head.table, head.total_len, head.blocks.clone())?;
    head.each_preloaded(|i, bytes| store.add(i, bytes.to_vec()))?;
    Ok(Arc::new(store))
}
