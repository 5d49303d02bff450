//! Memoised English stemming for the prose analyzer.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Memoised English stems of lowercase ASCII words. Prose repeats words, and snowball stemming
/// costs far more than a hash lookup. Bounded: cleared when full, so memory stays small.
#[derive(Default)]
pub(super) struct StemCache {
    /// Word → its stem, `None` when the stem is the word itself.
    map: HashMap<Box<str>, Option<Box<str>>, BuildHasherDefault<WordHasher>>,
}

/// Entries kept before the cache is cleared (a few MB at most per thread).
pub(super) const STEM_CACHE_ENTRIES: usize = 1 << 15;
/// Longer words are stemmed without caching (rare, and they would bloat the cache).
pub(super) const STEM_CACHE_WORD_BYTES: usize = 48;

thread_local! {
    pub(super) static STEMS: Cell<StemCache> = Cell::new(StemCache::default());
}

impl StemCache {
    /// Calls `f` with the prose form of lowercase `word`: stemmed if it is plain ASCII letters.
    pub(super) fn with_stem(&mut self, word: &str, f: impl FnOnce(&str)) {
        if !word.bytes().all(|b| b.is_ascii_alphabetic()) {
            f(word);
            return;
        }
        if word.len() > STEM_CACHE_WORD_BYTES {
            f(&frostem::Stemmer::new(frostem::Algorithm::English).stem(word));
            return;
        }
        if let Some(stem) = self.map.get(word) {
            f(stem.as_deref().unwrap_or(word));
            return;
        }
        let stem = frostem::Stemmer::new(frostem::Algorithm::English).stem(word);
        f(&stem);
        if self.map.len() >= STEM_CACHE_ENTRIES {
            self.map.clear();
        }
        let stem = (stem != word).then(|| Box::from(&*stem));
        self.map.insert(Box::from(word), stem);
    }
}

/// FxHash-style hasher for the stem cache: short keys, no untrusted adversary (the author's own
/// content and queries), and SipHash would cost about as much as the lookups save. Hand-written
/// to keep the crate's dependencies (and the wasm module) unchanged.
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let tail = rest
            .iter()
            .rev()
            .fold(rest.len() as u64, |acc, &b| (acc << 8) | u64::from(b));
        self.add(tail);
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn finish(&self) -> u64 {
        // hashbrown takes the bucket from the low bits and the tag from the top 7: mix both.
        self.0.rotate_left(26)
    }
}
