//! The packed index: Tantivy's files in one blob, and the read-only directory over it.
//!
//! Layout (little endian): magic (8 bytes), format version (u32), file count (u32), body length
//! (u64), checksum of the body (u64, [`fnv1a64`]); body = file table (`name_len: u16, name,
//! offset: u64, len: u64` per file, offsets relative to the data) followed by the data.
//! The checksum rejects corrupt bytes before Tantivy parses them (Tantivy trusts its files).

use crate::SearchError;
use std::path::Path;
use tantivy::Directory;
use tantivy::directory::RamDirectory;

/// First bytes of a packed index.
pub const MAGIC: &[u8; 8] = b"KBOOKIX\0";
/// Bump when the layout, the schema or the analyzers change incompatibly.
pub const FORMAT_VERSION: u32 = 2;
pub(crate) const HEADER_LEN: usize = 32;
const MAX_FILES: u32 = 4096;

/// The checksum of the packed layout and of index blocks: FNV-1a style, but over 8-byte
/// words (byte-at-a-time FNV took a tenth of a second per 30 MB, in the browser too).
pub(crate) fn fnv1a64(data: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        h ^= u64::from_le_bytes(b);
        h = h.wrapping_mul(PRIME);
        // Fold the high bits down: a plain multiply never carries them into the low bits.
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h ^= u64::from(b);
        h = h.wrapping_mul(PRIME);
    }
    h ^ (data.len() as u64).rotate_left(32)
}

/// A 128-bit content hash naming a segment: two differently seeded word-wise hashes of the
/// chunks, each chunk's length mixed in so ("ab","c") and ("a","bc") differ.
#[cfg(not(target_arch = "wasm32"))]
fn fnv1a128(chunks: &[&[u8]]) -> u128 {
    let mut lo: u64 = 0x6c62_272e_07bb_0142;
    let mut hi: u64 = 0x62b8_2175_6295_c58d;
    for c in chunks {
        let h = fnv1a64(c);
        lo = (lo ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23);
        hi = (hi ^ h.rotate_left(17))
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            .rotate_left(31);
        lo ^= c.len() as u64;
    }
    (u128::from(hi) << 64) | u128::from(lo)
}

/// Serialises files (sorted by name by the caller) into the packed layout.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) fn pack_files(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, SearchError> {
    let count =
        u32::try_from(files.len()).map_err(|_| SearchError::Corrupt("too many files".into()))?;
    let mut body = Vec::new();
    let mut offset = 0u64;
    for (name, data) in files {
        let len = u16::try_from(name.len())
            .map_err(|_| SearchError::Corrupt(format!("file name too long: {name}")))?;
        body.extend_from_slice(&len.to_le_bytes());
        body.extend_from_slice(name.as_bytes());
        body.extend_from_slice(&offset.to_le_bytes());
        body.extend_from_slice(&(data.len() as u64).to_le_bytes());
        offset += data.len() as u64;
    }
    for (_, data) in files {
        body.extend_from_slice(data);
    }
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

fn corrupt(msg: &str) -> SearchError {
    SearchError::Corrupt(msg.to_string())
}

struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], SearchError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| corrupt("truncated file table"))?;
        let s = &self.buf[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, SearchError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u64(&mut self) -> Result<u64, SearchError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

/// Checks the header (magic, version, file count) and returns (file count, body length,
/// body checksum).
fn parse_header(packed: &[u8]) -> Result<(u32, u64, u64), SearchError> {
    if packed.len() < HEADER_LEN {
        return Err(corrupt("shorter than the header"));
    }
    if &packed[..8] != MAGIC {
        return Err(corrupt("not a kbook index (bad magic)"));
    }
    let mut h = Reader {
        buf: &packed[8..HEADER_LEN],
        at: 0,
    };
    let version_bytes = h.take(4)?;
    let version = u32::from_le_bytes([
        version_bytes[0],
        version_bytes[1],
        version_bytes[2],
        version_bytes[3],
    ]);
    if version != FORMAT_VERSION {
        return Err(SearchError::Corrupt(format!(
            "index format {version}, this build reads {FORMAT_VERSION}: rebuild the book"
        )));
    }
    let count_bytes = h.take(4)?;
    let count = u32::from_le_bytes([
        count_bytes[0],
        count_bytes[1],
        count_bytes[2],
        count_bytes[3],
    ]);
    let body_len = h.u64()?;
    let checksum = h.u64()?;
    if count > MAX_FILES {
        return Err(corrupt("implausible file count"));
    }
    Ok((count, body_len, checksum))
}

/// One file table entry: name, offset in the data, length.
type TableEntry = (String, u64, u64);

/// Reads the file table from `body`; returns the entries and where the data starts in `body`.
fn parse_table(body: &[u8], count: u32) -> Result<(Vec<TableEntry>, usize), SearchError> {
    let mut r = Reader { buf: body, at: 0 };
    let mut table = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let n = usize::from(r.u16()?);
        let name = std::str::from_utf8(r.take(n)?)
            .map_err(|_| corrupt("file name is not UTF-8"))?
            .to_string();
        let off = r.u64()?;
        let len = r.u64()?;
        table.push((name, off, len));
    }
    Ok((table, r.at))
}

/// Resolves table entries to ranges inside data of length `data_len`.
fn resolve(
    table: Vec<TableEntry>,
    data_len: usize,
) -> Result<Vec<(String, std::ops::Range<usize>)>, SearchError> {
    let mut files = Vec::with_capacity(table.len());
    for (name, off, len) in table {
        let start = usize::try_from(off).map_err(|_| corrupt("offset overflow"))?;
        let len = usize::try_from(len).map_err(|_| corrupt("length overflow"))?;
        let end = start
            .checked_add(len)
            .filter(|&e| e <= data_len)
            .ok_or_else(|| corrupt("file extends past the end"))?;
        files.push((name, start..end));
    }
    Ok(files)
}

/// Parses a packed index into (name, bytes) pairs, validating every bound.
pub(crate) fn unpack(packed: &[u8]) -> Result<Vec<(String, &[u8])>, SearchError> {
    let (count, body_len, checksum) = parse_header(packed)?;
    let body = &packed[HEADER_LEN..];
    if body.len() as u64 != body_len {
        return Err(corrupt("truncated (length mismatch)"));
    }
    if fnv1a64(body) != checksum {
        return Err(corrupt("checksum mismatch"));
    }
    let (table, data_at) = parse_table(body, count)?;
    let data = &body[data_at..];
    Ok(resolve(table, data.len())?
        .into_iter()
        .map(|(name, r)| (name, &data[r]))
        .collect())
}

/// Parses the header and file table alone (`table` = the first bytes of a packed index of
/// `total_len` bytes, up to the data); ranges are absolute offsets in the packed index. The
/// body checksum cannot be checked here: the block-split form checks each block instead.
pub(crate) fn unpack_table(
    table: &[u8],
    total_len: usize,
) -> Result<Vec<(String, std::ops::Range<usize>)>, SearchError> {
    let (count, body_len, _) = parse_header(table)?;
    if HEADER_LEN as u64 + body_len != total_len as u64 {
        return Err(corrupt("truncated (length mismatch)"));
    }
    let (entries, data_at) = parse_table(&table[HEADER_LEN..], count)?;
    let data_start = HEADER_LEN + data_at;
    if data_start != table.len() {
        return Err(corrupt("file table length mismatch"));
    }
    Ok(resolve(entries, total_len - data_start)?
        .into_iter()
        .map(|(name, r)| (name, r.start + data_start..r.end + data_start))
        .collect())
}

/// Opens a packed index (loaded into a fresh in-memory directory) or the head of a
/// block-split one ([`crate::blocks`]: blocks are read on demand), native and wasm32.
pub(crate) fn directory_from_packed(packed: &[u8]) -> Result<Box<dyn Directory>, SearchError> {
    if packed.starts_with(crate::blocks::HEAD_MAGIC) {
        return Ok(Box::new(crate::blocks::directory_from_head(packed)?));
    }
    let files = unpack(packed)?;
    if !files.iter().any(|(n, _)| n == "meta.json") {
        return Err(corrupt("no meta.json"));
    }
    let dir = RamDirectory::create();
    for (name, data) in files {
        if name.is_empty() || name.contains('/') || name.contains('\\') || name == ".." {
            return Err(corrupt("bad file name"));
        }
        dir.atomic_write(Path::new(&name), data)
            .map_err(|e| SearchError::Corrupt(format!("cannot load {name}: {e}")))?;
    }
    Ok(Box::new(dir))
}

/// Builds the deterministic packed index (one segment, renamed to a content-derived id).
#[cfg(not(target_arch = "wasm32"))]
pub fn build_packed_index(docs: &[crate::EntryDoc]) -> Result<Vec<u8>, SearchError> {
    // Written in parallel chunks and merged deterministically (see `writer`).
    pack_index(crate::writer::write_index(docs, None)?)
}

/// Builds the packed index reusing the chunk segments `kept` from the previous build, and
/// keeps this build's for the next one. The segments stay unmerged: the bytes differ from
/// [`build_packed_index`]'s, the answers do not.
#[cfg(not(target_arch = "wasm32"))]
pub fn build_packed_index_keeping(
    docs: &[crate::EntryDoc],
    kept: &mut crate::writer::KeptSegments,
) -> Result<Vec<u8>, SearchError> {
    pack_index(crate::writer::write_index(docs, Some(kept))?)
}

/// Packs a written index, its segments renamed to content-derived ids.
#[cfg(not(target_arch = "wasm32"))]
fn pack_index(
    (dir, index): (tantivy::directory::RamDirectory, tantivy::Index),
) -> Result<Vec<u8>, SearchError> {
    let metas = index.load_metas()?;
    let mut meta_json = String::from_utf8(
        dir.atomic_read(Path::new("meta.json"))
            .map_err(|e| SearchError::Corrupt(e.to_string()))?,
    )
    .map_err(|_| corrupt("meta.json is not UTF-8"))?;
    let mut all_paths: Vec<std::path::PathBuf> = metas.list_segment_files().into_iter().collect();
    all_paths.sort();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for seg in &metas.segments {
        let old = seg.id().uuid_string();
        let mut seg_files: Vec<(String, Vec<u8>)> = Vec::new();
        for p in all_paths
            .iter()
            .filter(|p| p.to_string_lossy().starts_with(old.as_str()))
        {
            if !dir
                .exists(p)
                .map_err(|e| SearchError::Corrupt(e.to_string()))?
            {
                continue;
            }
            let bytes = dir
                .open_read(p)
                .map_err(|e| SearchError::Corrupt(e.to_string()))?
                .read_bytes()
                .map_err(|e| SearchError::Corrupt(e.to_string()))?;
            let name = p.to_string_lossy().into_owned();
            seg_files.push((name, bytes.as_slice().to_vec()));
        }
        // Tantivy names segments with a random UUID; replace it with a hash of the content.
        let mut chunks: Vec<&[u8]> = Vec::new();
        for (name, data) in &seg_files {
            chunks.push(name.strip_prefix(old.as_str()).unwrap_or(name).as_bytes());
            chunks.push(data);
        }
        let new = format!("{:032x}", fnv1a128(&chunks));
        let hyphen = |s: &str| {
            format!(
                "{}-{}-{}-{}-{}",
                &s[0..8],
                &s[8..12],
                &s[12..16],
                &s[16..20],
                &s[20..32]
            )
        };
        if !meta_json.contains(&hyphen(&old)) {
            return Err(corrupt("segment id not found in meta.json"));
        }
        meta_json = meta_json.replace(&hyphen(&old), &hyphen(&new));
        for (name, data) in seg_files {
            let renamed = match name.strip_prefix(old.as_str()) {
                Some(rest) => format!("{new}{rest}"),
                None => name,
            };
            files.push((renamed, data));
        }
    }
    files.push(("meta.json".to_string(), meta_json.into_bytes()));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    pack_files(&files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_rejects_damage() {
        let files = vec![
            ("a".to_string(), b"hello".to_vec()),
            ("meta.json".to_string(), b"{}".to_vec()),
        ];
        let packed = pack_files(&files).unwrap();
        let back = unpack(&packed).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].1, b"hello");
        for cut in 0..packed.len() {
            assert!(unpack(&packed[..cut]).is_err());
        }
        for i in 0..packed.len() {
            let mut bad = packed.clone();
            bad[i] ^= 0x41;
            assert!(unpack(&bad).is_err(), "flip at {i}");
        }
    }
}
