//! The head layout of a block-split index: what the browser always loads.
//!
//! Layout (little endian): magic (8), format version (u32), reserved (u32), packed length
//! (u64), table length (u32), block count (u32), preloaded count (u32), [`word_hash64`] of the
//! rest (u64); then the packed header and file table ([`crate::pack`]), (length: u32,
//! checksum: u64) per block, and the preloaded blocks as (index: u32, bytes).

use crate::SearchError;
use crate::hash::word_hash64;
use crate::pack::{FORMAT_VERSION, HEADER_LEN};

/// First bytes of a block-split index head.
pub const HEAD_MAGIC: &[u8; 8] = b"KBOOKHD\0";
const HEAD_FIXED: usize = 8 + 4 + 4 + 8 + 4 + 4 + 4 + 8;
const MAX_BLOCKS: u32 = 1 << 20;

fn corrupt(msg: impl Into<String>) -> SearchError {
    SearchError::Corrupt(msg.into())
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Writes a head: `table` is the packed header and file table, `packed` the packed index,
/// `blocks` every block's range of it in order, `preloaded` the indices of those the head
/// carries.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn encode_head(
    table: &[u8],
    packed: &[u8],
    blocks: &[std::ops::Range<usize>],
    preloaded: &[u32],
) -> Vec<u8> {
    let total_len = packed.len();
    let mut rest = Vec::new();
    rest.extend_from_slice(table);
    for b in blocks {
        rest.extend_from_slice(&(b.len() as u32).to_le_bytes());
        rest.extend_from_slice(&word_hash64(&packed[b.clone()]).to_le_bytes());
    }
    for &i in preloaded {
        rest.extend_from_slice(&i.to_le_bytes());
        rest.extend_from_slice(&packed[blocks[i as usize].clone()]);
    }
    let mut head = Vec::with_capacity(HEAD_FIXED + rest.len());
    head.extend_from_slice(HEAD_MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&0u32.to_le_bytes());
    head.extend_from_slice(&(total_len as u64).to_le_bytes());
    head.extend_from_slice(&(table.len() as u32).to_le_bytes());
    head.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    head.extend_from_slice(&(preloaded.len() as u32).to_le_bytes());
    head.extend_from_slice(&word_hash64(&rest).to_le_bytes());
    head.extend_from_slice(&rest);
    head
}

/// A parsed head. The file table is not parsed here, nor the preloaded blocks checked.
pub(crate) struct Head<'a> {
    /// Length of the packed index.
    pub total_len: usize,
    /// The packed header and file table.
    pub table: &'a [u8],
    /// (length, checksum) of every block.
    pub blocks: Vec<(usize, u64)>,
    preloaded_count: u32,
    /// The preloaded blocks, still encoded.
    preloaded: &'a [u8],
}

/// Checks a head's fixed part and checksum and splits it into its parts.
pub(crate) fn decode_head(head: &[u8]) -> Result<Head<'_>, SearchError> {
    if head.len() < HEAD_FIXED || &head[..8] != HEAD_MAGIC {
        return Err(corrupt("not a kbook index head"));
    }
    let version = le_u32(head, 8);
    if version != FORMAT_VERSION {
        return Err(SearchError::Corrupt(format!(
            "index format {version}, this build reads {FORMAT_VERSION}: rebuild the book"
        )));
    }
    let total_len =
        usize::try_from(le_u64(head, 16)).map_err(|_| corrupt("index length overflow"))?;
    let table_len = le_u32(head, 24) as usize;
    let n_blocks = le_u32(head, 28);
    let n_pre = le_u32(head, 32);
    let sum = le_u64(head, 36);
    let rest = &head[HEAD_FIXED..];
    if word_hash64(rest) != sum {
        return Err(corrupt("head checksum mismatch"));
    }
    if n_blocks > MAX_BLOCKS || n_pre > n_blocks || table_len < HEADER_LEN || table_len > total_len
    {
        return Err(corrupt("implausible head"));
    }
    let sums_at = table_len;
    let pre_at = sums_at
        .checked_add(n_blocks as usize * 12)
        .filter(|&e| e <= rest.len())
        .ok_or_else(|| corrupt("truncated head"))?;
    let blocks: Vec<(usize, u64)> = (0..n_blocks as usize)
        .map(|i| {
            let at = sums_at + i * 12;
            (le_u32(rest, at) as usize, le_u64(rest, at + 4))
        })
        .collect();
    Ok(Head {
        total_len,
        table: &rest[..table_len],
        blocks,
        preloaded_count: n_pre,
        preloaded: &rest[pre_at..],
    })
}

impl Head<'_> {
    /// Feeds each preloaded block to `add` as (index, bytes), in head order, stopping at the
    /// first error (a block's length is taken from [`Head::blocks`]).
    pub(crate) fn each_preloaded(
        &self,
        mut add: impl FnMut(u32, &[u8]) -> Result<(), SearchError>,
    ) -> Result<(), SearchError> {
        let rest = self.preloaded;
        let mut at = 0;
        for _ in 0..self.preloaded_count {
            if at + 4 > rest.len() {
                return Err(corrupt("truncated head"));
            }
            let i = le_u32(rest, at);
            at += 4;
            let Some(&(len, _)) = self.blocks.get(i as usize) else {
                return Err(corrupt("bad preloaded block"));
            };
            let bytes = rest
                .get(at..at + len)
                .ok_or_else(|| corrupt("truncated head"))?;
            at += len;
            add(i, bytes)?;
        }
        if at != rest.len() {
            return Err(corrupt("trailing bytes in the head"));
        }
        Ok(())
    }
}
