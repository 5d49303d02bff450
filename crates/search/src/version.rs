//! Release versions and affected-version ranges.
//!
//! Entries say which releases a problem affects (`affected: ">=8.0.5, <8.0.9"`) and where it
//! was fixed (`fixed: "8.0.9"`). Product versions in this domain are not strict semver:
//! `vvr-6.0.7-flink-1.15`, `V2.0`, `4.x`, `0.10.2.0` all occur, so the model is a list of
//! numeric components plus an optional build suffix, compared numerically component by
//! component (missing components count as zero).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// Why a version or range could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// The text was empty.
    #[error("empty version")]
    Empty,
    /// A component was not a number.
    #[error(
        "`{0}` is not a version: expected numbers separated by dots, e.g. 8.0.9 or 6.0.7-flink-1.15"
    )]
    NotAVersion(String),
    /// A range clause did not parse.
    #[error(
        "`{0}` is not a version range: expected comparators such as `>=8.0.5, <8.0.9`, a version such as `8.0.7`, a wildcard such as `4.x`, or `*`"
    )]
    NotARange(String),
    /// A range that no version can satisfy, e.g. `>=9, <8`.
    #[error("the range `{0}` matches no version (its lower bound is above its upper bound)")]
    EmptyRange(String),
    /// A reader's version without its product (`8.0.7`, `=8.0.7`).
    #[error("`{0}` names no product: write PRODUCT=VERSION, e.g. vvr=8.0.7")]
    NoProduct(String),
}

/// One release version: numeric components plus an optional suffix such as `flink-1.15`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// Numeric components, most significant first.
    pub parts: Vec<u64>,
    /// Text after the first `-` (a build variant, e.g. `flink-1.15`), lowercased.
    pub suffix: String,
}

impl Version {
    /// Parses `8.0.9`, `v2.0`, `vvr-6.0.7-flink-1.15` (a leading product-like word is
    /// skipped), `0.10.2.0`.
    pub fn parse(text: &str) -> Result<Version, VersionError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(VersionError::Empty);
        }
        // Skip a leading alphabetic word such as `vvr-` or a `v` prefix.
        let start = t
            .find(|c: char| c.is_ascii_digit())
            .ok_or_else(|| VersionError::NotAVersion(t.to_string()))?;
        let prefix = &t[..start];
        if !prefix
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
        {
            return Err(VersionError::NotAVersion(t.to_string()));
        }
        let rest = &t[start..];
        let (nums, suffix) = match rest.find('-') {
            Some(i) => (&rest[..i], rest[i + 1..].to_ascii_lowercase()),
            None => (rest, String::new()),
        };
        let mut parts = Vec::new();
        for p in nums.split('.') {
            parts.push(
                p.parse::<u64>()
                    .map_err(|_| VersionError::NotAVersion(t.to_string()))?,
            );
        }
        Ok(Version { parts, suffix })
    }

    fn part(&self, i: usize) -> u64 {
        self.parts.get(i).copied().unwrap_or(0)
    }

    /// Numeric comparison; the suffix does not order versions.
    pub fn cmp_numeric(&self, other: &Version) -> Ordering {
        let n = self.parts.len().max(other.parts.len());
        (0..n)
            .map(|i| self.part(i).cmp(&other.part(i)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nums: Vec<String> = self.parts.iter().map(u64::to_string).collect();
        write!(f, "{}", nums.join("."))?;
        if !self.suffix.is_empty() {
            write!(f, "-{}", self.suffix)?;
        }
        Ok(())
    }
}

/// A comparison operator in a range clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `<`
    Lt,
    /// `=` or a bare version: equal (components present in the clause must match; a suffix in
    /// the clause must match too)
    Eq,
    /// `4.x`: every version whose leading components equal the given ones
    Prefix,
}

/// One clause of a range, such as `>=8.0.5`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparator {
    /// The operator.
    pub op: Op,
    /// The version it compares with.
    pub version: Version,
}

impl Comparator {
    /// Whether `v` satisfies this clause.
    pub fn matches(&self, v: &Version) -> bool {
        let ord = v.cmp_numeric(&self.version);
        match self.op {
            Op::Ge => ord.is_ge(),
            Op::Gt => ord.is_gt(),
            Op::Le => ord.is_le(),
            Op::Lt => ord.is_lt(),
            Op::Eq => {
                let n = self.version.parts.len();
                v.parts.iter().take(n).eq(self.version.parts.iter())
                    && v.parts.len() >= n
                    && (self.version.suffix.is_empty() || self.version.suffix == v.suffix)
            }
            Op::Prefix => {
                let n = self.version.parts.len();
                v.parts.len() >= n && v.parts[..n] == self.version.parts[..]
            }
        }
    }
}

/// A set of versions: the intersection of its clauses (`*` is the empty list: every version).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionRange {
    /// Clauses that must all hold.
    pub clauses: Vec<Comparator>,
}

impl VersionRange {
    /// Parses `>=8.0.5, <8.0.9`, `8.0.7`, `=6.0.7-flink-1.15`, `4.x`, `<=1.16`, `*`.
    pub fn parse(text: &str) -> Result<VersionRange, VersionError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(VersionError::Empty);
        }
        if t == "*" {
            return Ok(VersionRange {
                clauses: Vec::new(),
            });
        }
        let mut clauses = Vec::new();
        for raw in t.split(',') {
            let c = raw.trim();
            let bad = || VersionError::NotARange(t.to_string());
            let (op, rest) = if let Some(r) = c.strip_prefix(">=") {
                (Op::Ge, r)
            } else if let Some(r) = c.strip_prefix("<=") {
                (Op::Le, r)
            } else if let Some(r) = c.strip_prefix("==") {
                (Op::Eq, r)
            } else if let Some(r) = c.strip_prefix('>') {
                (Op::Gt, r)
            } else if let Some(r) = c.strip_prefix('<') {
                (Op::Lt, r)
            } else if let Some(r) = c.strip_prefix('=') {
                (Op::Eq, r)
            } else {
                (Op::Eq, c)
            };
            let rest = rest.trim();
            if let Some(head) = rest.strip_suffix(".x").or_else(|| rest.strip_suffix(".*")) {
                if op != Op::Eq {
                    return Err(bad());
                }
                let version = Version::parse(head).map_err(|_| bad())?;
                clauses.push(Comparator {
                    op: Op::Prefix,
                    version,
                });
                continue;
            }
            let version = Version::parse(rest).map_err(|_| bad())?;
            clauses.push(Comparator { op, version });
        }
        let range = VersionRange { clauses };
        if range.is_unsatisfiable() {
            return Err(VersionError::EmptyRange(t.to_string()));
        }
        Ok(range)
    }

    /// Whether `v` lies in the range.
    pub fn contains(&self, v: &Version) -> bool {
        self.clauses.iter().all(|c| c.matches(v))
    }

    fn is_unsatisfiable(&self) -> bool {
        let lower = self
            .clauses
            .iter()
            .filter(|c| matches!(c.op, Op::Ge | Op::Gt));
        let upper: Vec<&Comparator> = self
            .clauses
            .iter()
            .filter(|c| matches!(c.op, Op::Le | Op::Lt))
            .collect();
        for lo in lower {
            for hi in &upper {
                match lo.version.cmp_numeric(&hi.version) {
                    Ordering::Greater => return true,
                    Ordering::Equal if lo.op == Op::Gt || hi.op == Op::Lt => return true,
                    _ => {}
                }
            }
        }
        false
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.clauses.is_empty() {
            return write!(f, "*");
        }
        let parts: Vec<String> = self
            .clauses
            .iter()
            .map(|c| match c.op {
                Op::Ge => format!(">={}", c.version),
                Op::Gt => format!(">{}", c.version),
                Op::Le => format!("<={}", c.version),
                Op::Lt => format!("<{}", c.version),
                Op::Eq => format!("={}", c.version),
                Op::Prefix => format!("{}.x", c.version),
            })
            .collect();
        write!(f, "{}", parts.join(", "))
    }
}

/// How an entry relates to a reader's version of a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VersionMatch {
    /// The entry carries no version data for this product: it may apply.
    Unknown,
    /// The reader's version is less precise than the entry's bounds (`8` against `>=8.0.5`,
    /// a fix in `8.0.9`): it names releases on both sides, so the entry may apply.
    Vague,
    /// The reader's version lies in an affected range.
    Affected,
    /// The reader's version is at or after the fix.
    Fixed,
    /// The entry's ranges exclude the reader's version.
    NotAffected,
}

impl VersionMatch {
    /// Whether the entry may apply to the reader's version (affected, or nothing said).
    /// Entries that do not apply are still shown, after the others and marked.
    pub fn applies(self) -> bool {
        matches!(
            self,
            VersionMatch::Affected | VersionMatch::Unknown | VersionMatch::Vague
        )
    }
}

/// One entry's version statement for one product, as indexed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionSpec {
    /// Product slug, e.g. `vvr`, `flink`, `hologres`.
    pub product: String,
    /// Releases with the problem or behaviour; `None` when only `fixed` is known.
    pub affected: Option<VersionRange>,
    /// First release with the fix.
    pub fixed: Option<Version>,
}

/// Classifies an entry (by its version statements) against the reader's `product` at
/// `version`.
pub fn classify(specs: &[VersionSpec], product: &str, version: &Version) -> VersionMatch {
    let relevant: Vec<&VersionSpec> = specs
        .iter()
        .filter(|s| s.product.eq_ignore_ascii_case(product))
        .collect();
    if relevant.is_empty() {
        return VersionMatch::Unknown;
    }
    // A reader's version less precise than a bound it shares its parts with (`8.0` against
    // `>=8.0.5` or a fix in `8.0.9`) names releases on both sides: it may apply, and the
    // reader is told a fuller version would say. A bound that only adds zeros does not split
    // it where every release falls on one side: `>=8.0.0`, `<8.0.0`, a fix in `8.0.0`.
    let finer = |b: &Version, op: Option<Op>| {
        b.parts.len() > version.parts.len()
            && b.parts.starts_with(&version.parts)
            && !(b.parts[version.parts.len()..].iter().all(|&p| p == 0)
                && matches!(op, None | Some(Op::Ge) | Some(Op::Lt)))
    };
    if relevant.iter().any(|s| {
        s.fixed.as_ref().is_some_and(|f| finer(f, None))
            || s.affected
                .as_ref()
                .is_some_and(|r| r.clauses.iter().any(|c| finer(&c.version, Some(c.op))))
    }) {
        return VersionMatch::Vague;
    }
    if relevant
        .iter()
        .any(|s| s.affected.as_ref().is_some_and(|r| r.contains(version)))
    {
        return VersionMatch::Affected;
    }
    if relevant.iter().any(|s| {
        s.fixed
            .as_ref()
            .is_some_and(|f| version.cmp_numeric(f).is_ge())
    }) {
        return VersionMatch::Fixed;
    }
    if relevant.iter().all(|s| s.affected.is_none()) {
        // Only a fix version is known and the reader is below it: affected.
        return VersionMatch::Affected;
    }
    VersionMatch::NotAffected
}

/// The fix release worth showing beside a match: for an affected reader the first fix after
/// their version, for a reader past the fix the fix they already have (the latest one at or
/// below their version, as backports give several).
pub fn fix_release(
    specs: &[VersionSpec],
    product: &str,
    version: &Version,
    m: VersionMatch,
) -> Option<String> {
    let fixes = specs
        .iter()
        .filter(|s| s.product.eq_ignore_ascii_case(product))
        .filter_map(|s| s.fixed.as_ref());
    match m {
        VersionMatch::Affected => fixes
            .filter(|f| f.cmp_numeric(version).is_gt())
            .min_by(|a, b| a.cmp_numeric(b)),
        VersionMatch::Fixed => fixes
            .filter(|f| f.cmp_numeric(version).is_le())
            .max_by(|a, b| a.cmp_numeric(b)),
        VersionMatch::Unknown | VersionMatch::Vague | VersionMatch::NotAffected => None,
    }
    .map(Version::to_string)
}

/// Classifies an entry by its stored version statements (the index keeps them as JSON).
pub fn match_stored_specs(
    json: &str,
    product: &str,
    version: &Version,
) -> Result<(VersionMatch, Option<String>), serde_json::Error> {
    let specs: Vec<VersionSpec> = serde_json::from_str(json)?;
    let m = classify(&specs, product, version);
    Ok((m, fix_release(&specs, product, version, m)))
}

/// Parses a reader's `product=version` (e.g. `vvr=8.0.7`).
/// A space stands for the `=` too (`vvr 8.0.7`, as people write it).
pub fn parse_product_version(text: &str) -> Result<(String, Version), VersionError> {
    let text = text.trim();
    let (product, version) = text
        .split_once('=')
        .or_else(|| text.split_once(char::is_whitespace))
        .ok_or_else(|| VersionError::NoProduct(text.to_string()))?;
    let product = product.trim().to_ascii_lowercase();
    if product.is_empty() {
        return Err(VersionError::NoProduct(text.to_string()));
    }
    Ok((product, Version::parse(version.trim())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn parses_domain_versions() {
        assert_eq!(v("8.0.9").parts, vec![8, 0, 9]);
        assert_eq!(v("V2.0").parts, vec![2, 0]);
        let vvr = v("vvr-6.0.7-flink-1.15");
        assert_eq!(vvr.parts, vec![6, 0, 7]);
        assert_eq!(vvr.suffix, "flink-1.15");
        assert_eq!(v("0.10.2.0").parts, vec![0, 10, 2, 0]);
        assert!(Version::parse("eight").is_err());
        assert!(Version::parse("8.0.x9").is_err());
        assert!(Version::parse("").is_err());
    }

    #[test]
    fn ranges_contain_the_right_versions() {
        let r = VersionRange::parse(">=8.0.5, <8.0.9").unwrap();
        assert!(r.contains(&v("8.0.5")));
        assert!(r.contains(&v("8.0.8")));
        assert!(!r.contains(&v("8.0.9")));
        assert!(!r.contains(&v("8.0.4")));
        let wildcard = VersionRange::parse("4.x").unwrap();
        assert!(wildcard.contains(&v("4.9.1")));
        assert!(!wildcard.contains(&v("5.0")));
        let exact = VersionRange::parse("=6.0.7-flink-1.15").unwrap();
        assert!(exact.contains(&v("6.0.7-flink-1.15")));
        assert!(!exact.contains(&v("6.0.7-flink-1.13")));
        assert!(!exact.contains(&v("6.0.8")));
        assert!(VersionRange::parse("*").unwrap().contains(&v("1")));
    }

    #[test]
    fn rejects_bad_ranges() {
        assert!(matches!(
            VersionRange::parse(">=9, <8"),
            Err(VersionError::EmptyRange(_))
        ));
        assert!(matches!(
            VersionRange::parse(">=8.0.5 <8.0.9"),
            Err(VersionError::NotARange(_))
        ));
        assert!(VersionRange::parse(">=").is_err());
        assert!(VersionRange::parse(">4.x").is_err());
        assert!(VersionRange::parse(">1, <1").is_err());
    }

    #[test]
    fn classifies_reader_versions() {
        let specs = vec![VersionSpec {
            product: "vvr".into(),
            affected: Some(VersionRange::parse(">=8.0.5, <8.0.9").unwrap()),
            fixed: Some(v("8.0.9")),
        }];
        assert_eq!(classify(&specs, "vvr", &v("8.0.7")), VersionMatch::Affected);
        assert_eq!(classify(&specs, "vvr", &v("8.0.11")), VersionMatch::Fixed);
        assert_eq!(
            classify(&specs, "vvr", &v("8.0.1")),
            VersionMatch::NotAffected
        );
        assert_eq!(classify(&specs, "flink", &v("1.16")), VersionMatch::Unknown);
        let m = |s| classify(&specs, "vvr", &v(s));
        assert!(m("8.0.7").applies());
        assert!(!m("8.0.11").applies() && !m("8.0.1").applies());
        assert!(classify(&specs, "flink", &v("1.16")).applies());
        // A less precise version across a bound may apply; one clear of every bound is
        // classified as before.
        assert_eq!(m("8.0"), VersionMatch::Vague);
        assert_eq!(m("8"), VersionMatch::Vague);
        assert!(m("8").applies());
        // A bound that only adds zeros leaves every release of the reader's on one side.
        let one = |affected: &str, fixed: Option<&str>, at: &str| {
            let spec = VersionSpec {
                product: "flink".into(),
                affected: Some(VersionRange::parse(affected).unwrap()),
                fixed: fixed.map(v),
            };
            classify(&[spec], "flink", &v(at))
        };
        assert_eq!(
            one(">=1.15.0, <1.17.0", Some("1.17.0"), "1.17"),
            VersionMatch::Fixed
        );
        assert_eq!(one(">=1.18.0", None, "1.18"), VersionMatch::Affected);
        assert_eq!(one("<0.10.0", None, "0.10"), VersionMatch::NotAffected);
        assert_eq!(
            one(">=1.15.0, <1.17.0", None, "1.15"),
            VersionMatch::Affected
        );
        // `>1.17.0` and `<=1.17.0` do split 1.17 (1.17.0 on one side, 1.17.1 on the other).
        assert_eq!(one(">1.17.0", None, "1.17"), VersionMatch::Vague);
        assert_eq!(one("<=1.17.0", None, "1.17"), VersionMatch::Vague);
        assert_eq!(m("8.1"), VersionMatch::Fixed);
        assert_eq!(m("7"), VersionMatch::NotAffected);
        let (p, ver) = parse_product_version("VVR=8.0.7").unwrap();
        assert_eq!(p, "vvr");
        assert_eq!(ver.parts, vec![8, 0, 7]);
        let (p, ver) = parse_product_version(" vvr 8.0.7 ").unwrap();
        assert_eq!((p.as_str(), ver.parts), ("vvr", vec![8, 0, 7]));
        for no_product in ["8.0.7", "=8.0.7", "vvr"] {
            assert!(
                matches!(
                    parse_product_version(no_product),
                    Err(VersionError::NoProduct(_))
                ),
                "{no_product}"
            );
        }
    }

    #[test]
    fn fix_release_is_the_next_fix_or_the_one_already_had() {
        let spec = |affected: &str, fixed: &str| VersionSpec {
            product: "vvr".into(),
            affected: Some(VersionRange::parse(affected).unwrap()),
            fixed: Some(v(fixed)),
        };
        // A backport: fixed in 6.0.12 on the 6 line and in 8.0.9 on the 8 line.
        let specs = vec![spec(">=8.0.5, <8.0.9", "8.0.9"), spec("<6.0.12", "6.0.12")];
        let at = |s: &str| {
            let m = classify(&specs, "vvr", &v(s));
            (m, fix_release(&specs, "vvr", &v(s), m))
        };
        assert_eq!(at("6.0.3"), (VersionMatch::Affected, Some("6.0.12".into())));
        assert_eq!(at("8.0.7"), (VersionMatch::Affected, Some("8.0.9".into())));
        assert_eq!(at("8.0.11"), (VersionMatch::Fixed, Some("8.0.9".into())));
        assert_eq!(at("7.0"), (VersionMatch::Fixed, Some("6.0.12".into())));
        let json = serde_json::to_string(&specs).unwrap();
        assert_eq!(
            match_stored_specs(&json, "vvr", &v("8.0.11")).unwrap(),
            (VersionMatch::Fixed, Some("8.0.9".into()))
        );
        assert_eq!(
            match_stored_specs("[]", "vvr", &v("8.0.11")).unwrap(),
            (VersionMatch::Unknown, None)
        );
        assert!(match_stored_specs("{", "vvr", &v("1")).is_err());
    }
}
