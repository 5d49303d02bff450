//! Hashes of content: 64-bit fingerprints that decide what a rebuild can reuse, and short
//! SHA-256 hex digests that name and version files in the output.

use sha2::{Digest, Sha256};

/// A 64-bit fingerprint of a value, for deciding what a rebuild can reuse.
pub fn fingerprint<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    let mut h = kbook_search::ContentHasher::default();
    value.hash(&mut h);
    std::hash::Hasher::finish(&h)
}

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The first 8 bytes of the SHA-256 of `bytes` in hex: the content hash in output file names
/// (`search/index.<hash>.bin`).
pub fn short_hash(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes)[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_hash_is_16_hex_digits_of_sha256() {
        // SHA-256("abc") = ba7816bf8f01cfea…
        assert_eq!(short_hash(b"abc"), "ba7816bf8f01cfea");
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }
}
