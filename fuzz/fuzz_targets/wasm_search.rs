//! The browser module's C ABI, called natively: `alloc`, `open_index`, `search`, `result_len`, `free_result`, `dealloc`. The module source is compiled into this
//! target (it is a cdylib, so it cannot be a dependency). Input: a flags byte, then the query
//! and the options JSON separated by the first 0xFF byte. Every response must be JSON.
#![no_main]

#[allow(dead_code, clippy::all)]
#[path = "../../crates/search-wasm/src/lib.rs"]
mod abi;

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn packed() -> &'static [u8] {
    static P: OnceLock<Vec<u8>> = OnceLock::new();
    P.get_or_init(|| {
        let doc = kbook_search::EntryDoc {
            id: "kafka-offsets".into(),
            url: "kafka/kafka-offsets.html".into(),
            title: "Committing offsets fails".into(),
            connector: "kafka".into(),
            kind: "error".into(),
            errors: vec!["CommitFailedException: Commit cannot be completed".into()],
            body: "The consumer group rebalanced.".into(),
            ..Default::default()
        };
        kbook_search::build_packed_index(&[doc]).expect("fixed index builds")
    })
}

fn take_response(ptr: *mut u8) -> serde_json::Value {
    assert!(!ptr.is_null());
    // SAFETY: a live response from the module.
    let text = unsafe {
        let len = abi::result_len(ptr);
        let s = std::slice::from_raw_parts(ptr.add(4), len).to_vec();
        abi::free_result(ptr);
        s
    };
    serde_json::from_slice(&text).expect("every response is JSON")
}

/// `open_index` over a copy of `bytes`: its response.
fn open(bytes: &[u8]) -> serde_json::Value {
    let ptr = abi::alloc(bytes.len());
    if bytes.is_empty() {
        // SAFETY: a zero-length buffer.
        return take_response(unsafe { abi::open_index(ptr, 0) });
    }
    assert!(!ptr.is_null());
    // SAFETY: `ptr` has room for the bytes and came from alloc(len).
    take_response(unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
        abi::open_index(ptr, bytes.len())
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let (query, opts) = match rest.iter().position(|&b| b == 0xFF) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    match flags % 4 {
        // A good index.
        0 | 1 => assert_eq!(open(packed())["ok"], true),
        // The query bytes as an index (garbage, truncated, empty).
        2 => {
            let e = open(query);
            if e["ok"] != true {
                assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
            }
        }
        // A truncated good index.
        _ => {
            let p = packed();
            let cut = usize::from(flags >> 2) * p.len() / 64;
            assert!(open(&p[..cut.min(p.len() - 1)])["error"].is_string());
        }
    }
    // Host-owned query and options buffers, as search.js passes them.
    let q = abi::alloc(query.len());
    let o = abi::alloc(opts.len());
    // SAFETY: both buffers have room for the bytes copied into them.
    let response = unsafe {
        if !query.is_empty() {
            std::ptr::copy_nonoverlapping(query.as_ptr(), q, query.len());
        }
        if !opts.is_empty() {
            std::ptr::copy_nonoverlapping(opts.as_ptr(), o, opts.len());
        }
        let r = abi::search(q, query.len(), o, opts.len());
        abi::dealloc(q, query.len());
        abi::dealloc(o, opts.len());
        r
    };
    let v = take_response(response);
    assert!(v.get("hits").is_some() || v.get("error").is_some(), "{v}");
});
