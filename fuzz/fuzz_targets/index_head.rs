//! The lazily loaded index (`LazyIndex`): a head and blocks as the browser receives them. The
//! first byte picks what is damaged:
//! - 0 mod 4: the input is a head (seeded with real heads): opening must give an error or an
//!   index that answers searches, fed with the real blocks, without panicking;
//! - 2 mod 4: the real head with the input's patches applied (`u16` offset, byte value pairs),
//!   so mutations land inside a head that otherwise matches its blocks;
//! - odd: the real head opens, then the input supplies one block (`u16` index, then bytes)
//!   before a search that asks for blocks: a wrong block must be refused (checksums), never
//!   used or panicked on.
#![no_main]

use kbook_search::blocks::{BlockSet, split_packed};
use kbook_search::{LazyIndex, LazyOutcome, SearchOptions};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn blocks() -> &'static BlockSet {
    static B: OnceLock<BlockSet> = OnceLock::new();
    B.get_or_init(|| {
        let docs: Vec<kbook_search::EntryDoc> = (0..40)
            .map(|i| kbook_search::EntryDoc {
                id: format!("entry-{i}"),
                url: format!("kafka/entry-{i}.html"),
                title: format!("Committing offsets fails {i}"),
                connector: if i % 2 == 0 { "kafka" } else { "mysql" }.into(),
                kind: "error".into(),
                errors: vec![format!(
                    "CommitFailedException: Commit cannot be completed (group {i})"
                )],
                body: "The consumer group rebalanced while the batch was processed. ".repeat(20),
                ..Default::default()
            })
            .collect();
        let packed = kbook_search::build_packed_index(&docs).expect("fixed index builds");
        split_packed(&packed).expect("fixed index splits")
    })
}

/// Runs a search to the end, feeding requested blocks from the real set (bounded rounds).
fn search(index: &LazyIndex, q: &str, set: &BlockSet) {
    let opts = SearchOptions {
        limit: 10,
        ..Default::default()
    };
    for _ in 0..8 {
        match index.search(q, &opts) {
            Ok(LazyOutcome::Need(need)) => {
                for i in need {
                    if let Some(b) = set.blocks.get(i as usize) {
                        let _ = index.add_block(i, b.clone());
                    }
                }
            }
            Ok(LazyOutcome::Done(_)) | Err(_) => return,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let set = blocks();
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        let head = if mode & 2 == 0 {
            rest.to_vec()
        } else {
            let mut head = set.head.clone();
            for p in rest.chunks_exact(3) {
                let at = usize::from(u16::from_le_bytes([p[0], p[1]]));
                if let Some(b) = head.get_mut(at) {
                    *b = p[2];
                }
            }
            head
        };
        if let Ok(index) = LazyIndex::open(head) {
            search(&index, "CommitFailedException commit offsets", set);
        }
        return;
    }
    let Ok(index) = LazyIndex::open(set.head.clone()) else {
        panic!("the real head must open");
    };
    if rest.len() >= 2 {
        let i = u32::from(u16::from_le_bytes([rest[0], rest[1]]));
        let _ = index.add_block(i, rest[2..].to_vec());
    }
    search(&index, "consumer group rebalanced", set);
});
