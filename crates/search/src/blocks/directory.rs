//! The read-only Tantivy directory over an index: a packed index loaded whole, or a head
//! whose blocks are read on demand.

use super::store::{BlockStore, store_from_head};
use crate::SearchError;
use crate::head::HEAD_MAGIC;
use crate::pack::unpack;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tantivy::directory::error::{DeleteError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    FileHandle, OwnedBytes, RamDirectory, WatchCallback, WatchHandle, WritePtr,
};
use tantivy::{Directory, HasLen};

fn corrupt(msg: impl Into<String>) -> SearchError {
    SearchError::Corrupt(msg.into())
}

/// An opened index directory.
pub(crate) struct Opened {
    pub dir: Box<dyn Directory>,
    /// The block store behind `dir` when it was opened from a head: the caller adds fetched
    /// blocks through it.
    pub store: Option<Arc<BlockStore>>,
}

/// Opens a packed index (loaded into a fresh in-memory directory) or the head of a
/// block-split one (blocks are read on demand), native and wasm32.
pub(crate) fn open_directory(bytes: &[u8]) -> Result<Opened, SearchError> {
    if bytes.starts_with(HEAD_MAGIC) {
        let store = store_from_head(bytes)?;
        let dir = BlockDirectory::new(Arc::clone(&store))?;
        return Ok(Opened {
            dir: Box::new(dir),
            store: Some(store),
        });
    }
    let files = unpack(bytes)?;
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
    Ok(Opened {
        dir: Box::new(dir),
        store: None,
    })
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
            .file("meta.json")
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
        self.store.file(name)
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
