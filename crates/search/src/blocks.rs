//! The block-split index: the packed index cut into fixed-size blocks that the browser fetches
//! on demand, plus a small *head* that is always loaded.
//!
//! The packed bytes ([`crate::pack`]) are cut into blocks that never span two files:
//! [`BLOCK_SIZE`] bytes, or [`STORE_BLOCK_SIZE`] in the document store (a search reads a few
//! scattered documents, and small blocks keep that cheap). The head holds the packed header and
//! file table, the length and checksum of every block, and the blocks Tantivy reads to open
//! the index (recorded at build time by opening it through the same directory, so the set
//! follows whatever the engine needs). Head layout (little endian): magic (8), format version
//! (u32), reserved (u32), packed length (u64), table length (u32), block count (u32),
//! preloaded count (u32), FNV-1a 64 of the rest (u64); then the packed header and table,
//! (length: u32, checksum: u64) per block, and the preloaded blocks as (index: u32, bytes).
//!
//! Reading: [`BlockDirectory`] serves Tantivy's reads from the blocks it has; a read that
//! touches a missing block fails and records which blocks were missing. [`LazyIndex`] plans a
//! search in stages (term dictionaries, then postings/positions/field norms of the query's
//! terms, then the stored documents of the candidates), each stage collecting every block it
//! lacks, so the host fetches them in a few parallel rounds and calls again. Tantivy caches
//! per-field readers and doc-store blocks only after a successful read, so a failed read
//! leaves nothing half-initialised, and any search during which a read failed is discarded
//! (even where the engine itself swallows the error) — results are never built from missing
//! data.

use crate::SearchError;
use crate::book::BookIndex;
use crate::pack::{HEADER_LEN, fnv1a64};
use crate::query::build_query;
use crate::{SearchOptions, SearchResults};
use std::collections::{BTreeSet, HashMap};
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use tantivy::directory::error::{DeleteError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    FileHandle, OwnedBytes, RamDirectory, WatchCallback, WatchHandle, WritePtr,
};
use tantivy::query::Query;
use tantivy::schema::IndexRecordOption;
use tantivy::{Directory, HasLen, Index, ReloadPolicy, Term};

/// First bytes of a block-split index head.
pub const HEAD_MAGIC: &[u8; 8] = b"KBOOKHD\0";
/// Bytes per block (the last block may be shorter).
pub const BLOCK_SIZE: usize = 32 * 1024;
/// Bytes per block of the document store (`.store` files).
pub const STORE_BLOCK_SIZE: usize = 4 * 1024;
const HEAD_FIXED: usize = 8 + 4 + 4 + 8 + 4 + 4 + 4 + 8;
const MAX_BLOCKS: u32 = 1 << 20;

/// A block-split index as the build writes it.
#[derive(Debug, Clone)]
pub struct BlockSet {
    /// The always-loaded part.
    pub head: Vec<u8>,
    /// Every block, in order (those in the head too: a stale head may ask for any).
    pub blocks: Vec<Vec<u8>>,
    /// Indices of the blocks the head carries.
    pub preloaded: Vec<u32>,
}

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

/// Cuts a packed index into blocks and writes the head (native: the build).
#[cfg(not(target_arch = "wasm32"))]
pub fn split_packed(packed: &[u8]) -> Result<BlockSet, SearchError> {
    let files = crate::pack::unpack(packed)?;
    let table_end = packed.len() - files.iter().map(|(_, d)| d.len()).sum::<usize>();
    let mut regions: Vec<(Range<usize>, usize)> =
        crate::pack::unpack_table(&packed[..table_end], packed.len())?
            .into_iter()
            .map(|(name, r)| {
                let size = if name.ends_with(".store") {
                    STORE_BLOCK_SIZE
                } else {
                    BLOCK_SIZE
                };
                (r, size)
            })
            .collect();
    regions.push((0..table_end, BLOCK_SIZE));
    regions.sort_by_key(|(r, _)| r.start);
    // Pass 1: plain cuts, to learn which bytes opening the index reads (file footers, the
    // document store's skip index: the tails of files).
    let blocks = cut_blocks(packed, &regions, &BTreeSet::new())?;
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
    let blocks = cut_blocks(packed, &regions, &cuts)?;
    let (_, preloaded) = reads_at_open(packed, table_end, &blocks)?;
    let preloaded: Vec<u32> = preloaded.into_iter().collect();

    let mut rest = Vec::new();
    rest.extend_from_slice(&packed[..table_end]);
    for b in &blocks {
        rest.extend_from_slice(&(b.len() as u32).to_le_bytes());
        rest.extend_from_slice(&fnv1a64(b).to_le_bytes());
    }
    for &i in &preloaded {
        rest.extend_from_slice(&i.to_le_bytes());
        rest.extend_from_slice(&blocks[i as usize]);
    }
    let mut head = Vec::with_capacity(HEAD_FIXED + rest.len());
    head.extend_from_slice(HEAD_MAGIC);
    head.extend_from_slice(&crate::FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&0u32.to_le_bytes());
    head.extend_from_slice(&(packed.len() as u64).to_le_bytes());
    head.extend_from_slice(&(table_end as u32).to_le_bytes());
    head.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    head.extend_from_slice(&(preloaded.len() as u32).to_le_bytes());
    head.extend_from_slice(&fnv1a64(&rest).to_le_bytes());
    head.extend_from_slice(&rest);
    Ok(BlockSet {
        head,
        blocks,
        preloaded,
    })
}

/// Cuts each region into blocks of its size, also cutting at `cuts`.
#[cfg(not(target_arch = "wasm32"))]
fn cut_blocks(
    packed: &[u8],
    regions: &[(Range<usize>, usize)],
    cuts: &BTreeSet<usize>,
) -> Result<Vec<Vec<u8>>, SearchError> {
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    let mut at = 0;
    for (r, size) in regions {
        if r.start != at {
            return Err(corrupt("files do not tile the packed index"));
        }
        let mut piece_start = r.start;
        for cut in cuts.range(r.start + 1..r.end).copied().chain([r.end]) {
            blocks.extend(packed[piece_start..cut].chunks(*size).map(<[u8]>::to_vec));
            piece_start = cut;
        }
        at = r.end;
    }
    if at != packed.len() {
        return Err(corrupt("files do not tile the packed index"));
    }
    Ok(blocks)
}

/// Opens the index over `blocks` as the browser does; returns the byte ranges read and the
/// blocks they touch.
#[cfg(not(target_arch = "wasm32"))]
fn reads_at_open(
    packed: &[u8],
    table_end: usize,
    blocks: &[Vec<u8>],
) -> Result<(Vec<Range<usize>>, BTreeSet<u32>), SearchError> {
    let store = Arc::new(BlockStore::new(
        &packed[..table_end],
        packed.len(),
        blocks.iter().map(|b| (b.len(), fnv1a64(b))).collect(),
    )?);
    for (i, b) in blocks.iter().enumerate() {
        store.add(i as u32, b.clone())?;
    }
    *lock(&store.touched) = Some(Vec::new());
    let dir = BlockDirectory::new(Arc::clone(&store))?;
    let index = Index::open(dir)?;
    crate::analysis::register_tokenizers(&index);
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .num_warming_threads(0)
        .try_into()?;
    drop(reader.searcher());
    let mut ranges = lock(&store.touched).take().unwrap_or_default();
    // meta.json is read when the directory is made, before recording starts.
    if let Some(meta) = store.files.get("meta.json") {
        ranges.push(meta.clone());
    }
    let blocks = ranges
        .iter()
        .filter(|r| r.start < r.end)
        .flat_map(|r| store.block_of(r.start) as u32..=store.block_of(r.end - 1) as u32)
        .collect();
    Ok((ranges, blocks))
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
    fn new(
        table: &[u8],
        total_len: usize,
        blocks: Vec<(usize, u64)>,
    ) -> Result<BlockStore, SearchError> {
        let files = crate::pack::unpack_table(table, total_len)?;
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
        if bytes.len() != want || fnv1a64(&bytes) != sum {
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
    fn block_of(&self, off: usize) -> usize {
        self.starts.partition_point(|&s| s <= off).saturating_sub(1)
    }

    fn block_len(&self, i: u32) -> Option<usize> {
        let i = i as usize;
        Some(self.starts.get(i + 1)? - self.starts.get(i)?)
    }

    fn has(&self, i: u32) -> bool {
        self.blocks
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(i as usize)
            .is_some_and(Option::is_some)
    }

    /// Bytes `range` of the packed index, or an error after recording the missing blocks.
    fn read(&self, range: Range<usize>) -> io::Result<OwnedBytes> {
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

    /// Takes the blocks recorded missing since the last call.
    pub(crate) fn take_missing(&self) -> Vec<u32> {
        std::mem::take(&mut *lock(&self.missing))
            .into_iter()
            .collect()
    }
}

/// Parses a head into a block store with the preloaded blocks added.
pub(crate) fn store_from_head(head: &[u8]) -> Result<Arc<BlockStore>, SearchError> {
    if head.len() < HEAD_FIXED || &head[..8] != HEAD_MAGIC {
        return Err(corrupt("not a kbook index head"));
    }
    let version = le_u32(head, 8);
    if version != crate::FORMAT_VERSION {
        return Err(SearchError::Corrupt(format!(
            "index format {version}, this build reads {}: rebuild the book",
            crate::FORMAT_VERSION
        )));
    }
    let total_len =
        usize::try_from(le_u64(head, 16)).map_err(|_| corrupt("index length overflow"))?;
    let table_len = le_u32(head, 24) as usize;
    let n_blocks = le_u32(head, 28);
    let n_pre = le_u32(head, 32);
    let sum = le_u64(head, 36);
    let rest = &head[HEAD_FIXED..];
    if fnv1a64(rest) != sum {
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
    let store = BlockStore::new(&rest[..table_len], total_len, blocks)?;
    let mut at = pre_at;
    for _ in 0..n_pre {
        if at + 4 > rest.len() {
            return Err(corrupt("truncated head"));
        }
        let i = le_u32(rest, at);
        at += 4;
        let Some(len) = store.block_len(i) else {
            return Err(corrupt("bad preloaded block"));
        };
        let bytes = rest
            .get(at..at + len)
            .ok_or_else(|| corrupt("truncated head"))?;
        at += len;
        store.add(i, bytes.to_vec())?;
    }
    if at != rest.len() {
        return Err(corrupt("trailing bytes in the head"));
    }
    Ok(Arc::new(store))
}

/// A read-only Tantivy directory over a [`BlockStore`]; writes (locks, `.managed.json`) go
/// to a small in-memory directory.
#[derive(Clone, Debug)]
pub(crate) struct BlockDirectory {
    store: Arc<BlockStore>,
    ram: RamDirectory,
}

impl BlockDirectory {
    pub(crate) fn new(store: Arc<BlockStore>) -> Result<BlockDirectory, SearchError> {
        let ram = RamDirectory::create();
        let meta = store
            .files
            .get("meta.json")
            .cloned()
            .ok_or_else(|| corrupt("no meta.json"))?;
        let bytes = store
            .read(meta)
            .map_err(|_| corrupt("meta.json is not in the head"))?;
        ram.atomic_write(Path::new("meta.json"), bytes.as_slice())
            .map_err(|e| corrupt(format!("cannot load meta.json: {e}")))?;
        Ok(BlockDirectory { store, ram })
    }

    fn segment_file(&self, path: &Path) -> Option<&Range<usize>> {
        let name = path.to_str()?;
        if name == "meta.json" {
            return None;
        }
        self.store.files.get(name)
    }
}

/// One file of the packed index, read through the block store.
#[derive(Debug)]
struct BlockFile {
    store: Arc<BlockStore>,
    range: Range<usize>,
}

impl HasLen for BlockFile {
    fn len(&self) -> usize {
        self.range.len()
    }
}

impl FileHandle for BlockFile {
    fn read_bytes(&self, range: Range<usize>) -> io::Result<OwnedBytes> {
        if range.start > range.end || range.end > self.range.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "read outside the file",
            ));
        }
        let base = self.range.start;
        self.store.read(base + range.start..base + range.end)
    }
}

impl Directory for BlockDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        match self.segment_file(path) {
            Some(range) => Ok(Arc::new(BlockFile {
                store: Arc::clone(&self.store),
                range: range.clone(),
            })),
            None => self.ram.get_file_handle(path),
        }
    }
    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.ram.delete(path)
    }
    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        Ok(self.segment_file(path).is_some() || self.ram.exists(path)?)
    }
    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        if self.segment_file(path).is_some() {
            return Err(OpenWriteError::FileAlreadyExists(PathBuf::from(path)));
        }
        self.ram.open_write(path)
    }
    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        match self.segment_file(path) {
            Some(range) => self
                .store
                .read(range.clone())
                .map(|b| b.as_slice().to_vec())
                .map_err(|e| OpenReadError::wrap_io_error(e, PathBuf::from(path))),
            None => self.ram.atomic_read(path),
        }
    }
    fn atomic_write(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        self.ram.atomic_write(path, data)
    }
    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }
    fn watch(&self, _cb: WatchCallback) -> tantivy::Result<WatchHandle> {
        Ok(WatchHandle::empty())
    }
}

thread_local! {
    /// The store of the last head opened by [`crate::pack::directory_from_packed`], for
    /// [`LazyIndex::open`] to pick up ([`BookIndex::open`] takes bytes, not a directory).
    static LAST_STORE: std::cell::RefCell<Option<Arc<BlockStore>>> =
        const { std::cell::RefCell::new(None) };
}

/// Opens a head as a directory (called by [`crate::pack::directory_from_packed`]).
pub(crate) fn directory_from_head(head: &[u8]) -> Result<BlockDirectory, SearchError> {
    let store = store_from_head(head)?;
    LAST_STORE.with(|s| *s.borrow_mut() = Some(Arc::clone(&store)));
    BlockDirectory::new(store)
}

/// What a lazy search produced.
#[derive(Debug)]
pub enum LazyOutcome {
    /// The search ran on complete data.
    Done(SearchResults),
    /// These blocks are needed first: add them with [`LazyIndex::add_block`] and search again.
    Need(Vec<u32>),
}

/// An index opened from a packed index (everything loaded) or from a head (blocks on demand).
pub struct LazyIndex {
    book: BookIndex,
    lazy: Option<Planner>,
}

struct Planner {
    store: Arc<BlockStore>,
    /// A second reader over the same blocks: its failed reads only teach the plan.
    reader: BookIndex,
}

impl std::fmt::Debug for LazyIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyIndex")
            .field("book", &self.book)
            .field("lazy", &self.lazy.is_some())
            .finish()
    }
}

impl LazyIndex {
    /// Opens a packed index or a head.
    pub fn open(bytes: Vec<u8>) -> Result<LazyIndex, SearchError> {
        let is_head = bytes.starts_with(HEAD_MAGIC);
        LAST_STORE.with(|s| s.borrow_mut().take());
        let book = BookIndex::open(bytes)?;
        if !is_head {
            return Ok(LazyIndex { book, lazy: None });
        }
        let store = LAST_STORE
            .with(|s| s.borrow_mut().take())
            .ok_or_else(|| corrupt("head opened without a block store"))?;
        let reader =
            BookIndex::from_index(&Index::open(BlockDirectory::new(Arc::clone(&store))?)?)?;
        let missing = store.take_missing();
        if !missing.is_empty() {
            return Err(corrupt("the head lacks blocks needed to open the index"));
        }
        Ok(LazyIndex {
            book,
            lazy: Some(Planner { store, reader }),
        })
    }

    /// The underlying reader.
    pub fn book(&self) -> &BookIndex {
        &self.book
    }

    /// Number of blocks (0 when everything is loaded).
    pub fn block_count(&self) -> usize {
        self.lazy.as_ref().map_or(0, |p| p.store.sums.len())
    }

    /// Whether block `i` is loaded (always true without blocks).
    pub fn has_block(&self, i: u32) -> bool {
        self.lazy.as_ref().is_none_or(|p| p.store.has(i))
    }

    /// Adds a fetched block (checked against the head's checksum).
    pub fn add_block(&self, i: u32, bytes: Vec<u8>) -> Result<(), SearchError> {
        match &self.lazy {
            Some(p) => p.store.add(i, bytes),
            None => Err(corrupt("this index is fully loaded")),
        }
    }

    /// Searches, or says which blocks to fetch first.
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<LazyOutcome, SearchError> {
        let Some(plan) = &self.lazy else {
            return self.book.search(query, opts).map(LazyOutcome::Done);
        };
        // Straight to the search when the blocks are there (a repeated or similar query); the
        // staged plan only when a read found one missing.
        plan.store.take_missing();
        let result = self.book.search(query, opts);
        let lacked = plan.store.take_missing();
        if lacked.is_empty() {
            return result.map(LazyOutcome::Done);
        }
        // What the search lacked, plus everything the staged plan finds missing up to the
        // first stage that lacks data.
        let mut need: BTreeSet<u32> = lacked.into_iter().collect();
        need.extend(plan.stages(query, opts));
        Ok(LazyOutcome::Need(need.into_iter().collect()))
    }
}

impl Planner {
    /// Runs the stages until one lacks blocks; returns them (empty: all data is loaded).
    fn stages(&self, query: &str, opts: &SearchOptions) -> Vec<u32> {
        // 1. Term dictionaries and document frequencies (query building reads them).
        let built = build_query(query, &self.reader.searcher, &self.reader.kb, &opts.tuning);
        let missing = self.store.take_missing();
        if !missing.is_empty() || built.clauses.is_empty() {
            return missing;
        }
        // 2. Postings, positions and field norms of every term, in one pass.
        let mut filters: Vec<Term> = Vec::new();
        for (field, value) in [
            (self.reader.kb.connector, &opts.connector),
            (self.reader.kb.kind, &opts.kind),
        ] {
            if let Some(v) = value {
                filters.push(Term::from_field_text(field, &v.to_lowercase()));
            }
        }
        let mut terms: Vec<(Term, bool)> = filters.iter().map(|t| (t.clone(), false)).collect();
        for c in &built.clauses {
            c.query
                .query_terms(&mut |t, positions| terms.push((t.clone(), positions)));
        }
        for reader in self.reader.searcher.segment_readers() {
            let mut fields = BTreeSet::new();
            for (term, positions) in &terms {
                fields.insert(term.field());
                let Ok(inv) = reader.inverted_index(term.field()) else {
                    continue;
                };
                let Ok(Some(info)) = inv.get_term_info(term) else {
                    continue;
                };
                let option = if *positions {
                    IndexRecordOption::WithFreqsAndPositions
                } else {
                    IndexRecordOption::WithFreqs
                };
                let _ = inv.read_postings_from_terminfo(&info, option);
            }
            for field in fields {
                let _ = reader.get_fieldnorms_reader(field);
            }
        }
        let missing = self.store.take_missing();
        if !missing.is_empty() {
            return missing;
        }
        // 3. The stored documents of the shown hits (a reader's version only reorders them):
        // the real search reads every one even when one is missing, so this stage learns
        // exactly their document-store blocks.
        let _ = self.reader.search(query, opts);
        self.store.take_missing()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EntryDoc;

    fn docs(n: usize) -> Vec<EntryDoc> {
        let words = [
            "checkpoint",
            "timeout",
            "kafka",
            "offset",
            "commit",
            "jdbc",
            "batch",
            "sink",
            "schema",
            "registry",
            "avro",
            "parquet",
            "watermark",
            "backpressure",
            "rocksdb",
        ];
        (0..n)
            .map(|i| {
                let w = |k: usize| words[(i * 7 + k * 3) % words.len()];
                EntryDoc {
                    id: format!("entry-{i}"),
                    url: format!("c{}/entry-{i}.html", i % 5),
                    title: format!("{} {} fails ({i})", w(1), w(2)),
                    connector: format!("c{}", i % 5),
                    kind: "error".into(),
                    errors: vec![format!(
                        "Caused by: {}Exception: {} {} code{i}",
                        w(3),
                        w(4),
                        w(5)
                    )],
                    body: format!("{} {} {} body text number{i} ", w(6), w(7), w(8)).repeat(40),
                    ..Default::default()
                }
            })
            .collect()
    }

    fn run(lazy: &LazyIndex, set: &BlockSet, q: &str, fetched: &mut usize) -> SearchResults {
        for _ in 0..16 {
            match lazy.search(q, &SearchOptions::default()).unwrap() {
                LazyOutcome::Done(r) => return r,
                LazyOutcome::Need(need) => {
                    assert!(!need.is_empty());
                    for i in need {
                        *fetched += 1;
                        lazy.add_block(i, set.blocks[i as usize].clone()).unwrap();
                    }
                }
            }
        }
        panic!("no result after 16 rounds for {q:?}");
    }

    #[test]
    fn lazy_search_matches_full_and_fetches_some_blocks() {
        let packed = crate::build_packed_index(&docs(2000)).unwrap();
        let set = split_packed(&packed).unwrap();
        assert!(set.blocks.len() > 20, "{} blocks", set.blocks.len());
        let full = BookIndex::open(packed).unwrap();
        let lazy = LazyIndex::open(set.head.clone()).unwrap();
        assert!(lazy.block_count() == set.blocks.len());
        let mut fetched = 0;
        for q in [
            "checkpoint timeout",
            "Caused by: kafkaException: offset commit code17",
            "rocksdb backpressure watermark",
            "\"body text\"",
            "chekpoint",
            "",
        ] {
            let got = run(&lazy, &set, q, &mut fetched);
            let want = full.search(q, &SearchOptions::default()).unwrap();
            let ids = |r: &SearchResults| r.hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&got), ids(&want), "{q:?}");
            assert_eq!(
                got.hits.first().map(|h| h.snippet.text.clone()),
                want.hits.first().map(|h| h.snippet.text.clone())
            );
        }
        assert!(
            fetched < set.blocks.len(),
            "fetched {fetched} of {}",
            set.blocks.len()
        );
    }

    #[test]
    fn damaged_heads_and_blocks_are_errors() {
        let packed = crate::build_packed_index(&docs(50)).unwrap();
        let set = split_packed(&packed).unwrap();
        for cut in [0, 7, 40, set.head.len() / 2, set.head.len() - 1] {
            assert!(LazyIndex::open(set.head[..cut].to_vec()).is_err());
        }
        let mut bad = set.head.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(LazyIndex::open(bad).is_err());
        let lazy = LazyIndex::open(set.head.clone()).unwrap();
        let mut block = set.blocks[0].clone();
        block[3] ^= 1;
        assert!(lazy.add_block(0, block).is_err());
        assert!(lazy.add_block(u32::MAX, vec![1]).is_err());
        assert!(lazy.add_block(0, Vec::new()).is_err());
    }
}

/// Transfer per search on a built site: `KBOOK_SITE=<site dir> cargo test -p kbook-search
/// --lib blocks::measure -- --ignored --nocapture` (queries from `KBOOK_QUERIES`, one a line).
#[cfg(test)]
mod measure {
    use super::*;

    #[test]
    #[ignore = "measurement on a built site"]
    fn measure() {
        let Some(site) = std::env::var_os("KBOOK_SITE") else {
            return;
        };
        let search = std::path::Path::new(&site).join("search");
        let mut head = None;
        let mut blocks_dir = None;
        for e in std::fs::read_dir(&search).unwrap() {
            let p = e.unwrap().path();
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            if n.ends_with(".head") {
                head = Some(p.clone());
            }
            if n.starts_with("blocks.") {
                blocks_dir = Some(p.clone());
            }
        }
        let head = std::fs::read(head.unwrap()).unwrap();
        let dir = blocks_dir.unwrap();
        let lazy = LazyIndex::open(head.clone()).unwrap();
        eprintln!("head {} B, {} blocks", head.len(), lazy.block_count());
        let queries = std::fs::read_to_string(std::env::var("KBOOK_QUERIES").unwrap()).unwrap();
        for q in queries.lines().filter(|l| !l.trim().is_empty()) {
            let (mut rounds, mut n, mut bytes) = (0, 0, 0);
            let t = std::time::Instant::now();
            loop {
                match lazy.search(q, &SearchOptions::default()).unwrap() {
                    LazyOutcome::Done(_) => break,
                    LazyOutcome::Need(need) => {
                        rounds += 1;
                        for i in need {
                            let b = std::fs::read(dir.join(format!("{i}.bin"))).unwrap();
                            n += 1;
                            bytes += b.len();
                            lazy.add_block(i, b).unwrap();
                        }
                    }
                }
            }
            eprintln!(
                "{rounds} rounds, {n} blocks, {bytes} B, {:?}: {}",
                t.elapsed(),
                q.chars().take(60).collect::<String>()
            );
        }
    }
}
