//! The hashes of the index formats: checksums of packed bytes, heads and blocks, and the
//! content-derived names of segments.

/// A 64-bit multiply–xorshift hash over 8-byte words, with FNV-1a's offset basis and prime.
/// Not FNV-1a itself (which is byte-at-a-time, and took a tenth of a second per 30 MB, in the
/// browser too), so its values differ from FNV-1a's.
pub(crate) fn word_hash64(data: &[u8]) -> u64 {
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

/// A 128-bit content hash naming a segment: two differently seeded combinations of the
/// chunks' [`word_hash64`], each chunk's length mixed in so ("ab","c") and ("a","bc") differ.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn word_hash128(chunks: &[&[u8]]) -> u128 {
    let mut lo: u64 = 0x6c62_272e_07bb_0142;
    let mut hi: u64 = 0x62b8_2175_6295_c58d;
    for c in chunks {
        let h = word_hash64(c);
        lo = (lo ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23);
        hi = (hi ^ h.rotate_left(17))
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            .rotate_left(31);
        lo ^= c.len() as u64;
    }
    (u128::from(hi) << 64) | u128::from(lo)
}
