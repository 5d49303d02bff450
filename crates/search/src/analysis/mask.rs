//! Signature masks: which chunks and parts are variable values (numbers, hex ids, IPs, UUIDs,
//! paths) that the signature analyzer replaces with placeholder tokens.

use super::MAX_PART_CHARS;

fn is_hexlike(s: &str) -> bool {
    s.len() >= 8
        && s.bytes().all(|b| b.is_ascii_hexdigit())
        && s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes().any(|b| b.is_ascii_alphabetic())
}

fn is_number(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && s.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// `8-4-4-4-12` hex groups.
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(k, b)| {
            if matches!(k, 8 | 13 | 18 | 23) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        })
}

/// An IPv4 address, with or without its port (`10.0.0.1`, `10.0.0.1:9092`).
pub(crate) fn is_ip(s: &str) -> bool {
    // The first octet starts the text: most chunks are words and stop here.
    if !s.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let host = match s.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => s,
    };
    let mut octets = 0usize;
    for o in host.split('.') {
        octets += 1;
        if octets > 4 || o.is_empty() || o.len() > 3 || !o.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    octets == 4
}

fn is_path(s: &str) -> bool {
    // Two or more slashes; this also covers `://`.
    s.starts_with('/')
        || s.starts_with('\\')
        || s.bytes().filter(|&b| b == b'/').count() >= 2
        || (s.len() > 2
            && s.as_bytes()[1] == b':'
            && s.as_bytes()[0].is_ascii_alphabetic()
            && s.as_bytes()[2] == b'\\')
}

/// The whole-chunk mask in the signature field, if the chunk is a variable value.
pub(super) fn chunk_mask(s: &str) -> Option<&'static str> {
    if is_uuid(s) {
        Some("§uuid")
    } else if is_ip(s) {
        Some("§ip")
    } else if is_path(s) {
        Some("§path")
    } else if (s.starts_with("0x") || s.starts_with("0X"))
        && s.len() > 2
        && s[2..].bytes().all(|b| b.is_ascii_hexdigit())
    {
        Some("§hex")
    } else if is_number(s) {
        Some("§num")
    } else {
        None
    }
}

pub(super) fn part_mask(s: &str) -> Option<&'static str> {
    if s.bytes().all(|b| b.is_ascii_digit()) {
        Some("§num")
    } else if is_hexlike(s)
        // The byte length bounds the char count, so most parts skip counting.
        || (s.len() > MAX_PART_CHARS
            && s.chars().count() > MAX_PART_CHARS
            && s.bytes().any(|b| b.is_ascii_digit()))
    {
        Some("§hex")
    } else {
        None
    }
}
