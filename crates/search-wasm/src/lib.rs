//! kbook's browser search module: opens the packed index from bytes and answers searches.
//!
//! The ABI is plain C-style exports over linear memory, so `static/search.js` needs no
//! generated glue (no wasm-bindgen):
//!
//! - `alloc(len) -> ptr` / `dealloc(ptr, len)`: buffers the host writes into.
//! - `open_index(ptr, len) -> ptr`: takes ownership of an `alloc`ed buffer holding the
//!   packed index or the head of a block-split index; returns a *response*, `{"ok": true}`
//!   or `{"error": ...}`.
//! - `add_block(i, ptr, len) -> ptr`: takes ownership of an `alloc`ed buffer holding block
//!   `i` of a block-split index; returns a response, `{"ok": true}`, or `{"error": ...}` if
//!   the block is damaged or from another build.
//! - `abi_version() -> u32`: the version of this ABI, which search.js checks (a module from
//!   another build, e.g. a stale cache, may export the same names with other meanings).
//! - Every call that returns a response returns 0 only when even that allocation failed.
//! - `search(qptr, qlen, optsptr, optslen) -> ptr`: the query (UTF-8) and the options (JSON,
//!   may be empty) in `alloc`ed buffers the host still owns; returns a *response*: the results,
//!   `{"need": [block indices]}` when blocks must be added first (then search again), or
//!   `{"error": ...}`.
//! - A response is `[u32 little-endian length][UTF-8 JSON]`; `result_len(ptr)` reads the
//!   length, the JSON starts at `ptr + 4`, and `free_result(ptr)` releases it.
//!
//! Nothing here panics on any input: every failure becomes `{"error": "..."}`. (With
//! `panic = "abort"` a panic would trap and kill the instance; search.js re-instantiates in
//! that case, but it should never be needed.)
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use kbook_search::version::parse_product_version;
use kbook_search::{LazyIndex, LazyOutcome, SearchOptions};
use serde::Deserialize;
use std::cell::RefCell;
use std::mem::MaybeUninit;

/// Bytes of the length prefix of a response.
const PREFIX: usize = 4;
/// Upper bound on hits per search: the UI shows a handful, and it bounds the work per call.
const MAX_LIMIT: usize = 100;

thread_local! {
    // The module's one open index, which every call after `open_index` reads: the state of
    // the instance, as a C ABI keeps it. wasm32-unknown-unknown is single-threaded;
    // thread_local gives a safe global. Failures are returned, never kept for a later call.
    static INDEX: RefCell<Option<LazyIndex>> = const { RefCell::new(None) };
}

/// Options as search.js sends them. Unknown keys are ignored so the page and the module can
/// evolve separately; empty strings mean "no filter".
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct JsOptions {
    limit: Option<usize>,
    connector: Option<String>,
    kind: Option<String>,
    /// `product=version`, e.g. `vvr=8.0.7`.
    version: Option<String>,
    explain: bool,
}

/// The version of this ABI: 2 since `open_index` and `add_block` return responses. search.js
/// refuses a module of another version.
#[unsafe(no_mangle)]
pub extern "C" fn abi_version() -> u32 {
    2
}

/// Allocates `len` bytes for the host to fill. Returns 0 when the memory cannot be had
/// (instead of aborting), so the host can report it.
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buf: Vec<MaybeUninit<u8>> = Vec::new();
    if buf.try_reserve_exact(len).is_err() {
        return std::ptr::null_mut();
    }
    // SAFETY: the capacity is at least `len`, and `MaybeUninit` needs no initialisation.
    unsafe { buf.set_len(len) };
    // A boxed slice holds exactly `len` bytes (a Vec may have more capacity than asked
    // for), so `dealloc`, `open_index` and `add_block` can rebuild it from `(ptr, len)`.
    Box::into_raw(buf.into_boxed_slice()).cast::<u8>()
}

/// Takes back a buffer from `alloc(len)` that the host filled.
///
/// # Safety
/// `ptr` must come from `alloc(len)`, have all `len` bytes written, and not be used again.
unsafe fn take_filled(ptr: *mut u8, len: usize) -> Vec<u8> {
    if ptr.is_null() || len == 0 {
        return Vec::new();
    }
    // SAFETY: per the contract, the `Box<[u8]>` that `alloc` made, initialised.
    unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) }.into_vec()
}

/// Frees a buffer returned by `alloc(len)` that was not handed to `open_index`.
///
/// # Safety
/// `ptr` must come from `alloc(len)` with the same `len`, and not be freed twice.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    if ptr.is_null() || len == 0 {
        return;
    }
    // SAFETY: per the contract, the boxed slice of `len` bytes `alloc` made (perhaps unwritten).
    drop(unsafe {
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr.cast::<MaybeUninit<u8>>(),
            len,
        ))
    });
}

/// Opens the packed index in `ptr[..len]`, taking ownership of the buffer (the host must
/// not free it). Replaces any index opened before (none stays open after a failure).
/// Returns a response: `{"ok": true}` or `{"error": ...}`; 0 only if even that allocation
/// failed.
///
/// # Safety
/// `ptr` must come from `alloc(len)` and be filled with `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn open_index(ptr: *mut u8, len: usize) -> *mut u8 {
    // SAFETY: per the contract.
    let bytes = unsafe { take_filled(ptr, len) };
    match LazyIndex::open(bytes) {
        Ok(index) => {
            INDEX.with(|slot| *slot.borrow_mut() = Some(index));
            respond(OK_JSON)
        }
        Err(err) => {
            INDEX.with(|slot| *slot.borrow_mut() = None);
            respond(&error_json(&err.to_string()))
        }
    }
}

/// Adds block `i` of a block-split index from `ptr[..len]`, taking ownership of the buffer.
/// Returns a response: `{"ok": true}`, or `{"error": ...}` (the index stays usable); 0
/// only if even that allocation failed.
///
/// # Safety
/// `ptr` must come from `alloc(len)` and be filled with `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn add_block(i: u32, ptr: *mut u8, len: usize) -> *mut u8 {
    // SAFETY: per the contract.
    let bytes = unsafe { take_filled(ptr, len) };
    let result = INDEX.with(|slot| match slot.try_borrow() {
        Ok(guard) => match guard.as_ref() {
            Some(index) => index.add_block(i, bytes).map_err(|e| e.to_string()),
            None => Err("no index is open".to_string()),
        },
        Err(_) => Err("the index is busy".to_string()),
    });
    match result {
        Ok(()) => respond(OK_JSON),
        Err(message) => respond(&error_json(&message)),
    }
}

/// Searches the open index. `q` is UTF-8 text (invalid sequences are replaced), `opts` is
/// JSON (`{limit, connector, kind, version, explain}`, all optional) or empty. The host
/// keeps ownership of both buffers. Returns a response; 0 only if even that allocation failed.
///
/// # Safety
/// Each (ptr, len) pair must be readable for `len` bytes (or have `len` 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn search(
    qptr: *const u8,
    qlen: usize,
    optsptr: *const u8,
    optslen: usize,
) -> *mut u8 {
    // SAFETY: per the contract.
    let query = unsafe { host_bytes(qptr, qlen) };
    // SAFETY: per the contract.
    let opts = unsafe { host_bytes(optsptr, optslen) };
    respond(&run_search(query, opts))
}

/// The byte length of the JSON in a response.
///
/// # Safety
/// `ptr` must be a live response from this module.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn result_len(ptr: *const u8) -> usize {
    if ptr.is_null() {
        return 0;
    }
    let mut prefix = [0u8; PREFIX];
    // SAFETY: a response starts with PREFIX readable bytes.
    unsafe { std::ptr::copy_nonoverlapping(ptr, prefix.as_mut_ptr(), PREFIX) };
    u32::from_le_bytes(prefix) as usize
}

/// Frees a response.
///
/// # Safety
/// `ptr` must be a live response from this module, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn free_result(ptr: *mut u8) {
    if ptr.is_null() {
        return;
    }
    // SAFETY: per the contract; `respond` allocated exactly PREFIX + len bytes.
    unsafe {
        let len = result_len(ptr) + PREFIX;
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)));
    }
}

/// Borrows a host buffer; a null pointer or zero length is the empty slice.
///
/// # Safety
/// `ptr` must be readable for `len` bytes when non-null.
unsafe fn host_bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: per the contract.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

/// Runs one search and renders the JSON answer (results or `{"error"}`).
fn run_search(query: &[u8], opts: &[u8]) -> String {
    let options = match parse_options(opts) {
        Ok(o) => o,
        Err(message) => return error_json(&message),
    };
    let query = String::from_utf8_lossy(query);
    INDEX.with(|slot| match slot.try_borrow() {
        Ok(guard) => match guard.as_ref() {
            Some(index) => match index.search(&query, &options) {
                Ok(LazyOutcome::Done(results)) => {
                    serde_json::to_string(&results).unwrap_or_else(|e| error_json(&e.to_string()))
                }
                Ok(LazyOutcome::Need(blocks)) => serde_json::json!({ "need": blocks }).to_string(),
                Err(e) => error_json(&e.to_string()),
            },
            None => error_json("no index is open"),
        },
        // Only reachable through re-entrancy, which this single-threaded module never does.
        Err(_) => error_json("the index is busy"),
    })
}

/// Turns the page's JSON options into [`SearchOptions`].
fn parse_options(opts: &[u8]) -> Result<SearchOptions, String> {
    let js: JsOptions = if opts.iter().all(u8::is_ascii_whitespace) {
        JsOptions::default()
    } else {
        serde_json::from_slice(opts).map_err(|e| format!("bad search options: {e}"))?
    };
    let non_empty = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let version = match non_empty(js.version) {
        Some(text) => {
            Some(parse_product_version(&text).map_err(|e| format!("bad version filter: {e}"))?)
        }
        None => None,
    };
    Ok(SearchOptions {
        limit: js.limit.unwrap_or(0).min(MAX_LIMIT),
        connector: non_empty(js.connector),
        kind: non_empty(js.kind),
        version,
        explain: js.explain,
        ..SearchOptions::default()
    })
}

/// The response of an `open_index` or `add_block` that worked.
const OK_JSON: &str = r#"{"ok":true}"#;

/// `{"error": message}`.
fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// Copies `json` into a new response buffer; null if memory ran out (the host reports it).
fn respond(json: &str) -> *mut u8 {
    let Ok(len) = u32::try_from(json.len()) else {
        return respond(&error_json("response too large"));
    };
    let mut buf: Vec<u8> = Vec::new();
    if buf.try_reserve_exact(PREFIX + json.len()).is_err() {
        return std::ptr::null_mut();
    }
    buf.extend_from_slice(&len.to_le_bytes());
    buf.extend_from_slice(json.as_bytes());
    Box::into_raw(buf.into_boxed_slice()).cast::<u8>()
}

/// The getrandom backend for wasm32 (`--cfg getrandom_backend="custom"`, set by the build
/// script). getrandom 0.3 and 0.4 both call this symbol. The reader draws no randomness
/// (only index writing names segments with UUIDs), so a fixed-seed xorshift is enough and
/// can never fail.
#[cfg(target_arch = "wasm32")]
mod entropy {
    use std::cell::Cell;

    thread_local! {
        static STATE: Cell<u64> = const { Cell::new(0x9E37_79B9_7F4A_7C15) };
    }

    /// # Safety
    /// `dest` must be writable for `len` bytes (getrandom guarantees it).
    #[unsafe(no_mangle)]
    unsafe extern "Rust" fn __getrandom_v03_custom(
        dest: *mut u8,
        len: usize,
    ) -> Result<(), getrandom::Error> {
        STATE.with(|state| {
            let mut s = state.get();
            for i in 0..len {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                // SAFETY: per the contract, i < len.
                unsafe { dest.add(i).write(s as u8) };
            }
            state.set(s);
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response_json(ptr: *mut u8) -> serde_json::Value {
        assert!(!ptr.is_null());
        // SAFETY: a live response from `respond`.
        let text = unsafe {
            let len = result_len(ptr);
            let s = std::str::from_utf8(std::slice::from_raw_parts(ptr.add(PREFIX), len))
                .unwrap()
                .to_string();
            free_result(ptr);
            s
        };
        serde_json::from_str(&text).unwrap()
    }

    fn search_str(q: &str, opts: &str) -> serde_json::Value {
        // SAFETY: valid slices.
        response_json(unsafe { search(q.as_ptr(), q.len(), opts.as_ptr(), opts.len()) })
    }

    #[test]
    fn garbage_index_is_an_error_not_a_panic() {
        for bytes in [
            Vec::new(),
            vec![0u8; 3],
            b"KBOOKIDX garbage garbage garbage".to_vec(),
            vec![0xff; 4096],
        ] {
            let len = bytes.len();
            let ptr = alloc(len);
            // SAFETY: `ptr` has room for `len` bytes.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, len) };
            // SAFETY: `ptr` came from alloc(len).
            let err = response_json(unsafe { open_index(ptr, len) });
            assert!(
                err["error"].as_str().is_some_and(|m| !m.is_empty()),
                "{err}"
            );
        }
        assert_eq!(search_str("kafka", "")["error"], "no index is open");
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(parse_options(b"{").is_err());
        assert!(parse_options(br#"{"version":"nonsense"}"#).is_err());
        let ok =
            parse_options(br#"{"limit":5000,"connector":" ","kind":"error","unknown":1}"#).unwrap();
        assert_eq!(ok.limit, MAX_LIMIT);
        assert_eq!(ok.connector, None);
        assert_eq!(ok.kind.as_deref(), Some("error"));
        assert_eq!(parse_options(b"  ").unwrap().limit, 0);
    }

    fn entry(
        id: &str,
        connector: &str,
        title: &str,
        error: &str,
        body: &str,
    ) -> kbook_search::EntryDoc {
        kbook_search::EntryDoc {
            id: id.into(),
            url: format!("{connector}/{id}.html"),
            title: title.into(),
            connector: connector.into(),
            kind: "error".into(),
            errors: vec![error.into()],
            body: body.into(),
            ..Default::default()
        }
    }

    /// `open_index` over a copy of `bytes`: its response.
    fn open_packed(bytes: &[u8]) -> serde_json::Value {
        let ptr = alloc(bytes.len());
        // SAFETY: `ptr` has room for the bytes, and came from alloc(len).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
            response_json(open_index(ptr, bytes.len()))
        }
    }

    /// The ABI's plumbing (memory in and out, options, the JSON of results) gives what the
    /// library gives. Run on the host, so it does not show that the wasm32 build ranks alike:
    /// the browser parity test compares that through Chromium.
    #[test]
    fn abi_matches_the_library() {
        let docs = vec![
            entry(
                "kafka-offsets",
                "kafka",
                "Committing offsets fails",
                "CommitFailedException: Commit cannot be completed",
                "The consumer group rebalanced.",
            ),
            entry(
                "jdbc-batch",
                "jdbc",
                "Batch insert fails on duplicate key",
                "java.sql.BatchUpdateException: Duplicate entry",
                "A primary key conflict in the sink table.",
            ),
            entry(
                "upsert-pk",
                "upsert-kafka",
                "upsert-kafka needs a primary key",
                "'upsert-kafka' tables require to define a PRIMARY KEY constraint",
                "Declare the key in DDL.",
            ),
        ];
        let packed = kbook_search::build_packed_index(&docs).unwrap();
        assert_eq!(open_packed(&packed)["ok"], true);
        let native = kbook_search::BookIndex::open(packed).unwrap();
        for q in [
            "BatchUpdateException Duplicate entry",
            "Caused by: org.apache.kafka.clients.consumer.CommitFailedException",
            "[4019] \"unbalanced",
            "",
            "PRIMARY KEY",
        ] {
            let via_abi = search_str(q, r#"{"limit":5}"#);
            let direct = native
                .search(
                    q,
                    &SearchOptions {
                        limit: 5,
                        ..Default::default()
                    },
                )
                .unwrap();
            let ids: Vec<&str> = via_abi["hits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["id"].as_str().unwrap())
                .collect();
            let want: Vec<&str> = direct.hits.iter().map(|h| h.id.as_str()).collect();
            assert_eq!(ids, want, "query {q:?}");
        }
        assert_eq!(
            search_str("BatchUpdateException", "")["hits"][0]["id"],
            "jdbc-batch"
        );
        let filtered = search_str("fails", r#"{"connector":"kafka"}"#);
        assert!(
            filtered["hits"]
                .as_array()
                .unwrap()
                .iter()
                .all(|h| h["connector"] == "kafka"),
            "{filtered}"
        );
        let hostile = "x".repeat(1 << 20) + "\u{0}\u{7f}[a TO b] title:foo \"";
        assert!(search_str(&hostile, "")["hits"].is_array());
    }

    /// `add_block` over a copy of `bytes`: its response.
    fn add(i: u32, bytes: &[u8]) -> serde_json::Value {
        let ptr = alloc(bytes.len());
        // SAFETY: `ptr` has room for the bytes, and came from alloc(len).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
            response_json(add_block(i, ptr, bytes.len()))
        }
    }

    /// A block-split index: the module asks for blocks, damaged ones are refused, and the
    /// answers equal the library's.
    #[test]
    fn block_split_index_asks_for_blocks() {
        let docs: Vec<_> = (0..400)
            .map(|i| {
                entry(
                    &format!("e{i}"),
                    ["kafka", "jdbc", "hologres"][i % 3],
                    &format!("Entry {i} about offsets and batches"),
                    &format!("java.sql.BatchUpdateException: code {i} Duplicate entry"),
                    &"The consumer group rebalanced and the sink retried. ".repeat(30),
                )
            })
            .collect();
        let packed = kbook_search::build_packed_index(&docs).unwrap();
        let set = kbook_search::blocks::split_packed(&packed).unwrap();
        assert_eq!(open_packed(&set.head)["ok"], true);
        let native = kbook_search::BookIndex::open(packed).unwrap();
        let q = "BatchUpdateException code 17";
        let mut rounds = 0;
        let hits = loop {
            let r = search_str(q, r#"{"limit":5}"#);
            if let Some(need) = r["need"].as_array() {
                rounds += 1;
                assert!(rounds < 10, "{r}");
                for i in need {
                    let i = i.as_u64().unwrap() as usize;
                    let mut bad = set.blocks[i].clone();
                    bad[0] ^= 1;
                    assert!(add(i as u32, &bad)["error"].is_string());
                    assert_eq!(add(i as u32, &set.blocks[i])["ok"], true);
                }
                continue;
            }
            break r["hits"].clone();
        };
        let want = native
            .search(
                q,
                &SearchOptions {
                    limit: 5,
                    ..Default::default()
                },
            )
            .unwrap();
        let ids: Vec<&str> = hits
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            ids,
            want.hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>()
        );
        assert!(rounds > 0);
    }

    #[test]
    fn alloc_and_dealloc_round_trip() {
        let ptr = alloc(16);
        assert!(!ptr.is_null());
        // SAFETY: from alloc(16).
        unsafe { dealloc(ptr, 16) };
        // SAFETY: zero length is a no-op.
        unsafe { dealloc(alloc(0), 0) };
    }
}
