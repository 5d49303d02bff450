//! Index writing (native only). A build writes one segment: the entries are analysed on all
//! cores, a batch at a time, while one thread files the analysed batches into the segment.
//! (Writing a segment per chunk on each core and merging them took longer: the merge runs on
//! one core and re-encodes every posting.)
//!
//! Determinism: the one writer receives the documents in entry order, so the same documents
//! give the same segment bytes on any machine. The random segment id is replaced by a content
//! hash when the index is packed ([`build_packed_index`]).
//!
//! `kbook serve` keeps chunk segments between rebuilds ([`KeptSegments`]): entries are written
//! in fixed-size chunks, one segment each, and an edit re-indexes only the chunk holding the
//! edited entry; the chunks are not merged (a multi-segment index answers the same queries;
//! merging costs more than the edit).

use crate::analysis::{AnalysedAhead, KbTokenStream};
use crate::hash::word_hash128;
use crate::pack::pack_files;
use crate::schema::{F_BODY, F_CODE, F_IDS, F_SIG, F_TAGS, F_TITLE, KbSchema, TEXT_FIELDS};
use crate::{EntryDoc, SearchError};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::Path;
use tantivy::directory::{OwnedBytes, RamDirectory};
use tantivy::{Directory, Index, TantivyDocument};

/// Entries per chunk segment (`kbook serve`). Fixed, so segmenting does not depend on the
/// machine.
const CHUNK_DOCS: usize = 256;
/// Entries analysed together while the writer files the previous batch.
const BATCH_DOCS: usize = 64;
/// Analysed batches waiting for the writer, at most (bounds the memory ahead of it).
const BATCHES_AHEAD: usize = 2;
/// Indexing memory a writer starts with: its term hash table is sized from it (and grows as
/// needed). Larger tables cost more to allocate than a book's terms need.
const WRITER_MEMORY: usize = 3 << 20;

/// A chunk's one-segment index and the directory holding its files (with their footers;
/// the index's own directory view strips them).
type Chunk = (RamDirectory, Index);

/// The chunk segments of the last build, for the next build to reuse (`kbook serve`, where
/// the index is rebuilt on every edit). A build given one leaves its chunks unmerged and
/// stores them here in place of the previous ones; one-shot builds merge into one segment.
#[derive(Default)]
pub struct KeptSegments {
    /// By chunk fingerprint ([`docs_fingerprint`] of the chunk's entries).
    chunks: HashMap<u64, Chunk>,
}

impl std::fmt::Debug for KeptSegments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptSegments")
            .field("chunks", &self.chunks.len())
            .finish()
    }
}

/// Texts analysed ahead, in the writer's order.
type Analysed = Vec<(String, KbTokenStream)>;

/// The Tantivy document of one entry. With `ahead`, its texts are also analysed into it, in
/// the order the writer reads them (text fields in schema order, values in order).
fn to_document(
    kb: &KbSchema,
    d: &EntryDoc,
    mut ahead: Option<&mut Analysed>,
) -> Result<TantivyDocument, SearchError> {
    let mut doc = TantivyDocument::default();
    let mut add = |doc: &mut TantivyDocument, f: usize, text: &str| {
        if let Some(ahead) = ahead.as_deref_mut() {
            ahead.push(AnalysedAhead::analyse(text, TEXT_FIELDS[f].analyzer));
        }
        doc.add_text(kb.text[f], text);
    };
    doc.add_text(kb.id, &d.id);
    doc.add_text(kb.url, &d.url);
    doc.add_text(kb.connector, d.connector.to_lowercase());
    for alias in &d.connector_aliases {
        doc.add_text(kb.aliases, alias.to_lowercase());
        doc.add_text(
            kb.alias_of,
            format!("{} {}", alias.to_lowercase(), d.connector.to_lowercase()),
        );
    }
    if d.cross_connector {
        doc.add_text(kb.cross_connector, d.connector.to_lowercase());
    }
    doc.add_text(kb.kind, d.kind.to_lowercase());
    doc.add_text(kb.versions, serde_json::to_string(&d.versions)?);
    for e in &d.errors {
        add(&mut doc, F_SIG, e);
    }
    for e in &d.generic_errors {
        doc.add_text(kb.generic, e);
    }
    for s in &d.symptoms {
        doc.add_text(kb.symptoms, s);
    }
    if d.anchors.iter().any(|a| !a.is_empty()) {
        doc.add_text(kb.anchors, d.anchors.join("\n"));
    }
    // Identifiers come from the error strings, the title, the tags and the symptoms.
    let ids: Vec<&str> = d
        .errors
        .iter()
        .map(String::as_str)
        .chain([d.title.as_str()])
        .chain(d.tags.iter().map(String::as_str))
        .chain(d.symptoms.iter().map(String::as_str))
        .collect();
    add(&mut doc, F_IDS, &ids.join("\n"));
    add(&mut doc, F_TITLE, &d.title);
    // The connector name is text too: people type "kafka timeout".
    let tags: Vec<&str> = d
        .tags
        .iter()
        .chain(&d.symptoms)
        .map(String::as_str)
        .chain([d.connector.as_str()])
        .collect();
    add(&mut doc, F_TAGS, &tags.join("\n"));
    add(&mut doc, F_BODY, &d.body);
    add(&mut doc, F_CODE, &d.code);
    Ok(doc)
}

/// A writer of one segment into `dir`; with `ahead`, taking the texts' tokens from it.
fn segment_writer(
    kb: &KbSchema,
    dir: &RamDirectory,
    ahead: Option<&AnalysedAhead>,
) -> Result<tantivy::SingleSegmentIndexWriter<TantivyDocument>, SearchError> {
    let tokenizers = tantivy::tokenizer::TokenizerManager::default();
    match ahead {
        Some(ahead) => ahead.register_into(&tokenizers),
        None => crate::analysis::register_into(&tokenizers),
    }
    Ok(Index::builder()
        .schema(kb.schema.clone())
        .settings(crate::schema::index_settings())
        .tokenizers(tokenizers)
        .single_segment_index_writer::<TantivyDocument>(dir.clone(), WRITER_MEMORY)?)
}

/// One chunk of entries as a one-segment index in memory.
fn write_chunk(kb: &KbSchema, docs: &[EntryDoc]) -> Result<Chunk, SearchError> {
    let dir = RamDirectory::create();
    let mut writer = segment_writer(kb, &dir, None)?;
    for d in docs {
        writer.add_document(to_document(kb, d, None)?)?;
    }
    Ok((dir, writer.finalize()?))
}

/// All entries as one segment: batches are analysed on all cores while a thread of its own
/// files the previous ones, in entry order. The batches are made as they are needed, so
/// whatever makes them (reading pages) runs while earlier ones are filed.
fn write_one_segment<B: AsRef<[EntryDoc]>>(
    kb: &KbSchema,
    batches: impl Iterator<Item = B>,
) -> Result<Chunk, SearchError> {
    let dir = RamDirectory::create();
    let ahead = AnalysedAhead::default();
    let (send, receive) = std::sync::mpsc::sync_channel::<Vec<TantivyDocument>>(BATCHES_AHEAD);
    std::thread::scope(|scope| {
        let filer = std::thread::Builder::new()
            .name("index writer".into())
            .spawn_scoped(scope, || -> Result<Index, SearchError> {
                let mut writer = segment_writer(kb, &dir, Some(&ahead))?;
                for batch in receive {
                    for doc in batch {
                        writer.add_document(doc)?;
                    }
                }
                Ok(writer.finalize()?)
            })
            .map_err(|e| SearchError::Corrupt(format!("cannot start the index writer: {e}")))?;
        let mut analysed = Ok(());
        for batch in batches {
            let made: Result<Vec<(TantivyDocument, Analysed)>, SearchError> = batch
                .as_ref()
                .par_iter()
                .map(|d| {
                    let mut analysed = Vec::new();
                    to_document(kb, d, Some(&mut analysed)).map(|doc| (doc, analysed))
                })
                .collect();
            match made {
                Ok(made) => {
                    // The tokens are queued before the documents that need them are sent.
                    let (made, analysed): (Vec<_>, Vec<_>) = made.into_iter().unzip();
                    ahead.extend(analysed.into_iter().flatten().collect());
                    // A closed channel means the writer failed: its error is reported below.
                    if send.send(made).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    analysed = Err(e);
                    break;
                }
            }
        }
        drop(send);
        let index = filer
            .join()
            .map_err(|_| SearchError::Corrupt("the index writer stopped".into()))??;
        analysed?;
        Ok((dir.clone(), index))
    })
}

/// A fingerprint of every indexed value of `docs` (what identifies a chunk's segment, and
/// whether a rebuild needs a new index at all).
pub fn docs_fingerprint(docs: &[EntryDoc]) -> u64 {
    let mut h = crate::ContentHasher::default();
    for d in docs {
        (&d.id, &d.url, &d.title, &d.connector, &d.kind).hash(&mut h);
        (&d.errors, &d.body, &d.code, &d.tags, &d.connector_aliases).hash(&mut h);
        d.symptoms.hash(&mut h);
        d.anchors.hash(&mut h);
        d.generic_errors.hash(&mut h);
        d.cross_connector.hash(&mut h);
        format!("{:?}", d.versions).hash(&mut h);
    }
    docs.len().hash(&mut h);
    h.finish()
}

/// Writes `docs` into a fresh in-memory index: one segment, or, with `kept`, one segment per
/// chunk, reusing the kept chunks whose entries did not change.
pub(crate) fn write_index(
    docs: &[EntryDoc],
    kept: Option<&mut KeptSegments>,
) -> Result<(RamDirectory, Index), SearchError> {
    let kb = KbSchema::build();
    let Some(kept) = kept else {
        return write_one_segment(&kb, docs.chunks(BATCH_DOCS));
    };
    let chunks: Vec<&[EntryDoc]> = if docs.is_empty() {
        vec![docs]
    } else {
        docs.chunks(CHUNK_DOCS).collect()
    };
    let fps: Vec<u64> = chunks.par_iter().map(|c| docs_fingerprint(c)).collect();
    let written: Vec<Chunk> = chunks
        .par_iter()
        .zip(&fps)
        .map(|(c, fp)| match kept.chunks.get(fp) {
            Some(chunk) => Ok(chunk.clone()),
            None => write_chunk(&kb, c),
        })
        .collect::<Result<_, _>>()?;
    kept.chunks = fps.iter().copied().zip(written.iter().cloned()).collect();
    combine(&written)
}

/// Builds the deterministic packed index (one segment, renamed to a content-derived id).
pub fn build_packed_index(docs: &[EntryDoc]) -> Result<Vec<u8>, SearchError> {
    pack_index(write_index(docs, None)?)
}

/// [`build_packed_index`] of entries that arrive in batches, in entry order: each batch is
/// asked for only when the writer has room for it, so making it (e.g. reading pages) runs
/// while earlier batches are filed. The same entries give the same bytes however they are
/// batched.
pub fn build_packed_index_batched<B: AsRef<[EntryDoc]>>(
    batches: impl Iterator<Item = B>,
) -> Result<Vec<u8>, SearchError> {
    pack_index(write_one_segment(&KbSchema::build(), batches)?)
}

/// Builds the packed index reusing the chunk segments `kept` from the previous build, and
/// keeps this build's for the next one. The segments stay unmerged: the bytes differ from
/// [`build_packed_index`]'s, the answers do not.
pub fn build_packed_index_keeping(
    docs: &[EntryDoc],
    kept: &mut KeptSegments,
) -> Result<Vec<u8>, SearchError> {
    pack_index(write_index(docs, Some(kept))?)
}

/// Packs a written index, its segments renamed to content-derived ids.
fn pack_index((dir, index): (RamDirectory, Index)) -> Result<Vec<u8>, SearchError> {
    let metas = index.load_metas()?;
    let mut meta_json = String::from_utf8(
        dir.atomic_read(Path::new("meta.json"))
            .map_err(|e| SearchError::Corrupt(e.to_string()))?,
    )
    .map_err(|_| SearchError::Corrupt("meta.json is not UTF-8".into()))?;
    let mut all_paths: Vec<std::path::PathBuf> = metas.list_segment_files().into_iter().collect();
    all_paths.sort();
    // The files' bytes are shared with the directory (not copied): the index is packed with
    // one copy of it in memory besides the directory.
    let mut files: Vec<(String, OwnedBytes)> = Vec::new();
    for seg in &metas.segments {
        let old = seg.id().uuid_string();
        let mut seg_files: Vec<(String, OwnedBytes)> = Vec::new();
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
            seg_files.push((name, bytes));
        }
        // Tantivy names segments with a random UUID; replace it with a hash of the content.
        let mut chunks: Vec<&[u8]> = Vec::new();
        for (name, data) in &seg_files {
            chunks.push(name.strip_prefix(old.as_str()).unwrap_or(name).as_bytes());
            chunks.push(data.as_slice());
        }
        let new = format!("{:032x}", word_hash128(&chunks));
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
            return Err(SearchError::Corrupt(
                "segment id not found in meta.json".into(),
            ));
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
    files.push((
        "meta.json".to_string(),
        OwnedBytes::new(meta_json.into_bytes()),
    ));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    drop((dir, index));
    pack_files(&files)
}

/// Copies the files of `metas`' segments from `from` (raw, with footers) into `to`.
fn copy_files(
    from: &RamDirectory,
    metas: &tantivy::IndexMeta,
    to: &RamDirectory,
) -> Result<(), SearchError> {
    let io = |e: &dyn std::fmt::Display| SearchError::Corrupt(e.to_string());
    for p in metas.list_segment_files() {
        if !from.exists(&p).map_err(|e| io(&e))? {
            continue;
        }
        let bytes = from
            .open_read(&p)
            .map_err(|e| io(&e))?
            .read_bytes()
            .map_err(|e| io(&e))?;
        to.atomic_write(&p, bytes.as_slice()).map_err(|e| io(&e))?;
    }
    Ok(())
}

fn write_meta(dir: &RamDirectory, meta: &tantivy::IndexMeta) -> Result<(), SearchError> {
    let mut json = serde_json::to_string_pretty(meta)?;
    json.push('\n');
    dir.atomic_write(Path::new("meta.json"), json.as_bytes())
        .map_err(|e| SearchError::Corrupt(e.to_string()))
}

/// The chunk segments side by side in one index, unmerged, in chunk order.
fn combine(chunks: &[Chunk]) -> Result<(RamDirectory, Index), SearchError> {
    let dir = RamDirectory::create();
    let mut meta: Option<tantivy::IndexMeta> = None;
    for (from, index) in chunks {
        let m = index.load_metas()?;
        copy_files(from, &m, &dir)?;
        match meta.as_mut() {
            None => meta = Some(m),
            Some(all) => all.segments.extend(m.segments),
        }
    }
    let Some(mut meta) = meta else {
        return Err(SearchError::Corrupt("no segments".into()));
    };
    meta.payload = None;
    write_meta(&dir, &meta)?;
    Ok((dir.clone(), Index::open(dir)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(n: usize, edited: Option<usize>) -> Vec<EntryDoc> {
        (0..n)
            .map(|i| EntryDoc {
                id: format!("e{i}"),
                url: format!("c/e{i}.html"),
                title: format!("Entry {i} TimeoutException"),
                connector: "kafka".into(),
                kind: "error".into(),
                errors: vec![format!("java.lang.IllegalStateException: state {i}")],
                generic_errors: Vec::new(),
                body: if edited == Some(i) {
                    "an edited body mentioning zebra".into()
                } else {
                    format!("body of entry {i} about checkpoints and offsets")
                },
                ..EntryDoc::default()
            })
            .collect()
    }

    fn search(packed: Vec<u8>, q: &str) -> Vec<String> {
        let index = crate::BookIndex::open(packed).unwrap();
        let opts = crate::SearchOptions {
            limit: 3,
            ..Default::default()
        };
        index
            .search(q, &opts)
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.id)
            .collect()
    }

    #[test]
    fn writing_is_deterministic_and_complete() {
        let d = docs(BATCH_DOCS * 5 + 7, None);
        let a = crate::build_packed_index(&d).unwrap();
        let b = crate::build_packed_index(&d).unwrap();
        assert_eq!(a, b, "same input, same bytes");
        // Analysing ahead on other threads gives the segment the writer makes analysing alone.
        let kb = KbSchema::build();
        let alone = pack_index(write_chunk(&kb, &d).unwrap()).unwrap();
        assert!(
            a == alone,
            "the index differs from the writer's own analysis"
        );
        // Batches of any size (and empty ones) give the same bytes.
        let uneven = [&d[..1], &d[1..1], &d[1..100], &d[100..]];
        let batched = crate::build_packed_index_batched(uneven.iter().copied()).unwrap();
        assert!(a == batched, "batching changed the index");
        let index = crate::BookIndex::open(a.clone()).unwrap();
        assert_eq!(index.num_docs(), d.len() as u64);
        assert_eq!(search(a, "state 300")[0].as_str(), "e300");
    }

    #[test]
    fn one_cjk_character_finds_every_entry_that_has_it() {
        let doc = |id: &str, body: &str| EntryDoc {
            id: id.into(),
            url: format!("c/{id}.html"),
            title: "作业问题".into(),
            connector: "kafka".into(),
            kind: "error".into(),
            body: body.into(),
            ..EntryDoc::default()
        };
        let d = [
            doc("ends", "作业处理得很慢。"),
            doc("starts", "慢查询导致超时"),
            doc("inside", "作业缓慢地运行"),
            doc("none", "作业正常运行"),
        ];
        let packed = crate::build_packed_index(&d).unwrap();
        let mut got = search(packed.clone(), "慢");
        got.sort();
        assert_eq!(got, ["ends", "inside", "starts"]);
        // After other words, too; a two-character query stays a bigram.
        assert!(search(packed.clone(), "kafka 慢").contains(&"ends".to_string()));
        assert_eq!(search(packed, "很慢"), ["ends"]);
    }

    #[test]
    fn analysed_ahead_serves_only_its_own_text() {
        use crate::Analyzer;
        use tantivy::tokenizer::TokenStream;
        let words = |m: &tantivy::tokenizer::TokenizerManager, text: &str| {
            let mut analyzer = m.get(Analyzer::Prose.name()).unwrap();
            let mut stream = analyzer.token_stream(text);
            let mut out = Vec::new();
            while stream.advance() {
                out.push(stream.token().text.clone());
            }
            out
        };
        let plain = tantivy::tokenizer::TokenizerManager::default();
        crate::analysis::register_into(&plain);
        let ahead = AnalysedAhead::default();
        ahead.extend(vec![AnalysedAhead::analyse(
            "checkpoint timeouts",
            Analyzer::Prose,
        )]);
        let replay = tantivy::tokenizer::TokenizerManager::default();
        ahead.register_into(&replay);
        // Out of order: analysed on the spot, and the queued one is kept for its text.
        let other = "Kafka brokers";
        assert_eq!(words(&replay, other), words(&plain, other));
        assert_eq!(ahead.queued(), 1);
        let queued = "checkpoint timeouts";
        assert_eq!(words(&replay, queued), words(&plain, queued));
        assert_eq!(ahead.queued(), 0, "the queued analysis is used");
        assert!(!words(&plain, queued).is_empty());
    }

    /// The segment id of each chunk of `docs` held in `kept` (a rewritten chunk gets a new,
    /// random id; a reused one keeps its id).
    fn kept_ids(kept: &KeptSegments, docs: &[EntryDoc]) -> Vec<Option<String>> {
        docs.chunks(CHUNK_DOCS)
            .map(|c| {
                let (_, index) = kept.chunks.get(&docs_fingerprint(c))?;
                let ids = index.searchable_segment_ids().unwrap();
                assert_eq!(ids.len(), 1, "one segment per chunk");
                Some(ids[0].uuid_string())
            })
            .collect()
    }

    #[test]
    fn kept_segments_reindex_only_changed_chunks() {
        let d = docs(CHUNK_DOCS * 2 + 7, None);
        let merged = crate::build_packed_index(&d).unwrap();
        let mut kept = KeptSegments::default();
        let first = crate::build_packed_index_keeping(&d, &mut kept).unwrap();
        let before = kept_ids(&kept, &d);
        assert_eq!(before.len(), 3);
        assert!(before.iter().all(Option::is_some), "every chunk kept");
        let edited = docs(CHUNK_DOCS * 2 + 7, Some(5));
        let second = crate::build_packed_index_keeping(&edited, &mut kept).unwrap();
        let after = kept_ids(&kept, &edited);
        assert!(after.iter().all(Option::is_some), "every chunk kept");
        assert_ne!(after[0], before[0], "the edited chunk is written again");
        assert_eq!(after[1..], before[1..], "unchanged chunks are reused");
        assert_eq!(
            kept.chunks.len(),
            3,
            "the previous build's chunks are dropped"
        );
        assert_eq!(search(first, "zebra"), Vec::<String>::new());
        assert_eq!(search(second.clone(), "zebra"), vec!["e5".to_string()]);
        assert_eq!(
            crate::BookIndex::open(second).unwrap().num_docs(),
            crate::BookIndex::open(merged).unwrap().num_docs()
        );
    }
}
