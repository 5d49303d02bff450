//! Searching an index whose blocks arrive on demand (the browser over http).
//!
//! [`LazyIndex`] plans a search in stages (term dictionaries, then postings/positions/field
//! norms of the query's terms, then the stored documents of the candidates), each stage
//! collecting every block it lacks, so the host fetches them in a few parallel rounds and
//! calls again. Tantivy caches per-field readers and doc-store blocks only after a successful
//! read, so a failed read leaves nothing half-initialised, and any search during which a read
//! failed is discarded (even where the engine itself swallows the error) — results are never
//! built from missing data.

use crate::blocks::{BlockDirectory, BlockStore, Opened, open_directory};
use crate::book::{BookIndex, Scored};
use crate::query::{BuiltQuery, build_query, filter_clauses};
use crate::{SearchError, SearchOptions, SearchResults};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use tantivy::directory::{CompositeFile, FileSlice};
use tantivy::postings::TermInfo;
use tantivy::query::Query;
use tantivy::schema::Field;
use tantivy::{Directory, HasLen, Index, SegmentReader, Term};

fn corrupt(msg: impl Into<String>) -> SearchError {
    SearchError::Corrupt(msg.into())
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
    /// The last round of a search that needed blocks.
    last: Mutex<Option<Round>>,
    /// Held through a search: the store collects the blocks any read finds missing, so two
    /// searches at once (threads sharing the index) would take each other's.
    searching: Mutex<()>,
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
        let Opened { dir, store } = open_directory(&bytes)?;
        drop(bytes);
        let book = BookIndex::from_index(&Index::open(dir)?)?;
        let Some(store) = store else {
            return Ok(LazyIndex { book, lazy: None });
        };
        let reader =
            BookIndex::from_index(&Index::open(BlockDirectory::new(Arc::clone(&store))?)?)?;
        let missing = store.take_missing();
        if !missing.is_empty() {
            return Err(corrupt("the head lacks blocks needed to open the index"));
        }
        Ok(LazyIndex {
            book,
            lazy: Some(Planner {
                store,
                reader,
                last: Mutex::new(None),
                searching: Mutex::new(()),
            }),
        })
    }

    /// Number of blocks (0 when everything is loaded).
    pub fn block_count(&self) -> usize {
        self.lazy.as_ref().map_or(0, |p| p.store.block_count())
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
        // What the previous round of this same query got done is not done again (the data it
        // read does not change; fetched blocks only add to it).
        let _alone = lock(&plan.searching);
        let key = format!("{opts:?}\u{0}{query}");
        let previous = lock(&plan.last).take().filter(|r| r.key == key);
        plan.store.take_missing();
        let (built, scored) = match previous {
            Some(round) => (round.built, round.scored),
            None => {
                // Built by the planner's reader: a failed read there teaches the plan and
                // leaves the real reader's state alone.
                let built =
                    build_query(query, &plan.reader.searcher, &plan.reader.kb, &opts.tuning);
                // 1. Term dictionaries and document frequencies (building the query read them).
                let missing = plan.store.take_missing();
                if !missing.is_empty() {
                    return Ok(LazyOutcome::Need(plan.complete_fields(missing)));
                }
                (built, None)
            }
        };
        if built.clauses.is_empty() {
            return self.book.search_built(&built, opts).map(LazyOutcome::Done);
        }
        let need = |built: BuiltQuery, scored: Option<Scored>, blocks: Vec<u32>| {
            *lock(&plan.last) = Some(Round {
                key: key.clone(),
                built,
                scored,
            });
            Ok(LazyOutcome::Need(blocks))
        };
        let scored = match scored {
            Some(scored) => scored,
            None => {
                // 2. Postings, positions and field norms of every term, in one pass.
                let missing = plan.postings(&built, opts);
                if !missing.is_empty() {
                    return need(built, None, missing);
                }
                let scored = self.book.score(&built, opts);
                let missing = plan.store.take_missing();
                if !missing.is_empty() {
                    return need(built, None, missing);
                }
                scored?
            }
        };
        // 3. The stored documents of the shown hits and the second one (a reader's version only
        // reorders them):
        // they are all read even when one is missing, so one round fetches them all.
        let result = self
            .book
            .finish(&built, &scored, opts)
            .and_then(|r| self.book.confirm_filtered(&built, r, opts));
        let lacked = plan.store.take_missing();
        if lacked.is_empty() {
            return result.map(LazyOutcome::Done);
        }
        need(built, Some(scored), lacked)
    }
}

/// What a search that needed blocks had got done, for the next round of the same query.
struct Round {
    /// The query and options it was for.
    key: String,
    /// Built with every term dictionary it read loaded.
    built: BuiltQuery,
    /// Ranked, when every posting was loaded (then only documents were missing).
    scored: Option<Scored>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A segment's term dictionaries, postings and positions files, each one slice per field.
struct SegmentFiles {
    terms: Option<CompositeFile>,
    postings: Option<CompositeFile>,
    positions: Option<CompositeFile>,
}

impl SegmentFiles {
    fn open(index: &Index, reader: &SegmentReader) -> SegmentFiles {
        let uuid = reader.segment_id().uuid_string();
        let open = |ext: &str| {
            let path = std::path::PathBuf::from(format!("{uuid}.{ext}"));
            let file = index.directory().open_read(&path).ok()?;
            CompositeFile::open(&file).ok()
        };
        SegmentFiles {
            terms: open("term"),
            postings: open("idx"),
            positions: open("pos"),
        }
    }

    /// A field's postings: its token count (8 bytes, which opening the field reads), then
    /// the terms' postings lists.
    fn postings_of(&self, field: Field) -> Option<FileSlice> {
        let slice = self.postings.as_ref()?.open_read(field)?;
        (slice.len() >= 8).then_some(slice)
    }

    /// Reads what Tantivy reads of a term's postings and positions, each whether or not the
    /// other's blocks are there (Tantivy stops at the first missing one, costing a round).
    fn read_term(&self, field: Field, info: &TermInfo, positions: bool) {
        if let Some(slice) = self.postings_of(field) {
            let body = slice.slice_from(8);
            if info.postings_range.end <= body.len() {
                let _ = body.read_bytes_slice(info.postings_range.clone());
            }
        }
        if positions
            && let Some(slice) = self.positions.as_ref().and_then(|c| c.open_read(field))
            && info.positions_range.end <= slice.len()
        {
            let _ = slice.read_bytes_slice(info.positions_range.clone());
        }
    }

    /// Reads the token count at the start of a field's postings, as opening it does (after
    /// the term dictionary, so asking only through Tantivy would take a second round).
    fn read_header(&self, field: Field) {
        if let Some(slice) = self.postings_of(field) {
            let _ = slice.read_bytes_slice(0..8);
        }
    }
}

impl Planner {
    /// `missing` (what building the query lacked) and the rest of what opening each field it
    /// began to read costs. Tantivy opens a field in steps that each stop at a missing block
    /// (the dictionary's footer, its FST, its term infos, then the postings' header), a
    /// round apiece; a field whose dictionary has a block in `missing` gets its whole
    /// dictionary and its postings header now. Fields the build did not touch cost nothing.
    fn complete_fields(&self, missing: Vec<u32>) -> Vec<u32> {
        let mut all: BTreeSet<u32> = missing.into_iter().collect();
        let kb = &self.reader.kb;
        let index = self.reader.searcher.index();
        for reader in self.reader.searcher.segment_readers() {
            let files = SegmentFiles::open(index, reader);
            for field in kb.text.iter().chain([
                &kb.connector,
                &kb.aliases,
                &kb.alias_of,
                &kb.cross_connector,
                &kb.kind,
            ]) {
                let Some(dict) = files.terms.as_ref().and_then(|c| c.open_read(*field)) else {
                    continue;
                };
                let _ = dict.read_bytes();
                let lacked = self.store.take_missing();
                if lacked.iter().any(|b| all.contains(b)) {
                    all.extend(lacked);
                    files.read_header(*field);
                    all.extend(self.store.take_missing());
                }
            }
        }
        all.into_iter().collect()
    }

    /// Reads the postings, positions and field norms of every term of `built` and of the
    /// filters; returns the blocks found missing.
    fn postings(&self, built: &BuiltQuery, opts: &SearchOptions) -> Vec<u32> {
        let filters = filter_clauses(&self.reader.kb, opts);
        let mut terms: Vec<(Term, bool)> = Vec::new();
        for f in &filters {
            f.query_terms(&mut |t, positions| terms.push((t.clone(), positions)));
        }
        for c in &built.clauses {
            c.query
                .query_terms(&mut |t, positions| terms.push((t.clone(), positions)));
        }
        let index = self.reader.searcher.index();
        for reader in self.reader.searcher.segment_readers() {
            let files = SegmentFiles::open(index, reader);
            let mut fields = BTreeSet::new();
            for (term, positions) in &terms {
                fields.insert(term.field());
                let Ok(inv) = reader.inverted_index(term.field()) else {
                    continue;
                };
                let Ok(Some(info)) = inv.get_term_info(term) else {
                    continue;
                };
                files.read_term(term.field(), &info, *positions);
            }
            // Typo and prefix clauses: walk the dictionary as their scorer will and read the
            // postings of every term they match, so one round fetches them all (a scorer
            // stops at its first missing read, which made it a round per term).
            for (field, walk) in &built.walks {
                let (Ok(inv), Ok(automaton)) = (reader.inverted_index(*field), walk.automaton())
                else {
                    continue;
                };
                let Ok(mut matched) = inv.terms().search(automaton).into_stream() else {
                    continue;
                };
                while matched.advance() {
                    files.read_term(*field, matched.value(), false);
                }
            }
            // The long-page damping reads the body's token count and field norms.
            if opts.tuning.damps_long_pages() {
                let body = self.reader.kb.text[crate::schema::F_BODY];
                let _ = reader.inverted_index(body);
                fields.insert(body);
            }
            for field in fields {
                let _ = reader.get_fieldnorms_reader(field);
            }
        }
        self.store.take_missing()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EntryDoc;
    use crate::blocks::{BlockSet, split_packed};

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
                    tags: vec![format!("c{}", i % 5)],
                    // The builder reads the aliases' dictionary for every query.
                    connector_aliases: vec![format!("alias{}", i % 5)],
                    ..Default::default()
                }
            })
            .collect()
    }

    fn run(lazy: &LazyIndex, set: &BlockSet, q: &str, fetched: &mut usize) -> SearchResults {
        run_with(lazy, set, q, &SearchOptions::default(), fetched)
    }

    fn run_with(
        lazy: &LazyIndex,
        set: &BlockSet,
        q: &str,
        opts: &SearchOptions,
        fetched: &mut usize,
    ) -> SearchResults {
        for _ in 0..16 {
            match lazy.search(q, opts).unwrap() {
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
            "alias3 offset commit",
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
        // The alias was read from the lazily loaded dictionary: it named its connector.
        let got = run(&lazy, &set, "alias3 offset commit", &mut fetched);
        assert_eq!(got.hits.first().map(|h| h.connector.as_str()), Some("c3"));
        assert!(
            fetched < set.blocks.len(),
            "fetched {fetched} of {}",
            set.blocks.len()
        );
    }

    /// A filtered search decides confidence as the native search does (the whole book's
    /// search must agree), fetching what that needs.
    #[test]
    fn filtered_lazy_search_is_as_confident_as_the_full_one() {
        let d = docs(2000);
        let packed = crate::build_packed_index(&d).unwrap();
        let set = split_packed(&packed).unwrap();
        let full = BookIndex::open(packed).unwrap();
        // Entries' titles and error texts, under their own connector and another.
        let cases: Vec<(String, String)> = [17usize, 1203, 42, 5, 64, 333, 1001, 7]
            .iter()
            .flat_map(|&k| {
                let own = d[k].connector.clone();
                let other = format!("c{}", (k + 1) % 5);
                [
                    d[k].title.clone(),
                    d[k].errors[0].clone(),
                    d[k].title.split(' ').take(2).collect::<Vec<_>>().join(" "),
                ]
                .into_iter()
                .flat_map(move |q| [(q.clone(), own.clone()), (q, other.clone())])
            })
            .collect();
        let (mut confident, mut taken_back) = (0, 0);
        for (q, connector) in &cases {
            let opts = SearchOptions {
                connector: Some(connector.clone()),
                ..SearchOptions::default()
            };
            let want = full.search(q, &opts).unwrap();
            // The filtered search alone, before the whole book's search is asked.
            let built = build_query(q, &full.searcher, &full.kb, &opts.tuning);
            let alone = full
                .finish(&built, &full.score(&built, &opts).unwrap(), &opts)
                .unwrap();
            taken_back += usize::from(alone.confident && !want.confident);
            // A cold index each time: the confirmation's documents must be fetched too.
            let lazy = LazyIndex::open(set.head.clone()).unwrap();
            let got = run_with(&lazy, &set, q, &opts, &mut 0);
            let ids = |r: &SearchResults| r.hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&got), ids(&want), "{q:?} {connector}");
            assert_eq!(got.confident, want.confident, "{q:?} {connector}");
            confident += usize::from(got.confident);
        }
        assert!(confident > 0, "no filtered search was confident");
        // Two entries alike under two connectors: filtered to one, the search alone would be
        // confident, and the whole book's search takes that back, in the browser too.
        let twin = |id: &str, connector: &str| crate::EntryDoc {
            id: id.into(),
            url: format!("{connector}/{id}.html"),
            title: "Offset commit fails after a restart".into(),
            connector: connector.into(),
            kind: "error".into(),
            body: "The committed offset is lost when the job restarts.".into(),
            ..Default::default()
        };
        let mut small = vec![twin("a", "kafka"), twin("b", "mysql")];
        small.extend(docs(40));
        let packed = crate::build_packed_index(&small).unwrap();
        let set = split_packed(&packed).unwrap();
        let full = BookIndex::open(packed).unwrap();
        for q in [
            "offset commit fails after a restart",
            "offset commit restart",
        ] {
            let opts = SearchOptions {
                connector: Some("kafka".into()),
                ..SearchOptions::default()
            };
            let built = build_query(q, &full.searcher, &full.kb, &opts.tuning);
            let alone = full
                .finish(&built, &full.score(&built, &opts).unwrap(), &opts)
                .unwrap();
            let want = full.search(q, &opts).unwrap();
            taken_back += usize::from(alone.confident && !want.confident);
            let lazy = LazyIndex::open(set.head.clone()).unwrap();
            let got = run_with(&lazy, &set, q, &opts, &mut 0);
            assert_eq!(got.confident, want.confident, "{q:?}");
        }
        assert!(
            taken_back > 0,
            "no case where the whole book's search took confidence back"
        );
    }

    /// Fetch rounds of a first search (nothing loaded yet) of `q`.
    fn cold_rounds(set: &BlockSet, q: &str) -> usize {
        let lazy = LazyIndex::open(set.head.clone()).unwrap();
        let mut rounds = 0;
        loop {
            match lazy.search(q, &SearchOptions::default()).unwrap() {
                LazyOutcome::Done(_) => return rounds,
                LazyOutcome::Need(need) => {
                    rounds += 1;
                    assert!(rounds <= 16, "no result after 16 rounds for {q:?}");
                    for i in need {
                        lazy.add_block(i, set.blocks[i as usize].clone()).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn a_first_search_takes_one_round_per_stage() {
        let packed = crate::build_packed_index(&docs(2000)).unwrap();
        // Small blocks spread every file over many, as a large book's are.
        let set = crate::blocks::split_packed_sized(&packed, 1024, 1024).unwrap();
        // Dictionaries, postings and positions, stored documents: typo and prefix walks,
        // positions and the fields' dictionaries and postings headers are planned with the
        // stage that needs them.
        for q in [
            "why does the chekpoint timout when the kafka sink writes parqet",
            "Caused by: kafkaException: offset commit code17",
            "rocksdb backpress",
            "alias2 watermark timeout",
            "\"body text number17\" watermark",
        ] {
            let rounds = cold_rounds(&set, q);
            assert!(rounds <= 3, "{rounds} rounds for {q:?}");
        }
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
/// --lib lazy::measure -- --ignored --nocapture` (queries from `KBOOK_QUERIES`, one a line).
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
        // Plain lines, or JSON lines with a "q" (the eval format).
        let texts: Vec<String> = queries
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| match serde_json::from_str::<serde_json::Value>(l) {
                Ok(v) => v["q"].as_str().unwrap_or(l).to_string(),
                Err(_) => l.to_string(),
            })
            .collect();
        let mut total = std::time::Duration::ZERO;
        let mut times = Vec::new();
        for q in &texts {
            let q = q.as_str();
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
            let elapsed = t.elapsed();
            total += elapsed;
            // Time of the same search with every block it needs loaded (a repeated query).
            let t2 = std::time::Instant::now();
            let _ = lazy.search(q, &SearchOptions::default()).unwrap();
            let again = t2.elapsed();
            times.push((elapsed, again));
            eprintln!(
                "{rounds} rounds, {n} blocks, {bytes} B, {elapsed:?} (loaded: {again:?}): {}",
                q.chars().take(60).collect::<String>().replace('\n', " ")
            );
        }
        let mut lazy_t: Vec<_> = times.iter().map(|t| t.0).collect();
        let mut loaded_t: Vec<_> = times.iter().map(|t| t.1).collect();
        lazy_t.sort();
        loaded_t.sort();
        let p = |v: &[std::time::Duration], q: f64| v[((v.len() - 1) as f64 * q) as usize];
        eprintln!(
            "{} queries, {total:?} in all; with fetch rounds p50/p95 {:?}/{:?}, loaded p50/p95 {:?}/{:?}",
            texts.len(),
            p(&lazy_t, 0.5),
            p(&lazy_t, 0.95),
            p(&loaded_t, 0.5),
            p(&loaded_t, 0.95)
        );
    }
}

/// Bytes per search for several block sizes, on a built site's packed index:
/// `KBOOK_SITE=<site dir> KBOOK_QUERIES=<file.jsonl> cargo test --release -p kbook-search
/// --lib lazy::block_sizes -- --ignored --nocapture`. Each size replays the queries in one
/// session (the first search, then the others with what earlier ones loaded), as a reader's
/// browser does, and tells which files the bytes come from.
#[cfg(test)]
mod block_sizes {
    use super::*;
    use crate::blocks::split_packed_sized;
    use std::collections::BTreeMap;

    #[test]
    #[ignore = "measurement on a built site"]
    fn block_sizes() {
        let (Some(site), Some(queries)) = (
            std::env::var_os("KBOOK_SITE"),
            std::env::var_os("KBOOK_QUERIES"),
        ) else {
            return;
        };
        let search = std::path::Path::new(&site).join("search");
        let packed_path = std::fs::read_dir(&search)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                let n = p.file_name().unwrap().to_string_lossy().to_string();
                n.starts_with("index.") && n.ends_with(".bin")
            })
            .unwrap();
        let packed = std::fs::read(packed_path).unwrap();
        let files = crate::pack::unpack(&packed).unwrap();
        let table_end = packed.len() - files.iter().map(|(_, d)| d.len()).sum::<usize>();
        let table = crate::pack::unpack_table(&packed[..table_end], packed.len()).unwrap();
        let kind_of = |offset: usize| -> String {
            table
                .iter()
                .find(|(_, r)| r.contains(&offset))
                .map_or("table".into(), |(n, _)| {
                    n.rsplit('.').next().unwrap_or("").to_string()
                })
        };
        let queries: Vec<String> = std::fs::read_to_string(queries)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l)
                    .ok()
                    .and_then(|v| v["q"].as_str().map(str::to_string))
                    .unwrap_or_else(|| l.to_string())
            })
            .collect();
        let sizes: Vec<(usize, usize)> = std::env::var("KBOOK_BLOCK_SIZES")
            .unwrap_or_else(|_| "32768:4096,16384:4096,8192:4096,4096:4096,8192:2048".into())
            .split(',')
            .map(|p| {
                let (a, b) = p.split_once(':').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        for (block, store_block) in sizes {
            let set = split_packed_sized(&packed, block, store_block).unwrap();
            // Offsets of each block, to tell which file its bytes belong to.
            let mut starts = Vec::with_capacity(set.blocks.len());
            let mut at = 0;
            for b in &set.blocks {
                starts.push(at);
                at += b.len();
            }
            let lazy = LazyIndex::open(set.head.clone()).unwrap();
            let mut opts = SearchOptions::default();
            if let Some(b) = std::env::var("KBOOK_PAIR_BUDGET")
                .ok()
                .and_then(|b| b.parse().ok())
            {
                opts.tuning.pair_positions_budget = b;
            }
            let mut per_query = Vec::new();
            let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
            let mut requests = Vec::new();
            for q in &queries {
                let (mut bytes, mut n) = (0, 0);
                for _ in 0..16 {
                    match lazy.search(q, &opts).unwrap() {
                        LazyOutcome::Done(_) => break,
                        LazyOutcome::Need(need) => {
                            for i in need {
                                let b = &set.blocks[i as usize];
                                bytes += b.len();
                                n += 1;
                                *by_kind.entry(kind_of(starts[i as usize])).or_default() += b.len();
                                lazy.add_block(i, b.clone()).unwrap();
                            }
                        }
                    }
                }
                per_query.push(bytes);
                requests.push(n);
            }
            let later = &per_query[1.min(per_query.len())..];
            let mut sorted = later.to_vec();
            sorted.sort_unstable();
            let p95 = sorted
                .get((sorted.len() as f64 * 0.95) as usize)
                .or(sorted.last())
                .copied()
                .unwrap_or(0);
            eprintln!(
                "block {block} / store {store_block}: head {} B, {} blocks; first search {} B ({} requests); later: mean {} B, p95 {} B, max {} B, mean {:.1} requests; total {} B by file kind {:?}",
                set.head.len(),
                set.blocks.len(),
                per_query.first().unwrap_or(&0),
                requests.first().unwrap_or(&0),
                later.iter().sum::<usize>() / later.len().max(1),
                p95,
                later.iter().max().unwrap_or(&0),
                requests[1.min(requests.len())..].iter().sum::<usize>() as f64
                    / later.len().max(1) as f64,
                per_query.iter().sum::<usize>(),
                by_kind
            );
        }
    }
}
