//! The packed layout: Tantivy's files in one blob.
//!
//! Layout (little endian): magic (8 bytes), format version (u32), file count (u32), body length
//! (u64), checksum of the body (u64, [`word_hash64`]); body = file table (`name_len: u16, name,
//! offset: u64, len: u64` per file, offsets relative to the data) followed by the data.
//! The checksum rejects corrupt bytes before Tantivy parses them (Tantivy trusts its files).

use crate::SearchError;
use crate::hash::word_hash64;

/// First bytes of a packed index.
pub const MAGIC: &[u8; 8] = b"KBOOKIX\0";
/// Bump when the layout, the schema or the analyzers change incompatibly.
pub const FORMAT_VERSION: u32 = 4;
pub(crate) const HEADER_LEN: usize = 32;
const MAX_FILES: u32 = 4096;

/// Serialises files (sorted by name by the caller) into the packed layout.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn pack_files<D: AsRef<[u8]>>(files: &[(String, D)]) -> Result<Vec<u8>, SearchError> {
    let count =
        u32::try_from(files.len()).map_err(|_| SearchError::Corrupt("too many files".into()))?;
    let table_len: usize = files.iter().map(|(name, _)| 2 + name.len() + 16).sum();
    let data_len: usize = files.iter().map(|(_, d)| d.as_ref().len()).sum();
    // Written in place and the checksum filled in last: a large book's index is hundreds of
    // MB, and a separate body buffer would double it.
    let mut out = Vec::with_capacity(HEADER_LEN + table_len + data_len);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&((table_len + data_len) as u64).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    let mut offset = 0u64;
    for (name, data) in files {
        let len = u16::try_from(name.len())
            .map_err(|_| SearchError::Corrupt(format!("file name too long: {name}")))?;
        let data_len = data.as_ref().len() as u64;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&data_len.to_le_bytes());
        offset += data_len;
    }
    for (_, data) in files {
        out.extend_from_slice(data.as_ref());
    }
    let checksum = word_hash64(&out[HEADER_LEN..]).to_le_bytes();
    out[HEADER_LEN - 8..HEADER_LEN].copy_from_slice(&checksum);
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

/// A 64-bit digest of a whole packed index, read off its header: the header holds the
/// format version, the body length and the body's checksum, so the digest changes with any
/// byte. Costs nothing (no pass over the body): it names the index file in a site. `None`
/// when `packed` is not a packed index.
pub fn packed_digest(packed: &[u8]) -> Option<u64> {
    parse_header(packed).ok()?;
    Some(word_hash64(&packed[..HEADER_LEN]))
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
    if word_hash64(body) != checksum {
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
    if (HEADER_LEN as u64).checked_add(body_len) != Some(total_len as u64) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_follows_every_byte() {
        let files = [
            ("a".to_string(), b"hello".to_vec()),
            ("b".to_string(), b"world".to_vec()),
        ];
        let packed = pack_files(&files).unwrap();
        let digest = packed_digest(&packed).unwrap();
        assert_eq!(packed_digest(&pack_files(&files).unwrap()), Some(digest));
        let mut changed = files.clone();
        changed[1].1[0] = b'W';
        assert_ne!(packed_digest(&pack_files(&changed).unwrap()), Some(digest));
        assert_eq!(packed_digest(b"not an index"), None);
    }

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
