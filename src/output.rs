//! Writing the site: a whole new output swapped in atomically (`kbook build`), and the
//! changed files of a rebuild (`kbook serve`): small ones replaced by a rename, so no reader
//! sees half of one; large ones (the search index) rewritten in place, which a request
//! arriving during the write may read half-written (see [`overwrite_in_place`]).

use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// One output file: its path relative to the site root and its bytes. Shared, so a page
/// kept for the next rebuild of `kbook serve` is not copied.
pub type OutputFile = (String, std::sync::Arc<Vec<u8>>);

const TMP_MARK: &str = ".kbook-tmp-";
const OLD_MARK: &str = ".kbook-old-";

/// Why `dest` cannot be replaced by a new site (what to say, and what to do), or `None`: a
/// site replaces the whole directory, so one that exists must be a directory that is empty or
/// an earlier kbook site (it has the file `marker`), not a folder of someone's files.
pub fn not_replaceable(dest: &Path, marker: &str) -> Option<(String, &'static str)> {
    let meta = std::fs::metadata(dest).ok()?;
    if !meta.is_dir() {
        return Some((
            format!("{} is a file", dest.display()),
            "kbook writes a directory there: name another path, or remove the file",
        ));
    }
    let empty = std::fs::read_dir(dest).is_ok_and(|mut items| items.next().is_none());
    (!empty && !dest.join(marker).is_file()).then(|| {
        (
            format!(
                "{} holds files kbook did not write (it has no {marker})",
                dest.display()
            ),
            "kbook replaces the whole directory: name a new or empty one, or remove this one if \
             its files can go",
        )
    })
}

/// Writes `files` into a fresh sibling directory of `dest`, then replaces `dest` with it
/// (see [`SiteWriter`]).
pub fn write_atomically(dest: &Path, files: &[OutputFile]) -> std::io::Result<Written> {
    let writer = SiteWriter::begin(dest)?;
    writer.write_all(files)?;
    writer.commit()
}

/// A new site written file by file into a fresh sibling directory of `dest`, and swapped in
/// by [`SiteWriter::commit`]; dropped uncommitted (a build that failed), the directory is
/// removed and `dest` is untouched. Files can be written as they are made, from any thread,
/// so a large book's pages are never all in memory at once. Leftovers of interrupted builds
/// (sibling temporary directories) are removed first.
///
/// A file whose bytes equal the previous site's file at the same path is hard-linked from it
/// instead of written: on ext4, creating thousands of inodes right after the previous build
/// deleted as many makes the inode allocator scan the recently deleted ones (writing took
/// 4x longer); a link allocates no inode, and removing the previous site then frees none.
/// No file of either site is written to once it exists, so sharing inodes is safe.
pub struct SiteWriter {
    dest: PathBuf,
    parent: PathBuf,
    name: String,
    tmp: PathBuf,
    /// `dest` is a mount point (a container's volume): it cannot be renamed, so the new site
    /// is written inside it and swapped in item by item (see [`SiteWriter::commit`]).
    inside: bool,
    reuse: Reuse,
    /// Directories already created under `tmp` (creating each once saves a system call per
    /// file).
    dirs: std::sync::Mutex<std::collections::HashSet<String>>,
    written: std::sync::Mutex<Written>,
    committed: bool,
}

/// Files, HTML pages and bytes of a site (or of what was written of it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    /// Files.
    pub files: usize,
    /// HTML pages among them.
    pub pages: usize,
    /// Bytes of all of them.
    pub bytes: u64,
}

impl Written {
    /// The counts of `files`.
    pub fn of(files: &[OutputFile]) -> Self {
        let mut w = Written::default();
        for (path, data) in files {
            w.add(path, data.len());
        }
        w
    }

    fn add(&mut self, path: &str, len: usize) {
        self.files += 1;
        self.pages += usize::from(path.ends_with(".html"));
        self.bytes += len as u64;
    }
}

impl SiteWriter {
    /// Starts a new site for `dest`.
    pub fn begin(dest: &Path) -> std::io::Result<Self> {
        // A link to the published folder (`/var/www/kb -> /srv/releases/kb`) stays a link: the
        // site replaces the folder it names.
        let resolved = std::fs::symlink_metadata(dest)
            .is_ok_and(|m| m.file_type().is_symlink())
            .then(|| std::fs::canonicalize(dest).ok())
            .flatten();
        let dest = resolved.as_deref().unwrap_or(dest);
        let parent = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent)?;
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "book".into());
        clean_leftovers(&parent, &name);
        let inside = is_mount_point(dest, &parent);
        let tmp = if inside {
            clean_leftovers(dest, &name);
            dest.join(format!(".{name}{TMP_MARK}{}", std::process::id()))
        } else {
            parent.join(format!(".{name}{TMP_MARK}{}", std::process::id()))
        };
        std::fs::create_dir_all(&tmp)?;
        let reuse = Reuse::new(dest, &tmp);
        Ok(SiteWriter {
            dest: dest.to_path_buf(),
            parent,
            name,
            tmp,
            inside,
            reuse,
            dirs: std::sync::Mutex::new(std::collections::HashSet::new()),
            written: std::sync::Mutex::new(Written::default()),
            committed: false,
        })
    }

    /// Writes one file (`path` relative to the site root); an error names the file, so
    /// callers need not.
    pub fn write(&self, path: &str, data: &[u8]) -> std::io::Result<()> {
        self.write_file(path, data)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{path}: {e}")))
    }

    fn write_file(&self, path: &str, data: &[u8]) -> std::io::Result<()> {
        if let Some((d, _)) = path.rsplit_once('/') {
            let known = self
                .dirs
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .contains(d);
            if !known {
                std::fs::create_dir_all(self.tmp.join(d))?;
                self.dirs
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(d.to_string());
            }
        }
        let target = self.tmp.join(path);
        if !self.reuse.link(path, data, &target) {
            write_new(&target, data)?;
        }
        self.written
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .add(path, data.len());
        Ok(())
    }

    /// Writes `files`, on all cores.
    pub fn write_all(&self, files: &[OutputFile]) -> std::io::Result<()> {
        files
            .par_iter()
            .try_for_each(|(path, data)| self.write(path, data))
    }

    /// Whether the new site holds a file (`Some(false)`) or a folder (`Some(true)`) at `path`.
    pub fn holds(&self, path: &str) -> Option<bool> {
        std::fs::symlink_metadata(self.tmp.join(path))
            .ok()
            .map(|m| m.is_dir())
    }

    /// Where the new site is written until [`SiteWriter::commit`] swaps it in.
    pub fn staged(&self) -> &Path {
        &self.tmp
    }

    /// Where the site goes.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Replaces `dest` with the new site; what was written.
    pub fn commit(mut self) -> std::io::Result<Written> {
        if self.inside {
            swap_contents(&self.dest, &self.tmp, &self.name)?;
            self.committed = true;
            return Ok(*self
                .written
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner));
        }
        let old = self
            .parent
            .join(format!(".{}{OLD_MARK}{}", self.name, std::process::id()));
        let had_old = self.dest.exists();
        if had_old {
            std::fs::rename(&self.dest, &old)?;
        }
        if let Err(e) = std::fs::rename(&self.tmp, &self.dest) {
            if had_old {
                let _ = std::fs::rename(&old, &self.dest);
            }
            return Err(e);
        }
        self.committed = true;
        if had_old {
            remove_tree(&old);
        }
        Ok(*self
            .written
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}

impl Drop for SiteWriter {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Removes the previous site, many files at a time: removing a file whose blocks reached the
/// disk waits for the file system (a discard with `-o discard`), 40 s for a 15,000-file site
/// one at a time; waits overlap, so more threads than cores. Not in the background: the
/// process would exit before it ends and leave the rest behind.
fn remove_tree(dir: &Path) {
    const THREADS: usize = 8;
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    let mut i = 0;
    while let Some(d) = dirs.get(i) {
        i += 1;
        let Ok(items) = std::fs::read_dir(d) else {
            continue;
        };
        for item in items.flatten() {
            // Not following symlinks: they are removed, not what they point to.
            match item.file_type() {
                Ok(t) if t.is_dir() => dirs.push(item.path()),
                _ => files.push(item.path()),
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..THREADS.min(files.len()) {
            s.spawn(|| {
                while let Some(f) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let _ = std::fs::remove_file(f);
                }
            });
        }
    });
    // Whatever is left (the directories, anything that failed) the usual way.
    let _ = std::fs::remove_dir_all(dir);
}

/// Creates `path` (in the temporary directory) with `data`. Never opens an existing file:
/// with a path listed twice it could be a link into the previous site, which must not change.
fn write_new(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
    };
    let mut f = match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(path)?;
            create()?
        }
        r => r?,
    };
    f.write_all(data)
}

/// Hard-links unchanged files of the previous site into the new one.
struct Reuse {
    /// The previous site, if there is one to link from.
    from: Option<PathBuf>,
    /// Cleared on the first failed link (another file system, no permission): the others
    /// would fail too, after their bytes were compared for nothing.
    works: AtomicBool,
    /// Owner and permissions of a newly written file: a previous file that differs (an
    /// earlier build by another user, a `chmod`) is written anew, so the new site is exactly
    /// what writing every file would give, but for modification times.
    owner: Owner,
}

impl Reuse {
    fn new(dest: &Path, tmp: &Path) -> Self {
        // The temporary directory was just created: the file mode is its mode without the
        // execute bits (both come from the umask).
        let owner = std::fs::metadata(tmp).ok().and_then(|m| Owner::of(&m));
        let from = match owner {
            Some(_) if dest.is_dir() => Some(dest.to_path_buf()),
            _ => None,
        };
        Reuse {
            from,
            works: AtomicBool::new(true),
            owner: owner.map_or(Owner::NONE, Owner::as_new_file),
        }
    }

    /// Links the previous site's `path` to `target` if it holds exactly `data`; whether it
    /// did. Never fails: the caller writes the file instead.
    fn link(&self, path: &str, data: &[u8], target: &Path) -> bool {
        let Some(from) = &self.from else {
            return false;
        };
        if !self.works.load(Ordering::Relaxed) {
            return false;
        }
        let old = from.join(path);
        let Some(id) = self.same_file(&old, data) else {
            return false;
        };
        if std::fs::hard_link(&old, target).is_err() {
            self.works.store(false, Ordering::Relaxed);
            return false;
        }
        // The path may have been replaced since it was compared: keep the link only if it
        // is the file that was compared.
        if std::fs::symlink_metadata(target).is_ok_and(|m| FileId::of(&m) == Some(id)) {
            return true;
        }
        let _ = std::fs::remove_file(target);
        false
    }

    /// Whether `old` is a regular file with our owner and mode and exactly the bytes
    /// `data`; its identity if so. Lengths come from the metadata; only files of the same
    /// length are read (from the page cache right after a build), a block at a time.
    fn same_file(&self, old: &Path, data: &[u8]) -> Option<FileId> {
        // Not following symlinks: a link to a symlink would put the symlink in the new site.
        let m = std::fs::symlink_metadata(old).ok()?;
        if !m.is_file() || m.len() != data.len() as u64 || Owner::of(&m) != Some(self.owner) {
            return None;
        }
        let id = FileId::of(&m)?;
        let mut f = std::fs::File::open(old).ok()?;
        // The same file that was checked, not one swapped in since.
        if f.metadata().ok().and_then(|m| FileId::of(&m)) != Some(id) {
            return None;
        }
        let mut buf = vec![0u8; (64 << 10).min(data.len().max(1))];
        let mut at = 0;
        loop {
            match f.read(&mut buf) {
                Ok(0) => return (at == data.len()).then_some(id),
                Ok(n) => {
                    let end = at + n;
                    if end > data.len() || buf[..n] != data[at..end] {
                        return None;
                    }
                    at = end;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
    }
}

/// Owner and permission bits of a file; `None` where they cannot be told (not Unix), which
/// turns linking off.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Owner {
    uid: u32,
    gid: u32,
    mode: u32,
}

impl Owner {
    /// Matches no file.
    const NONE: Owner = Owner {
        uid: u32::MAX,
        gid: u32::MAX,
        mode: u32::MAX,
    };

    #[cfg(unix)]
    fn of(m: &std::fs::Metadata) -> Option<Owner> {
        use std::os::unix::fs::MetadataExt;
        Some(Owner {
            uid: m.uid(),
            gid: m.gid(),
            mode: m.mode() & 0o7777,
        })
    }

    #[cfg(not(unix))]
    fn of(_: &std::fs::Metadata) -> Option<Owner> {
        None
    }

    /// What a file created in a directory with this owner gets.
    fn as_new_file(self) -> Owner {
        Owner {
            mode: self.mode & 0o666,
            ..self
        }
    }
}

/// Device and inode: which file a path named when it was looked at.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct FileId(u64, u64);

impl FileId {
    #[cfg(unix)]
    fn of(m: &std::fs::Metadata) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt;
        Some(FileId(m.dev(), m.ino()))
    }

    #[cfg(not(unix))]
    fn of(_: &std::fs::Metadata) -> Option<FileId> {
        None
    }
}

/// A build killed between moving the previous site aside and moving the new one in leaves
/// no `dest`, only `.NAME.kbook-old-PID`: move the previous site back (before anything else,
/// so even a build that then fails restores it). Leftover temp directories are removed when
/// the next site is written.
pub fn recover_interrupted_swap(dest: &Path) {
    if dest.exists() {
        return;
    }
    let (Some(parent), Some(name)) = (dest.parent(), dest.file_name()) else {
        return;
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let old_prefix = format!(".{}{OLD_MARK}", name.to_string_lossy());
    let Ok(items) = std::fs::read_dir(parent) else {
        return;
    };
    let mut olds: Vec<PathBuf> = items
        .flatten()
        .filter(|i| i.file_name().to_string_lossy().starts_with(&old_prefix))
        .map(|i| i.path())
        .collect();
    olds.sort();
    if let Some(old) = olds.first() {
        let _ = std::fs::rename(old, dest);
    }
}

/// Whether `dest` is a folder on another file system than its parent's, or one the system
/// lists as mounted (a bind mount of the same disk): a mount point cannot be renamed.
fn is_mount_point(dest: &Path, parent: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (std::fs::symlink_metadata(dest), std::fs::metadata(parent)) {
            (Ok(d), Ok(p)) if d.is_dir() => d.dev() != p.dev() || listed_as_mounted(dest),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (dest, parent);
        false
    }
}

/// Whether `/proc/self/mountinfo` lists `dir` as a mount point (Linux; elsewhere false).
fn listed_as_mounted(dir: &Path) -> bool {
    let (Ok(dir), Ok(info)) = (
        std::fs::canonicalize(dir),
        std::fs::read_to_string("/proc/self/mountinfo"),
    ) else {
        return false;
    };
    // The fifth field, with spaces, tabs, newlines and backslashes written as octal escapes.
    let unescape = |p: &str| {
        p.replace("\\040", " ")
            .replace("\\011", "\t")
            .replace("\\012", "\n")
            .replace("\\134", "\\")
    };
    info.lines()
        .filter_map(|l| l.split(' ').nth(4))
        .any(|p| Path::new(&unescape(p)) == dir)
}

/// Replaces what `dest` holds with what `new` (a folder inside it) holds, by renames inside
/// `dest`: the old items go into a folder beside `new` first, then the new ones move up.
/// When a rename fails, what moved goes back, so `dest` holds the previous site again.
fn swap_contents(dest: &Path, new: &Path, name: &str) -> std::io::Result<()> {
    let old = dest.join(format!(".{name}{OLD_MARK}{}", std::process::id()));
    std::fs::create_dir(&old)?;
    let names = |dir: &Path, skip: &[&Path]| -> std::io::Result<Vec<std::ffi::OsString>> {
        let mut out = Vec::new();
        for item in std::fs::read_dir(dir)? {
            let item = item?;
            if !skip.contains(&item.path().as_path()) {
                out.push(item.file_name());
            }
        }
        Ok(out)
    };
    let move_all = |items: &[std::ffi::OsString], from: &Path, to: &Path| {
        let mut moved = Vec::new();
        for n in items {
            if let Err(e) = std::fs::rename(from.join(n), to.join(n)) {
                return Err((moved, e));
            }
            moved.push(n.clone());
        }
        Ok(moved)
    };
    let previous = names(dest, &[new, &old])?;
    if let Err((moved, e)) = move_all(&previous, dest, &old) {
        let _ = move_all(&moved, &old, dest);
        let _ = std::fs::remove_dir(&old);
        return Err(e);
    }
    let site = names(new, &[])?;
    if let Err((moved, e)) = move_all(&site, new, dest) {
        let _ = move_all(&moved, dest, new);
        let _ = move_all(&previous, &old, dest);
        let _ = std::fs::remove_dir(&old);
        return Err(e);
    }
    let _ = std::fs::remove_dir(new);
    remove_tree(&old);
    Ok(())
}

fn clean_leftovers(parent: &Path, name: &str) {
    let Ok(items) = std::fs::read_dir(parent) else {
        return;
    };
    let tmp_prefix = format!(".{name}{TMP_MARK}");
    let old_prefix = format!(".{name}{OLD_MARK}");
    for item in items.flatten() {
        let file_name = item.file_name().to_string_lossy().to_string();
        if file_name.starts_with(&tmp_prefix) || file_name.starts_with(&old_prefix) {
            let _ = std::fs::remove_dir_all(item.path());
        }
    }
}

/// Files at least this large are rewritten in place by `kbook serve` (see
/// [`overwrite_in_place`]).
pub const IN_PLACE_BYTES: usize = 1 << 20;

/// Rewrites an existing file in place, without truncating it first: replacing a large file by
/// a rename frees all its blocks (a synchronous discard on some file systems) and makes ext4
/// flush the new file, which took most of a rebuild's writing time for the search index. Only
/// for `kbook serve`, where the page reloads after the rebuild has finished writing; a
/// request for the file while it is written may get old and new bytes mixed.
///
/// A file with other hard links (a build shares unchanged files with the previous site, which
/// a failed removal may have left behind) is replaced instead, so the other names keep their
/// bytes.
pub fn overwrite_in_place(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
    if has_other_links(&f.metadata()?) {
        drop(f);
        return write_file_atomically(path, data);
    }
    f.write_all(data)?;
    f.set_len(data.len() as u64)
}

/// Replaces one file via a temporary sibling and a rename, so a reader never sees half a file.
pub fn write_file_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // The whole name plus a suffix: files written in parallel may share a stem
    // (`index.bin`, `index.head`).
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".kbook-tmp-{}", std::process::id()));
    let tmp = path.with_file_name(name);
    std::fs::write(&tmp, data)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(unix)]
fn has_other_links(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    m.nlink() > 1
}

/// Builds link no files where owners cannot be told (see [`Owner`]).
#[cfg(not(unix))]
fn has_other_links(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mount point is a folder of another file system than its parent's; a plain folder
    /// is not.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_mount_point_is_told_from_a_folder() {
        assert!(is_mount_point(Path::new("/proc"), Path::new("/")));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("site")).unwrap();
        assert!(!is_mount_point(&dir.path().join("site"), dir.path()));
    }

    /// The new site inside the destination replaces the old one item by item: nothing of the
    /// old site and no work folder is left.
    #[test]
    fn contents_are_swapped_inside_the_destination() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out");
        std::fs::create_dir_all(dest.join("kafka")).unwrap();
        std::fs::write(dest.join("index.html"), "old").unwrap();
        std::fs::write(dest.join("kafka/gone.html"), "old").unwrap();
        let new = dest.join(".out.tmp-1");
        std::fs::create_dir_all(new.join("mysql")).unwrap();
        std::fs::write(new.join("index.html"), "new").unwrap();
        std::fs::write(new.join("mysql/a.html"), "new").unwrap();
        swap_contents(&dest, &new, "out").unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&dest)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["index.html", "mysql"]);
        assert_eq!(
            std::fs::read_to_string(dest.join("index.html")).unwrap(),
            "new"
        );
        assert!(dest.join("mysql/a.html").is_file());
    }
}
