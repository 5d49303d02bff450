//! Docker Compose's prefix before each line of a service's output (`kafka-manager_1  | …`),
//! read both where copying decoration is removed and where escaped lines are joined.

/// The service name before a line of Docker Compose (`kafka-manager_1  | …`: the name, spaces,
/// a bar) and the rest of the line.
pub(crate) fn after_service(line: &str) -> Option<(&str, &str)> {
    let (name, rest) = line.split_once(' ')?;
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    let rest = rest.trim_start_matches(' ').strip_prefix('|')?;
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    (valid && (rest.is_empty() || !rest.starts_with('|'))).then_some((name, rest))
}

/// Whether a service name ends with Compose's replica number (`_1`, `-1`).
pub(crate) fn ends_with_replica(name: &str) -> bool {
    name.rsplit_once(['_', '-'])
        .is_some_and(|(_, d)| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}
