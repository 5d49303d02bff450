//! Reproducible output: the bundled book built from two checkouts at different paths, from
//! different working directories and with different environments gives byte-identical sites,
//! and no file of the output names the build machine (paths, home, host name).

use crate::common::{copy_dir, kbook_command, snapshot};
use std::path::Path;

/// Copies the bundled book (book.toml and content/) to `to`.
fn checkout(to: &Path) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(to).unwrap();
    std::fs::copy(repo.join("book.toml"), to.join("book.toml")).unwrap();
    copy_dir(&repo.join("content"), &to.join("content"));
}

fn hostname() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| h.len() >= 4)
}

#[test]
fn same_bytes_from_any_checkout_and_environment() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("first/kb");
    let b = tmp.path().join("second checkout/deeper/kb-copy");
    checkout(&a);
    checkout(&b);
    let (out_a, out_b) = (tmp.path().join("site-a"), tmp.path().join("site-b"));

    let o = kbook_command()
        .current_dir(&a)
        .args(["build", "--dest"])
        .arg(&out_a)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // Another directory, a bare environment with other locale, time zone, home and user,
    // and a SOURCE_DATE_EPOCH (which must not matter either way).
    let o = kbook_command()
        .current_dir(tmp.path())
        .env_clear()
        .env("HOME", tmp.path().join("elsewhere"))
        .env("USER", "someone-else")
        .env("LANG", "de_DE.UTF-8")
        .env("LC_ALL", "tr_TR.UTF-8")
        .env("TZ", "Pacific/Kiritimati")
        .env("SOURCE_DATE_EPOCH", "0")
        .env("RAYON_NUM_THREADS", "1")
        .arg("build")
        .arg("--book")
        .arg(&b)
        .arg("--dest")
        .arg(&out_b)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let (sa, sb) = (snapshot(&out_a), snapshot(&out_b));
    assert_eq!(sa.keys().collect::<Vec<_>>(), sb.keys().collect::<Vec<_>>());
    for (k, v) in &sa {
        assert!(v == &sb[k], "{k} differs between the two checkouts");
    }

    // Nothing in the output names the machine or where the book was built.
    let mut needles: Vec<String> = vec![
        tmp.path().to_string_lossy().to_string(),
        env!("CARGO_MANIFEST_DIR").to_string(),
        "second checkout".to_string(),
    ];
    if let Some(home) = std::env::var_os("HOME").map(|h| h.to_string_lossy().to_string())
        && home.len() > 1
    {
        needles.push(format!("{home}/"));
    }
    if let Some(cargo_home) = std::env::var_os("CARGO_HOME") {
        needles.push(cargo_home.to_string_lossy().to_string());
    }
    needles.extend(hostname());
    let mut found = Vec::new();
    for (file, bytes) in &sa {
        for n in &needles {
            if bytes.windows(n.len()).any(|w| w == n.as_bytes()) {
                found.push(format!("{file} contains {n:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "machine details in the output:\n{}",
        found.join("\n")
    );
}
