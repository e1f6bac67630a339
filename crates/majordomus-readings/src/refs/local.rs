//! The local branches' tips, read from the ref files themselves, with what
//! an earlier `check` read kept for the files that have not changed since.
//!
//! A repository can hold thousands of branches, and `check` needs every
//! one's tip at every stop (what was created since the start, what moved).
//! libgit2 reads each loose ref with five system calls on every read; git
//! status reads none. Here the files under `refs/heads` are listed and
//! stat'ed relative to their directory (the fingerprint stats them anyway),
//! and a file is opened only when its stat differs from the one [`Known`]
//! holds for it: a ref git rewrites is a new file (written beside it and
//! renamed over it: a new inode and change time), one rewritten in place
//! has a new change time, which no tool can set back. One stat per loose
//! branch is the whole of what a branch that did not move costs.
//!
//! What a stat cannot tell: two writes within the file system's clock tick,
//! the reading between them. A file changed less than [`SETTLED`] before it
//! was read is therefore not kept (git's own "racily clean" rule for its
//! index): it is read again next time.
//!
//! As git reads them (`git for-each-ref refs/heads`): `packed-refs` first,
//! a loose file overriding its packed line; a name ending in `.lock`, a
//! name git would refuse, and a file that is not `<id>\n` (a broken ref)
//! are no branch. A symbolic ref (`ref: refs/heads/main`) names a branch
//! rather than being one, and is left out (as the libgit2 reading this
//! replaced left it out).

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use git2::Oid;

use crate::{Reading, Unread};

/// How long a ref file must have been unchanged when it is read for its
/// reading to be kept (see the module's essay).
pub const SETTLED: Duration = Duration::from_secs(2);

/// A ref file's identity on disk: any write to it changes one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStamp {
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
}

impl FileStamp {
    pub fn of(meta: &std::fs::Metadata) -> FileStamp {
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        FileStamp {
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Whether the file was last changed before `settled_ns` ([`settled_ns`]):
    /// what was read from it may be kept.
    pub fn settled(&self, settled_ns: i128) -> bool {
        self.ctime_ns < settled_ns && self.mtime_ns < settled_ns
    }
}

/// The time (ns since the epoch) [`SETTLED`] before `now`: a file changed
/// since is read again next time.
pub fn settled_ns(now: SystemTime) -> i128 {
    let settled = now.checked_sub(SETTLED).unwrap_or(UNIX_EPOCH);
    settled.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128)
}

/// What was read from each loose ref file, by its full ref name, with the
/// file's stamp then. [`branch_tips`] reads through it and leaves in it
/// what to keep for the next read.
///
/// Kept in the order the walk met the files, neither hashed nor sorted: a
/// directory lists its entries in the same order while none is added or
/// removed, so each file the walk meets is looked for first where the last
/// walk met it, one comparison of its name (at ten thousand branches,
/// hashing every name and filling a map was a sixth of a check). Where the
/// listing moved (a file added or removed), the files from there on are
/// looked up by name, and the new order is what is kept.
///
/// With them, the order of their names: a reading is handed on sorted by
/// name, and at ten thousand branches sorting the files the walk met was a
/// tenth of a check, on the thread whose walk is its longest reading. While
/// the walk meets the same names in the same order, the order kept is the
/// order of what it met.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    /// Every file's name, one after the other (one buffer, not one
    /// allocation per name: ten thousand were a twentieth of a check).
    names: String,
    /// Each file: where its name ends in `names` (it begins where the one
    /// before it ends), and what was read.
    files: Vec<(usize, KnownFile)>,
    /// The files' positions in `files`, sorted by name; empty where not
    /// known (it is then sorted again).
    order: Vec<u32>,
}

impl Known {
    /// `file`, met by the walk after every file already held (the order
    /// of the names is then no longer known).
    pub fn push(&mut self, name: &str, file: KnownFile) {
        self.names.push_str(name);
        self.files.push((self.names.len(), file));
        self.order.clear();
    }

    /// The files' positions sorted by their names ([`Known`]); empty where
    /// not known.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Takes `order` as the order of the files' names, where it is one:
    /// every position once, each name before the next. Anything else
    /// (a damaged cache's) is refused, and `false` said: a wrong order
    /// would hand on the branches unsorted, so it can never be taken.
    pub fn set_order(&mut self, order: Vec<u32>) -> bool {
        let n = self.files.len();
        let mut seen = vec![false; n];
        let whole = order.len() == n
            && order.iter().all(|&i| {
                usize::try_from(i).ok().and_then(|i| seen.get_mut(i)).is_some_and(|s| !std::mem::replace(s, true))
            });
        let sorted = whole && order.windows(2).all(|w| self.name(w[0] as usize) < self.name(w[1] as usize));
        if sorted {
            self.order = order;
        }
        sorted
    }

    /// Room for `more` files whose names take `bytes` in all.
    pub fn reserve(&mut self, more: usize, bytes: usize) {
        self.files.reserve(more);
        self.names.reserve(bytes);
    }

    /// The name of the `i`th file.
    fn name(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.files[i - 1].0 };
        &self.names[start..self.files[i].0]
    }

    /// The files held, in the order the walk met them.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&str, &KnownFile)> {
        (0..self.files.len()).map(|i| (self.name(i), &self.files[i].1))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// What is held for the file `name` (one look at every file held).
    pub fn get_mut(&mut self, name: &str) -> Option<&mut KnownFile> {
        let i = (0..self.files.len()).find(|&i| self.name(i) == name)?;
        Some(&mut self.files[i].1)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.iter().any(|(n, _)| n == name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownFile {
    pub stamp: FileStamp,
    /// The commit id it held; `None`: a symbolic ref.
    pub id: Option<Oid>,
}

impl KnownFile {
    pub fn new(stamp: FileStamp, id: Option<Oid>) -> Self {
        KnownFile { stamp, id }
    }
}

/// What [`branch_tips`] read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tips {
    /// The local branches (`refs/heads/...`, full names, sorted) and their
    /// commits.
    pub tips: Vec<(String, Oid)>,
    /// Whether what the [`Known`] read through holds now differs from what
    /// it held: it is to be kept again.
    pub changed: bool,
    /// The newest modification time (ns since the epoch) of `refs/heads`
    /// and of everything under it, as [`crate::fingerprint`] takes it;
    /// `None` where `refs/heads` is not a directory.
    pub newest_mtime_ns: Option<u64>,
    /// The symbolic refs among the loose files (`git symbolic-ref
    /// refs/heads/alias refs/heads/main`: a name for another branch, no
    /// branch of its own), by full name, with the change time of the file
    /// (s since the epoch), which no command sets back.
    pub symbolic: Vec<(String, i64)>,
}

/// The local branches and their commits, reading only the ref files whose
/// stamp is not the one `known` holds for them; `known` is left holding
/// what to keep for the next read.
pub fn branch_tips(common_dir: &Path, known: &mut Known) -> Reading<Tips> {
    read_under(common_dir, "refs/heads", known, SystemTime::now())
}

/// Every direct ref under `refs/remotes` and its commit, sorted by name,
/// read as [`branch_tips`] reads the branches: only the files whose stamp
/// is not the one `known` holds.
pub fn remote_tips(common_dir: &Path, known: &mut Known) -> Reading<Tips> {
    read_under(common_dir, "refs/remotes", known, SystemTime::now())
}

/// Every direct ref under `under` (`refs/remotes`, say) and its commit,
/// sorted by name, read as [`branch_tips`] reads the branches (nothing
/// kept: every file read).
pub fn direct_refs(common_dir: &Path, under: &str) -> Reading<Vec<(String, Oid)>> {
    read_under(common_dir, under, &mut Known::default(), UNIX_EPOCH).map(|read| read.tips)
}

/// A tag: its full name, the object it names and, where `packed-refs`
/// records it, the object an annotated tag peels to (a loose tag's is not
/// recorded: its object says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRef {
    pub name: String,
    pub id: Oid,
    pub peeled: Option<Oid>,
}

/// Every tag, sorted by name, read as [`direct_refs`] reads refs.
pub fn tags(common_dir: &Path) -> Reading<Vec<TagRef>> {
    let packed = packed(common_dir, "refs/tags/")?;
    let mut known = Known::default();
    let mut loose = Loose::new(&mut known, UNIX_EPOCH);
    loose.walk(&common_dir.join("refs/tags"), &mut "refs/tags".to_string())?;
    let mut found = std::mem::take(&mut loose.found);
    found.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(merge(packed, found).into_iter().map(|(name, id, peeled)| TagRef { name, id, peeled }).collect())
}

/// [`branch_tips`], with "now" given (a file changed within [`SETTLED`]
/// of it is not kept).
pub fn branch_tips_at(common_dir: &Path, known: &mut Known, now: SystemTime) -> Reading<Tips> {
    read_under(common_dir, "refs/heads", known, now)
}

/// The direct refs under `under` as [`branch_tips_at`] reads the branches.
pub fn read_under_at(common_dir: &Path, under: &str, known: &mut Known, now: SystemTime) -> Reading<Tips> {
    read_under(common_dir, under, known, now)
}

fn read_under(common_dir: &Path, under: &str, known: &mut Known, now: SystemTime) -> Reading<Tips> {
    let packed = packed(common_dir, &format!("{under}/"))?;
    let dir = common_dir.join(under);
    let newest = match std::fs::symlink_metadata(&dir) {
        Ok(meta) if meta.is_dir() => Some(mtime_ns(&meta)),
        _ => None,
    };
    let mut loose = Loose::new(known, now);
    loose.newest = newest.unwrap_or(0);
    loose.walk(&dir, &mut under.to_string())?;
    let Loose { mut found, fresh, kept, newest: newest_seen, mut symbolic, .. } = loose;
    symbolic.sort_unstable();
    let unchanged = kept.len() == known.files.len() && kept.iter().enumerate().all(|(i, k)| *k == Kept::Known(i));
    // Each file found was kept, in the order found: `found[i]` is what
    // the new `known` holds at `i`.
    let aligned = kept.len() == found.len();
    // The same names met in the same order, whatever was read again.
    let same_names = aligned
        && kept.len() == known.files.len()
        && kept.iter().enumerate().all(|(i, k)| match *k {
            Kept::Known(j) => j == i,
            Kept::Fresh(f) => fresh[f].0 == known.name(i),
        });
    let order = match known.order() {
        held if same_names && held.len() == found.len() => Some(held.to_vec()),
        _ if aligned => Some(order_of(&found)),
        _ => None,
    };
    // Kept again where the order is all that is new (a cache written
    // without it).
    let order_is_new = order.as_deref().is_some_and(|o| o != known.order());
    if !unchanged {
        let before = std::mem::take(known);
        known.reserve(kept.len(), before.names.len());
        for k in kept {
            match k {
                Kept::Known(i) => known.push(before.name(i), before.files[i].1),
                Kept::Fresh(i) => known.push(&fresh[i].0, fresh[i].1),
            }
        }
    }
    let sorted = match order {
        Some(order) => {
            let sorted = order.iter().map(|&i| {
                let (name, id) = &mut found[i as usize];
                (std::mem::take(name), *id)
            });
            let sorted = sorted.collect();
            if order_is_new || !unchanged {
                // Made from the names `known` now holds, in its order
                // (a `known` made again holds none).
                known.set_order(order);
            }
            sorted
        }
        None => {
            found.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            found
        }
    };
    let changed = !unchanged || order_is_new;
    let tips = merge(packed, sorted).into_iter().map(|(name, id, _)| (name, id)).collect();
    Ok(Tips { tips, changed, newest_mtime_ns: newest.map(|_| newest_seen), symbolic })
}

/// The positions of `found`'s entries sorted by their names.
fn order_of(found: &[(String, Option<Oid>)]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..found.len()).map(|i| i as u32).collect();
    order.sort_unstable_by(|&a, &b| found[a as usize].0.cmp(&found[b as usize].0));
    order
}

/// The packed refs and the loose ones `found`, each sorted by name, as git
/// reads them together, sorted by name: a loose file overrides its packed
/// line, and one that is no direct ref (symbolic, broken: `None`) hides
/// it. A loose ref's peeled id is not recorded.
fn merge(
    packed: Vec<(String, Oid, Option<Oid>)>,
    found: Vec<(String, Option<Oid>)>,
) -> Vec<(String, Oid, Option<Oid>)> {
    let mut out = Vec::with_capacity(packed.len() + found.len());
    let mut found = found.into_iter().peekable();
    for p in packed {
        let mut overridden = false;
        while let Some((name, id)) = found.next_if(|(name, _)| name.as_str() <= p.0.as_str()) {
            overridden |= name == p.0;
            out.extend(id.map(|id| (name, id, None)));
        }
        if !overridden {
            out.push(p);
        }
    }
    out.extend(found.filter_map(|(name, id)| Some((name, id?, None))));
    out
}

/// A file's modification time as [`crate::fingerprint`] reads it (0 before
/// the epoch).
fn mtime_ns(meta: &std::fs::Metadata) -> u64 {
    u64::try_from(i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec())).unwrap_or(0)
}

/// The lines of `packed-refs` whose name starts with `prefix`, sorted by
/// name, each with the id its `^` line peels it to, if any.
pub(super) fn packed(common_dir: &Path, prefix: &str) -> Reading<Vec<(String, Oid, Option<Oid>)>> {
    let file = packed_file(common_dir)?;
    let from = file.lines.partition_point(|l| file.name(l) < prefix.as_bytes());
    Ok(file.lines[from..]
        .iter()
        .take_while(|l| file.name(l).starts_with(prefix.as_bytes()))
        .filter_map(|l| file.read(l))
        .collect())
}

/// The lines of `packed-refs` whose name (its bytes as the file holds
/// them) `keep` takes, as [`packed`] reads them: a name not taken costs no
/// validation and no id parsed (the file holds every packed ref, and most
/// readings want few of them).
pub(super) fn packed_where(
    common_dir: &Path,
    keep: impl Fn(&[u8]) -> bool,
) -> Reading<Vec<(String, Oid, Option<Oid>)>> {
    let file = packed_file(common_dir)?;
    Ok(file.lines.iter().filter(|l| keep(file.name(l))).filter_map(|l| file.read(l)).collect())
}

/// `packed-refs` as read: its bytes and where each `<id> <name>` line
/// lies in them, sorted by name, each with the `^<peeled id>` line after
/// it, if any. Nothing is validated or decoded until a reading takes the
/// line ([`PackedFile::read`]).
#[derive(Debug, Default)]
struct PackedFile {
    bytes: Vec<u8>,
    lines: Vec<PackedLine>,
}

/// Where one line's parts lie in [`PackedFile::bytes`]: the id at `at`
/// (40 bytes), the name from `at + 41` to `end`, a peeled id at `peeled`.
#[derive(Debug, Clone, Copy)]
struct PackedLine {
    at: usize,
    end: usize,
    peeled: Option<usize>,
}

impl PackedFile {
    fn parse(bytes: Vec<u8>) -> PackedFile {
        let mut lines: Vec<PackedLine> = Vec::new();
        // Whether the last line was a ref's (a `^` line peels it).
        let mut last_ref = false;
        let mut at = 0;
        while at < bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
            let line = &bytes[at..end];
            let content_end = if line.ends_with(b"\r") { end - 1 } else { end };
            if line.first() == Some(&b'^') {
                if let (true, Some(last), true) = (last_ref, lines.last_mut(), content_end - at == 41) {
                    last.peeled = Some(at + 1);
                }
            } else if line.len() > 41 && line[40] == b' ' {
                lines.push(PackedLine { at, end: content_end, peeled: None });
                last_ref = true;
                at = end + 1;
                continue;
            }
            last_ref = false;
            at = end + 1;
        }
        let mut file = PackedFile { bytes, lines };
        // git writes the file sorted (and says so in its header); one
        // written otherwise is read the same, the first of a name kept.
        if !file.lines.windows(2).all(|w| file.name(&w[0]) < file.name(&w[1])) {
            let mut lines = std::mem::take(&mut file.lines);
            lines.sort_by(|a, b| file.name(a).cmp(file.name(b)));
            lines.dedup_by(|later, first| file.name(later) == file.name(first));
            file.lines = lines;
        }
        file
    }

    /// The name's bytes as the file holds them.
    fn name(&self, line: &PackedLine) -> &[u8] {
        &self.bytes[line.at + 41..line.end]
    }

    /// The line as a ref: its name, if git accepts it, its id, and its
    /// peeled id, if any.
    fn read(&self, line: &PackedLine) -> Option<(String, Oid, Option<Oid>)> {
        let name = std::str::from_utf8(self.name(line)).ok()?;
        if !valid_refname(name) {
            return None;
        }
        let id = parse_id(&self.bytes[line.at..line.at + 40])?;
        let peeled = line.peeled.and_then(|p| parse_id(&self.bytes[p..p + 40]));
        Some((name.to_string(), id, peeled))
    }
}

/// `packed-refs` under `common_dir` ([`PackedFile`]), read once for as
/// long as the file stays the same ([`FileStamp`]: git replaces it on
/// every write; a write in place changes its change time): the branches'
/// thread, the remotes', the tags' and the refs written since the start
/// all read it in one check, and with thousands of refs each read of it
/// was a tenth of the check. One file is held at a time (a process reads
/// one repository's).
fn packed_file(common_dir: &Path) -> Reading<std::sync::Arc<PackedFile>> {
    type Held = Option<(std::path::PathBuf, Option<FileStamp>, std::sync::Arc<PackedFile>)>;
    static HELD: std::sync::Mutex<Held> = std::sync::Mutex::new(None);
    let path = common_dir.join("packed-refs");
    let stamp = std::fs::metadata(&path).ok().map(|m| FileStamp::of(&m));
    let mut held = HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((was_path, was, file)) = held.as_ref() {
        if *was_path == path && *was == stamp {
            return Ok(std::sync::Arc::clone(file));
        }
    }
    let file = std::sync::Arc::new(PackedFile::parse(packed_lines(common_dir)?));
    *held = Some((path, stamp, std::sync::Arc::clone(&file)));
    Ok(file)
}

/// The bytes of `packed-refs`; none where there is no such file. Read as
/// every ref file here is, without blocking ([`crate::file::read`]): a FIFO
/// in its place is a reading that fails, not a wait.
fn packed_lines(common_dir: &Path) -> Reading<Vec<u8>> {
    let path = common_dir.join("packed-refs");
    match crate::file::read(&path) {
        Ok(b) => Ok(b),
        Err(e) if e.is_not_found() => Ok(Vec::new()),
        Err(e) => Err(Unread::io(e.to_string())),
    }
}

/// Whether git accepts `name` as a ref's name (its `check-ref-format`
/// rules; libgit2's `Reference::is_valid_name` says the same, at a cost
/// that showed with thousands of refs): no component empty or beginning
/// with `.` or ending with `.lock`; no `..`, `@{`, control character,
/// space or any of `~^:?*[\\`; not `@`, and not ending with `/` or `.`.
pub fn valid_refname(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || name == "@" || bytes.ends_with(b".") {
        return false;
    }
    // One pass (thousands of names are checked at every read), most bytes
    // settled by one look in a table: `start` is where the current
    // component began.
    let mut start = 0;
    let mut prev = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        match BYTE[usize::from(b)] {
            Byte::Plain => {}
            Byte::Forbidden => return false,
            Byte::Marked => {
                if (prev == b'.' && b == b'.') || (prev == b'@' && b == b'{') {
                    return false;
                }
                if b == b'/' {
                    if !component_ok(&bytes[start..i]) {
                        return false;
                    }
                    start = i + 1;
                }
            }
        }
        prev = b;
    }
    component_ok(&bytes[start..])
}

/// What a byte of a ref's name is to [`valid_refname`].
#[derive(Clone, Copy)]
enum Byte {
    Plain,
    /// Never in a ref's name: a control character, space, `~^:?*[\\`.
    Forbidden,
    /// Plain, except beside another (`..`, `@{`) or as a separator (`/`).
    Marked,
}

const BYTE: [Byte; 256] = {
    let mut table = [Byte::Plain; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            0..=0x1f | 0x7f | b' ' | b'~' | b'^' | b':' | b'?' | b'*' | b'[' | b'\\' => Byte::Forbidden,
            b'.' | b'@' | b'{' | b'/' => Byte::Marked,
            _ => Byte::Plain,
        };
        b += 1;
    }
    table
};

/// A component of a ref's name: not empty, not beginning with `.`, not
/// ending with `.lock`.
fn component_ok(c: &[u8]) -> bool {
    !c.is_empty() && c[0] != b'.' && !c.ends_with(b".lock")
}

/// One walk of a directory of loose refs.
struct Loose<'a> {
    /// What an earlier read kept.
    known: &'a mut Known,
    /// Files read now and settled: to be kept.
    fresh: Vec<(String, KnownFile)>,
    /// What to keep, in the order the walk met it.
    kept: Vec<Kept>,
    /// Where in `known` the next file met is looked for first.
    cursor: usize,
    /// `known`'s files by name, made once the walk's order left theirs.
    index: Option<HashMap<String, usize>>,
    /// Every loose ref file by name: its id, `None` where it is symbolic or
    /// broken (it hides its packed line).
    found: Vec<(String, Option<Oid>)>,
    /// The symbolic ones, with their change times ([`Tips::symbolic`]).
    symbolic: Vec<(String, i64)>,
    settled_ns: i128,
    /// The newest modification time seen (see [`Tips::newest_mtime_ns`]).
    newest: u64,
}

impl<'a> Loose<'a> {
    fn new(known: &'a mut Known, now: SystemTime) -> Self {
        let settled_ns = settled_ns(now);
        Loose {
            known,
            fresh: Vec::new(),
            kept: Vec::new(),
            cursor: 0,
            index: None,
            found: Vec::new(),
            symbolic: Vec::new(),
            settled_ns,
            newest: 0,
        }
    }

    /// Walks `dir`, whose ref name is `prefix` (restored on return).
    fn walk(&mut self, dir: &Path, prefix: &mut String) -> Reading<()> {
        let listing = |e: std::io::Error| Unread::io(format!("could not list {}: {e}", dir.display()));
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(listing(e)),
        };
        for entry in entries {
            let entry = entry.map_err(listing)?;
            let kind = entry.file_type().map_err(listing)?;
            // Every entry's own stamp (a link's, not its target's), the
            // ones that are no branch too: the fingerprint's newest.
            let meta = entry.metadata();
            if let Ok(meta) = &meta {
                self.newest = self.newest.max(mtime_ns(meta));
            }
            let file_name = entry.file_name();
            let Some(file_name) = file_name.to_str() else { continue };
            let base = prefix.len();
            prefix.push('/');
            prefix.push_str(file_name);
            let done = if kind.is_dir() {
                self.walk(&entry.path(), prefix)
            } else {
                meta.map_err(|e| Unread::io(format!("could not read {}: {e}", entry.path().display())))
                    .and_then(|meta| self.file(&entry, kind, &meta, prefix))
            };
            prefix.truncate(base);
            done?;
        }
        Ok(())
    }

    /// Where `known` holds the file `name`: first where the last walk met
    /// the next file, else by name (see [`Known`]).
    fn known_at(&mut self, name: &str) -> Option<usize> {
        let known = &*self.known;
        if self.cursor < known.len() && known.name(self.cursor) == name {
            self.cursor += 1;
            return Some(self.cursor - 1);
        }
        let index =
            self.index.get_or_insert_with(|| known.iter().enumerate().map(|(i, (n, _))| (n.to_string(), i)).collect());
        let i = *index.get(name)?;
        self.cursor = i + 1;
        Some(i)
    }

    /// One loose ref file, named `name`.
    fn file(
        &mut self,
        entry: &std::fs::DirEntry,
        kind: std::fs::FileType,
        meta: &std::fs::Metadata,
        name: &str,
    ) -> Reading<()> {
        if !valid_refname(name) {
            return Ok(());
        }
        let content = if kind.is_symlink() {
            // A link is read through, as git and libgit2 read it, and
            // never kept: its stamp is not its target's.
            crate::file::read(&entry.path()).ok().and_then(|bytes| parse(&bytes))
        } else {
            let stamp = FileStamp::of(meta);
            match self.known_at(name).filter(|&i| self.known.files[i].1.stamp == stamp) {
                Some(i) => {
                    self.kept.push(Kept::Known(i));
                    Some(self.known.files[i].1.id.map_or(Content::Symbolic, Content::Id))
                }
                None => {
                    // A FIFO, socket or device here is no ref file: refused
                    // at once, never waited on.
                    let read = match crate::file::read(&entry.path()) {
                        Ok(bytes) => parse(&bytes),
                        // Gone between the listing and the read: no branch.
                        Err(e) if e.is_not_found() => return Ok(()),
                        Err(e) => return Err(Unread::io(format!("could not read {name}: {e}"))),
                    };
                    if stamp.settled(self.settled_ns) {
                        let id = match &read {
                            Some(Content::Id(oid)) => Some(Some(*oid)),
                            Some(Content::Symbolic) => Some(None),
                            None => None,
                        };
                        if let Some(id) = id {
                            self.kept.push(Kept::Fresh(self.fresh.len()));
                            self.fresh.push((name.to_string(), KnownFile::new(stamp, id)));
                        }
                    }
                    read
                }
            }
        };
        let id = match content {
            Some(Content::Id(oid)) => Some(oid),
            // A symbolic or broken loose ref hides its packed line, as
            // in git.
            Some(Content::Symbolic) => {
                self.symbolic.push((name.to_string(), meta.ctime()));
                None
            }
            None => None,
        };
        self.found.push((name.to_string(), id));
        Ok(())
    }
}

/// One file to keep: the `known` entry read through, or a fresh reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kept {
    Known(usize),
    Fresh(usize),
}

enum Content {
    Id(Oid),
    Symbolic,
}

/// A loose ref file's content as git parses it: an id followed by nothing
/// or white space, or `ref: ` and a name; anything else is broken.
fn parse(bytes: &[u8]) -> Option<Content> {
    if bytes.starts_with(b"ref:") {
        return Some(Content::Symbolic);
    }
    let id = bytes.get(..40)?;
    match bytes.get(40) {
        None => {}
        Some(b) if b.is_ascii_whitespace() => {}
        Some(_) => return None,
    }
    parse_id(id).map(Content::Id)
}

/// A 40-digit hexadecimal object id (either case, as git reads one).
pub fn parse_id(id: &[u8]) -> Option<Oid> {
    if id.len() != 40 {
        return None;
    }
    let mut raw = [0u8; 20];
    for (byte, pair) in raw.iter_mut().zip(id.chunks_exact(2)) {
        let (high, low) = (HEX_DIGIT[usize::from(pair[0])], HEX_DIGIT[usize::from(pair[1])]);
        if (high | low) > 0xf {
            return None;
        }
        *byte = high << 4 | low;
    }
    Oid::from_bytes(&raw).ok()
}

/// Each byte's value as a hexadecimal digit (either case); `0xff`: none.
const HEX_DIGIT: [u8; 256] = {
    let mut table = [0xffu8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            d @ b'0'..=b'9' => d - b'0',
            d @ b'a'..=b'f' => d - b'a' + 10,
            d @ b'A'..=b'F' => d - b'A' + 10,
            _ => 0xff,
        };
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests;
