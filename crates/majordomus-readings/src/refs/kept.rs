//! Refs other than branches written since the start, and the commits
//! they keep.
//!
//! Any ref keeps a commit, not only a branch: a tag, or a ref of the
//! worker's own naming (`git update-ref refs/wip/x HEAD`, then `git reset
//! --hard HEAD~1`; `git stash create` stored there). HEAD's reflog
//! attributes a tag's commit made here ([`super::attribution`]), but it
//! names none of a ref's commit made in a linked worktree created since
//! the start and removed again (its own HEAD's reflog went with it), and
//! tags are all it reads. So every ref written since the start is read,
//! whatever its namespace, and the commits it holds that no branch held
//! at the start and no counted remote-tracking ref holds are owed a push
//! like a branch's (test/cases/322).
//!
//! "Written since the start" is read from the ref's file: a loose ref
//! whose change time (which no call sets back) or modification time is
//! the start's second or later. A packed ref has no stamp of its own, so
//! the start records a digest of the packed refs read here
//! ([`packed_digest`]): where `packed-refs` changed since and the digest
//! is another (a `git pack-refs` or `git gc` since, a packed tag deleted
//! or moved), every packed one is read, and a commit no branch held at the
//! start is owed whoever made it (a record without the digest is read the
//! same). Unchanged, the cost is one listing of the refs outside
//! `refs/heads` and `refs/remotes` and a stamp of each.
//!
//! Every worktree's own refs are read the same: git keeps `refs/bisect`,
//! `refs/rewritten` and `refs/worktree` apart for each (a linked one's in
//! `worktrees/NAME/refs` of the common directory, the main one's in the
//! common directory's own), never packed, and writes another's as
//! `worktrees/NAME/refs/...` or `main-worktree/refs/...`; they are read
//! under those names. A peer's (the main worktree's from a linked one, or
//! a linked one there at the start) counts only for the commits this
//! worktree made, as its branch does ([`Written::mine_only`],
//! test/cases/498). The cost is one listing of `worktrees` and of three
//! directories in each worktree's git directory.
//!
//! Not read, each read elsewhere: branches, remote-tracking refs
//! (evidence, and those that are not evidence: [`super::attribution`]),
//! `refs/stash` (`no-stash`). Where git's own tools write
//! refs that keep no work of the task's (`refs/notes`: notes; `refs/bisect`
//! and `refs/rewritten`: a bisect's and a rebase's marks; `refs/replace`;
//! `refs/prefetch`: git maintenance's copies of the remotes' branches), a
//! ref counts only at a commit this worktree made since the start, and
//! then for those commits: the ones HEAD's reflog shows it making, and
//! the loose commits written since under the repository's own address
//! whose tree holds more than notes, which no reflog need name
//! ([`Written::made_here_only`], `attribution::loose_work`; packed or
//! not, and left out of the digest): work parked there with `git
//! update-ref refs/notes/wip HEAD` is still owed (test/cases/327), with
//! reflogs off or HEAD's lines deleted too (test/cases/448).

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use git2::{ObjectType, Oid};
use majordomus_records::task::TaskRecord;

use crate::{Reading, Repo, Unread};

/// The refs (and their prefixes) this reading leaves to others.
const NOT_READ: &[&str] = &["refs/heads/", "refs/remotes/", "refs/stash"];

/// The refs git keeps for each worktree apart (in its own git directory;
/// the main worktree's in the common one), never packed.
const PER_WORKTREE: &[&str] = &["refs/bisect/", "refs/rewritten/", "refs/worktree/"];

/// Where git's own tools write refs that keep no work of the task's.
const TOOLS: &[&str] = &["refs/bisect/", "refs/rewritten/", "refs/notes/", "refs/replace/", "refs/prefetch/"];

fn under(list: &[&str], name: &str) -> bool {
    list.iter().any(|p| name == p.trim_end_matches('/') || (p.ends_with('/') && name.starts_with(p)))
}

/// [`read_here`] for a name as `packed-refs` holds it (a line may end in
/// `\r`); one that is not UTF-8 is no ref's.
fn read_here_bytes(name: &[u8]) -> bool {
    let name = name.strip_suffix(b"\r").unwrap_or(name);
    std::str::from_utf8(name).is_ok_and(read_here)
}

fn read_here(name: &str) -> bool {
    !under(NOT_READ, name)
}

/// The refs written since the start, by full name, each with the commit
/// it names (an annotated tag peeled), and whether every packed ref was
/// read (`packed-refs` changed since the start in what it holds here).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    pub refs: Vec<(String, Oid)>,
    pub all_packed: bool,
    /// Those of `refs` that are a peer worktree's own (the main worktree's
    /// from a linked one, or a linked worktree's there at the start), sorted.
    pub peers: Vec<String>,
}

impl Written {
    /// Whether `name` lies where git's own tools write refs (in this
    /// worktree or, named `worktrees/NAME/...` or `main-worktree/...`, in
    /// another), so that it counts only for the commits made here.
    pub fn made_here_only(name: &str) -> bool {
        under(TOOLS, own_part(name))
    }

    /// Whether the ref `name` counts only for the commits made here: one
    /// under git's tools' names, or a peer worktree's own (its work there
    /// is its own, as its branch's is: test/cases/430, 498).
    pub fn mine_only(&self, name: &str) -> bool {
        Self::made_here_only(name) || self.is_peers(name)
    }

    /// Whether the ref `name` is a peer worktree's own.
    pub fn is_peers(&self, name: &str) -> bool {
        self.peers.binary_search_by(|p| p.as_str().cmp(name)).is_ok()
    }
}

/// The worktree (`main`, or a linked one's name) whose own ref `name` is,
/// where it is written as another's (`main-worktree/...`,
/// `worktrees/NAME/...`).
pub fn worktree_of(name: &str) -> Option<&str> {
    if name.starts_with("main-worktree/") {
        return Some("main");
    }
    name.strip_prefix("worktrees/").and_then(|r| r.split_once('/')).map(|(w, _)| w)
}

/// The name a worktree's ref has in that worktree: `name` without the
/// `main-worktree/` or `worktrees/NAME/` git reads another's through.
fn own_part(name: &str) -> &str {
    if let Some(rest) = name.strip_prefix("main-worktree/") {
        return rest;
    }
    name.strip_prefix("worktrees/").and_then(|r| r.split_once('/')).map_or(name, |(_, rest)| rest)
}

/// A digest of the packed refs read here (names and ids), which `start`
/// records: the same digest later says none of them changed.
pub fn packed_digest(common_dir: &Path) -> Reading<String> {
    let packed = super::local::packed_where(common_dir, read_here_bytes)?;
    Ok(digest(&packed))
}

fn digest(packed: &[(String, Oid, Option<Oid>)]) -> String {
    let mut text = String::new();
    for (name, id, _) in packed.iter().filter(|(n, _, _)| read_here(n) && !Written::made_here_only(n)) {
        text.push_str(&crate::hex(*id));
        text.push(' ');
        text.push_str(name);
        text.push('\n');
    }
    Oid::hash_object(ObjectType::Blob, text.as_bytes()).map_or_else(|_| String::new(), |d| d.to_string())
}

/// The refs written since the task's start (see the module's note).
pub fn written_since(repo: &Repo, record: &TaskRecord) -> Reading<Written> {
    let since_ns = match record.started_at() {
        Ok(at) => i128::from(at.timestamp()) * 1_000_000_000,
        Err(_) => 0,
    };
    let mut found: Vec<(String, Oid)> = Vec::new();
    let mut peers: Vec<String> = Vec::new();
    let linked = repo.git_dir() != repo.common_dir();
    // In a linked worktree, the common directory's per-worktree refs are
    // the main worktree's, read below under its name.
    let skip: &[&str] = if linked { PER_WORKTREE } else { &[] };
    walk(&repo.common_dir().join("refs"), &mut "refs".to_string(), since_ns, skip, &mut found)?;
    if linked {
        per_worktree(repo.git_dir(), "", since_ns, &mut found)?;
        let at = found.len();
        per_worktree(repo.common_dir(), "main-worktree/", since_ns, &mut found)?;
        peers.extend(found[at..].iter().map(|(n, _)| n.clone()));
    }
    let own = if linked { repo.git_dir().file_name() } else { None };
    for name in other_worktrees(repo.common_dir(), own)? {
        let at = found.len();
        per_worktree(
            &repo.common_dir().join("worktrees").join(&name),
            &format!("worktrees/{name}/"),
            since_ns,
            &mut found,
        )?;
        // One made since the start is no peer: it may be this task's.
        let peer = record.snapshot.worktrees.as_ref().map_or(true, |w| w.contains_key(&name));
        if peer {
            peers.extend(found[at..].iter().map(|(n, _)| n.clone()));
        }
    }
    let mut all_packed = false;
    let packed_path = repo.common_dir().join("packed-refs");
    if let Ok(meta) = std::fs::symlink_metadata(&packed_path) {
        if stamp_ns(&meta) >= since_ns {
            let packed = super::local::packed_where(repo.common_dir(), read_here_bytes)?;
            // Where git's tools write, every packed ref is read (only one at
            // a commit HEAD pointed at since the start counts); elsewhere,
            // every packed one where the digest says they changed.
            let changed = record.snapshot.packed_refs.as_deref() != Some(digest(&packed).as_str());
            all_packed = changed;
            for (name, id, peeled) in packed {
                if (changed || Written::made_here_only(&name)) && !found.iter().any(|(n, _)| *n == name) {
                    found.push((name, peeled.unwrap_or(id)));
                }
            }
        }
    }
    let mut refs = Vec::with_capacity(found.len());
    for (name, id) in found {
        // A ref naming no commit (a tag of a blob or tree) keeps no work.
        if let Ok(commit) = repo.git.find_object(id, None).and_then(|o| o.peel_to_commit()) {
            refs.push((name, commit.id()));
        }
    }
    refs.sort();
    peers.sort();
    Ok(Written { refs, all_packed, peers })
}

/// The per-worktree refs (`refs/bisect`, `refs/rewritten`,
/// `refs/worktree`) a worktree's git directory `dir` holds, written since
/// `since_ns`, each named as git names it from here: `shown` before it
/// (`worktrees/NAME/`, `main-worktree/`, or nothing for this worktree's
/// own). Git never packs these, so their files are all there is.
fn per_worktree(dir: &Path, shown: &str, since_ns: i128, found: &mut Vec<(String, Oid)>) -> Reading<()> {
    let mut here = Vec::new();
    for root in PER_WORKTREE {
        let root = root.trim_end_matches('/');
        walk(&dir.join(root), &mut root.to_string(), since_ns, &[], &mut here)?;
    }
    found.extend(here.into_iter().map(|(name, id)| (format!("{shown}{name}"), id)));
    Ok(())
}

/// The names of the linked worktrees other than `own` whose git
/// directories the common directory holds (`worktrees/NAME`), sorted.
fn other_worktrees(common_dir: &Path, own: Option<&std::ffi::OsStr>) -> Reading<Vec<String>> {
    let dir = common_dir.join("worktrees");
    let listing = |e: std::io::Error| Unread::io(format!("could not list {}: {e}", dir.display()));
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(listing(e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(listing)?;
        if Some(entry.file_name().as_os_str()) == own || !entry.file_type().map_err(listing)?.is_dir() {
            continue;
        }
        if let Some(name) = entry.file_name().to_str() {
            out.push(name.to_string());
        }
    }
    out.sort();
    Ok(out)
}

/// The newer of a file's change and modification times, in ns.
fn stamp_ns(meta: &std::fs::Metadata) -> i128 {
    let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
    ns(meta.ctime(), meta.ctime_nsec()).max(ns(meta.mtime(), meta.mtime_nsec()))
}

/// Every loose ref under `dir` (named `prefix`) read here whose file was
/// written since `since_ns`, with its id; those under `skip` left out (in
/// a linked worktree, the main worktree's per-worktree refs, read under
/// their own name).
fn walk(dir: &Path, prefix: &mut String, since_ns: i128, skip: &[&str], found: &mut Vec<(String, Oid)>) -> Reading<()> {
    let listing = |e: std::io::Error| Unread::io(format!("could not list {}: {e}", dir.display()));
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(listing(e)),
    };
    for entry in entries {
        let entry = entry.map_err(listing)?;
        let Some(file_name) = entry.file_name().to_str().map(str::to_string) else { continue };
        let base = prefix.len();
        prefix.push('/');
        prefix.push_str(&file_name);
        let name = prefix.clone();
        prefix.truncate(base);
        let skipped = under(skip, &name) || NOT_READ.iter().any(|p| name == p.trim_end_matches('/'));
        if skipped {
            continue;
        }
        let kind = entry.file_type().map_err(listing)?;
        if kind.is_dir() {
            let mut sub = name.clone();
            walk(&entry.path(), &mut sub, since_ns, skip, found)?;
            continue;
        }
        if !read_here(&name) || !super::local::valid_refname(&name) {
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        if stamp_ns(&meta) < since_ns {
            continue;
        }
        // Read without waiting (a FIFO here is refused, not waited on).
        let bytes = match crate::file::read(&entry.path()) {
            Ok(b) => b,
            Err(e) if e.is_not_found() => continue,
            Err(e) => return Err(Unread::io(format!("could not read {name}: {e}"))),
        };
        if let Some(id) = super::local::parse_id(bytes.trim_ascii_end()) {
            found.push((name, id));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branches_remotes_and_the_records_other_questions_read_are_not_read_here() {
        for name in ["refs/heads/x", "refs/remotes/origin/main", "refs/stash"] {
            assert!(!read_here(name), "{name}");
        }
        for name in ["refs/notes/commits", "refs/bisect/bad", "refs/prefetch/remotes/origin/main"] {
            assert!(read_here(name) && Written::made_here_only(name), "{name}");
        }
        assert!(!Written::made_here_only("refs/tags/wip"));
        // Another worktree's own refs, named as git names them from here.
        assert!(Written::made_here_only("worktrees/peer/refs/bisect/keep"));
        assert!(Written::made_here_only("main-worktree/refs/rewritten/x"));
        assert!(!Written::made_here_only("worktrees/peer/refs/worktree/wip"));
        assert_eq!(worktree_of("worktrees/peer/refs/worktree/wip"), Some("peer"));
        assert_eq!(worktree_of("main-worktree/refs/worktree/wip"), Some("main"));
        assert_eq!(worktree_of("refs/worktree/wip"), None);
        for name in
            ["refs/tags/wip", "refs/wip/x", "refs/worktree/keep", "refs/stashes/x", "refs/original/refs/heads/a"]
        {
            assert!(read_here(name), "{name}");
        }
    }
}
