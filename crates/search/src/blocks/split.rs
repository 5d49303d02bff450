//! Cutting a packed index into blocks and writing its head (native: the build).

use super::directory::BlockDirectory;
use super::store::BlockStore;
use super::{BLOCK_SIZE, STORE_BLOCK_SIZE};
use crate::SearchError;
use crate::hash::word_hash64;
use crate::head::encode_head;
use crate::pack::{unpack, unpack_table};
use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;
use tantivy::{Index, ReloadPolicy};

fn corrupt(msg: impl Into<String>) -> SearchError {
    SearchError::Corrupt(msg.into())
}

/// A block-split index: each block as its bytes (`B = Vec<u8>`), or as its byte range of the
/// packed index it was cut from ([`BlockRanges`]).
#[derive(Debug, Clone)]
pub struct BlockSet<B = Vec<u8>> {
    /// The always-loaded part.
    pub head: Vec<u8>,
    /// Every block, in order (those in the head too: a stale head may ask for any).
    pub blocks: Vec<B>,
    /// Indices of the blocks the head carries.
    pub preloaded: Vec<u32>,
}

/// Blocks as ranges of the packed index: the build writes each block straight from the
/// packed bytes instead of holding a second copy of the index.
pub type BlockRanges = BlockSet<Range<usize>>;

/// Cuts a packed index into blocks and writes the head (native: the build).
pub fn split_packed(packed: &[u8]) -> Result<BlockSet, SearchError> {
    split_packed_sized(packed, BLOCK_SIZE, STORE_BLOCK_SIZE)
}

/// [`split_packed`] as ranges of `packed`.
pub fn split_packed_ranges(packed: &[u8]) -> Result<BlockRanges, SearchError> {
    split_ranges(packed, BLOCK_SIZE, STORE_BLOCK_SIZE)
}

/// [`split_packed`] with other block sizes (at most [`BLOCK_SIZE`]: readers reject longer
/// blocks), for measuring.
pub fn split_packed_sized(
    packed: &[u8],
    block_size: usize,
    store_block_size: usize,
) -> Result<BlockSet, SearchError> {
    let split = split_ranges(packed, block_size, store_block_size)?;
    Ok(BlockSet {
        head: split.head,
        blocks: split
            .blocks
            .into_iter()
            .map(|r| packed[r].to_vec())
            .collect(),
        preloaded: split.preloaded,
    })
}

fn split_ranges(
    packed: &[u8],
    block_size: usize,
    store_block_size: usize,
) -> Result<BlockRanges, SearchError> {
    if block_size == 0 || block_size > BLOCK_SIZE || store_block_size == 0 {
        return Err(corrupt("block sizes must be between 1 and BLOCK_SIZE"));
    }
    let files = unpack(packed)?;
    let table_end = packed.len() - files.iter().map(|(_, d)| d.len()).sum::<usize>();
    let mut regions: Vec<(Range<usize>, usize)> = unpack_table(&packed[..table_end], packed.len())?
        .into_iter()
        .map(|(name, r)| {
            let size = if name.ends_with(".store") {
                store_block_size.min(BLOCK_SIZE)
            } else {
                block_size
            };
            (r, size)
        })
        .collect();
    regions.push((0..table_end, block_size));
    regions.sort_by_key(|(r, _)| r.start);
    // Pass 1: plain cuts, to learn which bytes opening the index reads (file footers, the
    // document store's skip index: the tails of files).
    let blocks = cut_blocks(packed.len(), &regions, &BTreeSet::new())?;
    let (read, _) = reads_at_open(packed, table_end, &blocks)?;
    // Pass 2: each file's read tail gets blocks of its own, so the head carries only it.
    let mut cuts = BTreeSet::new();
    for (r, _) in &regions {
        if let Some(first) = read
            .iter()
            .filter(|x| x.start >= r.start && x.start < r.end)
            .map(|x| x.start)
            .min()
        {
            cuts.insert(first);
        }
    }
    let blocks = cut_blocks(packed.len(), &regions, &cuts)?;
    let (_, preloaded) = reads_at_open(packed, table_end, &blocks)?;
    let preloaded: Vec<u32> = preloaded.into_iter().collect();

    let head = encode_head(&packed[..table_end], packed, &blocks, &preloaded);
    Ok(BlockSet {
        head,
        blocks,
        preloaded,
    })
}

/// Cuts each region of the `len` packed bytes into blocks of its size, also cutting at `cuts`.
fn cut_blocks(
    len: usize,
    regions: &[(Range<usize>, usize)],
    cuts: &BTreeSet<usize>,
) -> Result<Vec<Range<usize>>, SearchError> {
    let mut blocks: Vec<Range<usize>> = Vec::new();
    let mut at = 0;
    for (r, size) in regions {
        if r.start != at {
            return Err(corrupt("files do not tile the packed index"));
        }
        let mut piece_start = r.start;
        for cut in cuts.range(r.start + 1..r.end).copied().chain([r.end]) {
            blocks.extend(
                (piece_start..cut)
                    .step_by(*size)
                    .map(|start| start..(start + size).min(cut)),
            );
            piece_start = cut;
        }
        at = r.end;
    }
    if at != len {
        return Err(corrupt("files do not tile the packed index"));
    }
    Ok(blocks)
}

/// Opens the index over `blocks` as the browser does; returns the byte ranges read and the
/// blocks they touch.
fn reads_at_open(
    packed: &[u8],
    table_end: usize,
    blocks: &[Range<usize>],
) -> Result<(Vec<Range<usize>>, BTreeSet<u32>), SearchError> {
    let store = Arc::new(BlockStore::new(
        &packed[..table_end],
        packed.len(),
        blocks
            .iter()
            .map(|b| (b.len(), word_hash64(&packed[b.clone()])))
            .collect(),
    )?);
    for (i, b) in blocks.iter().enumerate() {
        store.add(i as u32, packed[b.clone()].to_vec())?;
    }
    store.record_reads();
    let dir = BlockDirectory::new(Arc::clone(&store))?;
    let index = Index::open(dir)?;
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .num_warming_threads(0)
        .try_into()?;
    drop(reader.searcher());
    let mut ranges = store.take_reads();
    // meta.json is read when the directory is made, before recording starts.
    if let Some(meta) = store.file("meta.json") {
        ranges.push(meta.clone());
    }
    let blocks = ranges
        .iter()
        .filter(|r| r.start < r.end)
        .flat_map(|r| store.block_of(r.start) as u32..=store.block_of(r.end - 1) as u32)
        .collect();
    Ok((ranges, blocks))
}
