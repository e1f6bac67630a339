//! A remote on this machine, read itself.
//!
//! A remote-tracking ref is this repository's word for what a remote
//! holds, and git writes it on its own say-so. A push under a push URL
//! given for one command (`git -c remote.origin.pushurl=ELSEWHERE push`,
//! or one set in a configuration file git reads and majordomus cannot, or
//! set and unset around the push) updates `origin/main` though origin
//! never saw the commit, and the reflog says `update by push`; a remote
//! re-pointed at this repository for one fetch (`git -c
//! url.HERE.insteadOf=ORIGIN fetch origin`) fills `origin/main` from
//! here, and the reflog says `fetch origin`. Nothing of either is left in
//! this repository to read.
//!
//! Where the remote is a repository on this machine (a path or a
//! `file://` URL), its word need not be taken: the remote's own branch is
//! read, and a remote-tracking ref counts only at a commit that branch
//! holds: its tip, or one its tip descends from (a ref behind its remote,
//! which someone else pushed to since the last fetch, is behind, not
//! wrong). A ref at a commit its remote's branch does not hold is read at
//! the branch's tip, named, where this repository has that commit, and is
//! set aside, named, where it has not; one whose branch the remote no
//! longer has is gone.
//! Whatever sits where the URL leads is read as the remote, so the start
//! records where that is (the repository git's transport finds, by its
//! canonical path and its git directory's inode, or none, or a network),
//! and a remote whose URL's text is the start's but leads elsewhere now
//! (a link re-pointed, the directory replaced by a copy, a repository made
//! where git finds it first) counts no more ([`led_elsewhere`]).
//! A remote across a network is left to its refs' word. One whose URL
//! names a path on this machine where there is no repository (removed
//! since the push, or never one) holds nothing: its refs moved since the
//! start are set aside, named (a ref at its start value holds no work of
//! the task's, and is left as it is).

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStringExt as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use git2::Oid;
use majordomus_records::names::Names;
use majordomus_records::task::{Bytes, Leads, RemoteAtStart, RepositoryAt};

use super::{local_path, path_of, refspec, repository_at, short, RemoteEvidence, SetAside, Tracking};
use crate::Repo;

/// A remote's fetch URL (as git rewrites it) and the refspecs that say
/// which of its refs each remote-tracking ref stands for.
pub(super) struct Remote {
    pub url: String,
    pub mapping: Vec<String>,
}

/// Reads every counted ref of a remote on this machine against the
/// remote's own branch (see the module's essay). A ref at its value at the
/// start (`start_refs`, where there is a task) is left to its word: it
/// can hold no commit made since, so it can make no work of the task's
/// look pushed, and reading each of a thousand upstreams in their remote
/// at every check would cost four system calls apiece.
pub(super) fn confirm(
    repo: &Repo,
    out: &mut RemoteEvidence,
    remotes: &BTreeMap<String, Remote>,
    start_refs: Option<&Names>,
    now: &BTreeMap<String, String>,
) {
    let mut opened: BTreeMap<String, Place> = BTreeMap::new();
    let mut kept = Vec::with_capacity(out.refs.len());
    for t in std::mem::take(&mut out.refs) {
        // Moved since the start with no reflog line to say how (its reflogs
        // expired: `git reflog expire --expire=now --all`), and so read at
        // its start value: where its remote is on this machine and the
        // remote's own branch holds the ref's commit now, what the ref says
        // is what the remote holds, and it counts at its value now (a ref
        // written by hand to a commit the remote lacks still does not).
        let moved_unlogged = t.at_start.is_some()
            && now.get(&t.refname).is_some_and(|c| *c != t.commit)
            && !out.shared.contains(&t.refname);
        if let (true, Some(remote), Some(commit)) = (moved_unlogged, remotes.get(&t.remote), now.get(&t.refname)) {
            if let Place::Here(_, theirs) = opened.entry(t.remote.clone()).or_insert_with(|| open(repo, &remote.url)) {
                let source = refspec::sources(&remote.mapping, &t.refname).into_iter().next();
                if source.is_some_and(|s| holds(theirs, theirs.refname_to_id(&s).ok(), commit)) {
                    kept.push(Tracking { commit: commit.clone(), at_start: None, ..t });
                    continue;
                }
            }
        }
        let at_start = start_refs.is_some_and(|r| r.get(&t.refname) == Some(&t.commit));
        let Some(remote) = remotes.get(&t.remote).filter(|_| !at_start) else {
            kept.push(t);
            continue;
        };
        let (path, theirs) = match opened.entry(t.remote.clone()).or_insert_with(|| open(repo, &remote.url)) {
            Place::Network => {
                kept.push(t);
                continue;
            }
            Place::Nothing(path, reason) => {
                let why = format!(
                    "{} says {} is there, but {}'s URL names {} on this machine, {reason}",
                    short(&t.refname),
                    abbrev(&t.commit),
                    t.remote,
                    path.display()
                );
                out.set_aside.push(SetAside { subject: t.refname, why, appeared: true });
                continue;
            }
            // A repository is there that cannot be read: what it holds is
            // unknown, not nothing (test/cases/612).
            Place::Unreadable(path, reason) => {
                let remote_why = format!("{}'s URL names {} on this machine, {reason}", t.remote, path.display());
                let why = format!("{} says {} is there, but {remote_why}", short(&t.refname), abbrev(&t.commit));
                out.unreadable.entry(t.remote.clone()).or_insert(remote_why);
                out.set_aside.push(SetAside { subject: t.refname, why, appeared: false });
                continue;
            }
            Place::Here(path, theirs) => (path, theirs),
        };
        let Some(source) = refspec::sources(&remote.mapping, &t.refname).into_iter().next() else {
            kept.push(t);
            continue;
        };
        let tip = theirs.refname_to_id(&source).ok();
        if holds(theirs, tip, &t.commit) {
            kept.push(t);
            continue;
        }
        let (name, branch) = (short(&t.refname).to_string(), short(&source).to_string());
        let why = match tip {
            None => format!(
                "{name} says {} is there, but {}'s own repository on this machine, {}, has no branch {branch}",
                abbrev(&t.commit),
                t.remote,
                path.display()
            ),
            Some(tip) => format!(
                "{name} says {}, but {}'s own repository on this machine, {}, holds {branch} at {}, which does not hold it",
                abbrev(&t.commit),
                t.remote,
                path.display(),
                abbrev(&tip.to_string())
            ),
        };
        match tip {
            // Read at what the remote holds, where this repository has it to
            // walk; named all the same.
            Some(tip) if repo.git.find_commit(tip).is_ok() => {
                let why = format!("{why}, so it is read at {}", abbrev(&tip.to_string()));
                out.set_aside.push(SetAside { subject: t.refname.clone(), why, appeared: false });
                kept.push(Tracking { commit: tip.to_string(), at_start: None, ..t });
            }
            Some(_) => {
                let why = format!("{why} (and holds commits this repository has not fetched)");
                out.set_aside.push(SetAside { subject: t.refname, why, appeared: false });
            }
            None => out.set_aside.push(SetAside { subject: t.refname, why, appeared: true }),
        }
    }
    out.refs = kept;
}

/// The branches of each remote on this machine in `remotes` (those that
/// count, with the fetch refspecs the start had) that no remote-tracking
/// ref here stands for, with their commits: no refspec maps the branch
/// (a `--single-branch` or `--depth` clone, test/cases/455), or the refs
/// they map it onto do not exist here (a push by URL, `git push
/// ../origin.git side:refs/heads/backup/side`, writes none; nor does a
/// branch deleted here with `git branch -dr` say the remote still has it,
/// test/cases/460). Only those whose tip is a commit this repository has
/// are kept: one it has not was made by no commit here (a colleague's
/// branch, not fetched), and asking which commits were made here costs a
/// walk. The remote's branches are listed once (its refs, not its
/// history); a remote across a network cannot be asked without the
/// network, and is not. A branch the start recorded beyond the refspecs
/// is left out by the caller: it was there before the task.
/// A remote on this machine that is a repository majordomus cannot read
/// (reftable, an extension or format version libgit2 does not know) is
/// added to `unreadable` with why: its branches are unknown, not none.
pub(super) fn beyond_refspecs(
    repo: &Repo,
    remotes: &BTreeMap<String, Remote>,
    now: &BTreeMap<String, String>,
    unreadable: &mut BTreeMap<String, String>,
) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let Ok(odb) = repo.git.odb() else { return out };
    for (name, remote) in remotes {
        let theirs = match open(repo, &remote.url) {
            Place::Here(_, theirs) => theirs,
            Place::Unreadable(path, reason) => {
                let why = format!("{name}'s URL names {} on this machine, {reason}", path.display());
                unreadable.entry(name.clone()).or_insert(why);
                continue;
            }
            Place::Network | Place::Nothing(..) => continue,
        };
        let Some(branches) = branches_beyond(&theirs, &remote.mapping, now) else { continue };
        for (branch, id) in branches {
            if odb.exists(id) {
                out.push((name.clone(), branch, id.to_string()));
            }
        }
    }
    out
}

/// The most branches beyond the refspecs the start keeps of one remote:
/// a `--single-branch` clone of a repository with thousands of branches
/// would otherwise write them all into the task record.
pub(super) const BEYOND_KEPT: usize = 2000;

/// The branches of the repository `url` names on this machine that no
/// ref in `now` stands for under `mapping`, each by its short name and
/// tip; `None` for a remote across a network or one that cannot be read.
/// Its branches are read as this repository's own are (`refs::local`: the
/// packed file's lines under the prefix, the loose files under
/// `refs/heads`), not through libgit2's glob, which reads and matches
/// every ref of the remote, its tags too.
pub(super) fn untracked_branches(
    repo: &Repo,
    url: &str,
    mapping: &[String],
    now: &BTreeMap<String, String>,
) -> Option<Vec<(String, Oid)>> {
    let Place::Here(_, theirs) = open(repo, url) else { return None };
    branches_beyond(&theirs, mapping, now)
}

/// [`untracked_branches`] of a remote opened.
fn branches_beyond(
    theirs: &git2::Repository,
    mapping: &[String],
    now: &BTreeMap<String, String>,
) -> Option<Vec<(String, Oid)>> {
    let mut known = crate::refs::local::Known::default();
    let now_time = std::time::SystemTime::now();
    let tips = crate::refs::local::read_under_at(theirs.commondir(), "refs/heads", &mut known, now_time).ok()?;
    let maps_onto = refspec::mapper(mapping);
    Some(
        tips.tips
            .iter()
            .filter(|(full, _)| !maps_onto(full.as_str()).iter().any(|d| now.contains_key(d)))
            .map(|(full, id)| (short(full).to_string(), *id))
            .collect(),
    )
}

/// Why a push to every one of `destinations` (the places `remote`'s
/// pushes go) cannot be read as `remote` holding `commit` on its branch
/// `source`, or `None` when each is a repository on this machine whose
/// branch holds it. git writes `update by push` into the remote-tracking
/// ref when any one destination accepted the push (test/cases/487); one
/// across a network cannot be read from here.
pub(super) fn unconfirmed(
    repo: &Repo,
    remote: &str,
    destinations: &[String],
    source: Option<&str>,
    commit: &str,
) -> Option<String> {
    let Some(source) = source else {
        return Some(format!("no branch of {remote}'s is mapped onto it by its refspecs to be read"));
    };
    let branch = short(source);
    destinations.iter().find_map(|d| match open(repo, d) {
        Place::Network => Some(format!("{d} is across a network, where what it holds cannot be read from here")),
        Place::Nothing(path, reason) | Place::Unreadable(path, reason) => {
            Some(format!("{d} names {} on this machine, {reason}", path.display()))
        }
        Place::Here(path, theirs) => (!holds(&theirs, theirs.refname_to_id(source).ok(), commit))
            .then(|| format!("the repository at {} holds no {branch} that holds {}", path.display(), abbrev(commit))),
    })
}

/// Where `url` leads on this machine now: across a network; to no
/// repository; or to the repository git's transport finds there
/// ([`repository_at`], as [`local_path`] finds it), canonical, with its
/// git directory's device and inode. A few stats, no repository opened:
/// it is read for every remote at every check.
pub(super) fn leads(root: &Path, url: &str) -> Leads {
    let Some(path) = path_of(root, url) else { return Leads::Network };
    let Some(found) = repository_at(&path) else { return Leads::Nothing };
    let meta = git_dir(&found).and_then(|g| std::fs::metadata(g).ok());
    match (found.canonicalize(), meta) {
        (Ok(canonical), Some(meta)) => Leads::Repository(RepositoryAt {
            path: Bytes(canonical.into_os_string().into_vec()),
            dev: meta.dev(),
            ino: meta.ino(),
        }),
        _ => Leads::Nothing,
    }
}

/// The git directory of a repository [`repository_at`] found: the
/// directory itself, or the one its `.git` file names (`gitdir: PATH`,
/// relative to the file's directory).
fn git_dir(found: &Path) -> Option<PathBuf> {
    if found.join("HEAD").is_file() && found.join("objects").is_dir() {
        return Some(found.to_path_buf());
    }
    let text = crate::file::read(&found.join(".git")).ok()?;
    let line = text.strip_prefix(b"gitdir: ")?;
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let named = PathBuf::from(std::ffi::OsString::from_vec(line.strip_suffix(b"\r").unwrap_or(line).to_vec()));
    Some(found.join(named))
}

/// A remote whose URL's text is the start's but which leads elsewhere on
/// this machine now: which URL, and where it led then and leads now.
pub(super) struct Elsewhere {
    /// `URL` or `push URL`.
    pub which: &'static str,
    pub url: String,
    pub then: String,
    pub now: String,
}

impl Elsewhere {
    /// Why the remote `name` is no evidence (`here`: that it is this
    /// repository itself now, or nothing).
    pub(super) fn why(&self, name: &str, here: &str) -> String {
        format!(
            "the {} of {name}, {}, is the start's, but it led on this machine at the start to {} and leads now to {}{here}, so its refs are read at their start values",
            self.which, self.url, self.then, self.now
        )
    }
}

/// Whether the remote `then` describes, configured now with the start's
/// URL text (`url`, and `push` for a push URL set at the start), leads
/// elsewhere on this machine than it did at the start: a symbolic link
/// in the path re-pointed (`ln -sfn copy.git origin.git`), the directory
/// replaced by a copy (`mv`, `git clone --bare`: another inode), a
/// repository made where git's transport now finds it first (`../origin`
/// beside `../origin.git`), one where there was none, none where there
/// was one (test/cases/459). Since a remote here is read itself, whatever
/// sits at the path now would otherwise be taken for the start's remote.
/// A record written before this was kept (`url_leads` unset) says
/// nothing: `None`.
pub(super) fn led_elsewhere(root: &Path, then: &RemoteAtStart, url: &str, push: &str) -> Option<Elsewhere> {
    let push_then = then.push_url.as_ref().and(then.push_url_leads.as_ref());
    [(then.url_leads.as_ref(), url, "URL"), (push_then, push, "push URL")].into_iter().find_map(
        |(before, text, which)| {
            let before = before?;
            let now = leads(root, text);
            (now != *before).then(|| {
                let (then, now) = places(before, &now);
                Elsewhere { which, url: text.to_string(), then, now }
            })
        },
    )
}

/// Where a URL led at the start and leads now, in words: the paths, and
/// where a path is the same, the inodes that tell the two apart.
fn places(then: &Leads, now: &Leads) -> (String, String) {
    let one = |leads: &Leads, same_path: bool| match leads {
        Leads::Network => "a URL across a network".to_string(),
        Leads::Nothing => "no repository".to_string(),
        Leads::Repository(r) if same_path => {
            format!("the repository at {} (device {}, inode {})", String::from_utf8_lossy(&r.path.0), r.dev, r.ino)
        }
        Leads::Repository(r) => format!("the repository at {}", String::from_utf8_lossy(&r.path.0)),
    };
    let same_path = matches!((then, now), (Leads::Repository(a), Leads::Repository(b)) if a.path == b.path);
    (one(then, same_path), one(now, same_path))
}

/// Where a remote's URL leads.
pub(super) enum Place {
    /// Across a network: the refs' word is all there is.
    Network,
    /// A repository on this machine, opened, and the path it was found at.
    Here(PathBuf, git2::Repository),
    /// A path on this machine where no repository can be opened, and why.
    Nothing(PathBuf, String),
    /// A repository on this machine that majordomus cannot read (its refs
    /// in the reftable format, an extension or a format version libgit2
    /// does not know), and why: what it holds is unknown, not nothing.
    Unreadable(PathBuf, String),
}

/// The repository `url` names on this machine, found as git finds it
/// ([`local_path`]), and opened.
fn open(repo: &Repo, url: &str) -> Place {
    open_from(repo.root(), url)
}

/// [`open`] of a URL given in the repository whose working tree is `root`
/// (a submodule's, which has no [`Repo`]).
pub(super) fn open_from(root: &Path, url: &str) -> Place {
    let Some(named) = path_of(root, url) else { return Place::Network };
    let Some(path) = local_path(root, url) else {
        return Place::Nothing(named, "where there is no repository".into());
    };
    let flags = git2::RepositoryOpenFlags::NO_SEARCH;
    match git2::Repository::open_ext(&path, flags, std::iter::empty::<&std::ffi::OsStr>()) {
        Ok(theirs) => Place::Here(path, theirs),
        Err(e) => match unreadable_at(&path, &e) {
            Some(reason) => Place::Unreadable(path, reason),
            None => Place::Nothing(path, format!("which cannot be read as a repository ({})", e.message())),
        },
    }
}

/// Why the repository at `path` (as [`local_path`] found it), which
/// libgit2 refused to open with `e`, is one majordomus cannot read
/// ([`unreadable`]); `None` where nothing says it is a repository.
pub(crate) fn unreadable_at(path: &Path, e: &git2::Error) -> Option<String> {
    git_dir(path).and_then(|g| unreadable(&g, e))
}

/// Why the repository whose git directory is `git_dir`, which libgit2
/// refused to open with `e`, is one majordomus cannot read, where its
/// configuration (its common directory's file alone, parsed) says it is a
/// repository in a format libgit2 does not know: refs in the reftable
/// format, an `extensions.*` it does not support, a newer
/// `core.repositoryformatversion`. `None` where it says nothing of the
/// kind (a directory that is no repository holds nothing).
fn unreadable(git_dir: &Path, e: &git2::Error) -> Option<String> {
    let common = match crate::file::read(&git_dir.join("commondir")) {
        Ok(c) => git_dir.join(String::from_utf8_lossy(&c).trim()),
        Err(_) => git_dir.to_path_buf(),
    };
    let config = git2::Config::open(&common.join("config")).ok()?;
    let refs = config.get_string("extensions.refstorage").ok();
    if refs.as_deref().is_some_and(|f| f.eq_ignore_ascii_case("reftable")) {
        return Some(format!(
            "a repository whose refs are stored in the reftable format (extensions.refStorage = reftable), which libgit2, the git library majordomus reads with, cannot read, so what it holds is unknown; store them as files there to have it read: git -C {} refs migrate --ref-format=files",
            crate::shell_word(&common.to_string_lossy())
        ));
    }
    let version = config.get_i64("core.repositoryformatversion").unwrap_or(0);
    let extension = config.entries(Some("extensions\\..*")).ok().and_then(|mut entries| {
        let mut names = Vec::new();
        while let Some(Ok(entry)) = entries.next() {
            names.extend(entry.name().map(str::to_string));
        }
        (!names.is_empty()).then(|| names.join(", "))
    });
    (version > 1 || (version == 1 && extension.is_some())).then(|| {
        let what = match extension {
            Some(names) if version == 1 => format!("extensions {names}"),
            _ => format!("repository format version {version}"),
        };
        format!(
            "a repository (its {what}) that libgit2, the git library majordomus reads with, cannot open ({}), so what it holds is unknown",
            e.message()
        )
    })
}

/// Whether a remote's branch at `tip` holds `commit`: its tip, or one its
/// tip descends from.
pub(super) fn holds(theirs: &git2::Repository, tip: Option<Oid>, commit: &str) -> bool {
    match (tip, Oid::from_str(commit)) {
        (Some(tip), Ok(c)) => tip == c || theirs.graph_descendant_of(tip, c).unwrap_or(false),
        _ => false,
    }
}

pub(super) fn abbrev(id: &str) -> &str {
    &id[..id.len().min(12)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    fn place(root: &Path, url: &str) -> String {
        match open_from(root, url) {
            Place::Network => "network".into(),
            Place::Here(..) => "here".into(),
            Place::Nothing(_, why) => format!("nothing: {why}"),
            Place::Unreadable(_, why) => format!("unreadable: {why}"),
        }
    }

    #[test]
    fn a_remote_in_a_format_libgit2_cannot_read_is_unreadable_not_nothing() {
        let t = TestRepo::new();
        let made = t
            .git_command(t.path())
            .args(["init", "-q", "--bare", "--ref-format=reftable", "r.git"])
            .output()
            .expect("run git");
        if made.status.success() {
            let p = place(t.path(), "r.git");
            assert!(p.starts_with("unreadable: ") && p.contains("reftable") && p.contains("refs migrate"), "{p}");
        }
        let made = t.git_command(t.path()).args(["init", "-q", "--bare", "e.git"]).output().expect("run git");
        assert!(made.status.success());
        assert_eq!(place(t.path(), "e.git"), "here");
        let config = t.path().join("e.git").join("config");
        let text = std::fs::read_to_string(&config)
            .expect("read")
            .replace("repositoryformatversion = 0", "repositoryformatversion = 1");
        std::fs::write(&config, format!("{text}[extensions]\n\tfutureThing = true\n")).expect("write");
        let p = place(t.path(), "e.git");
        assert!(p.starts_with("unreadable: ") && p.contains("extensions.futurething"), "{p}");
        let text = std::fs::read_to_string(&config)
            .expect("read")
            .replace("repositoryformatversion = 1", "repositoryformatversion = 7");
        std::fs::write(&config, text.replace("[extensions]\n\tfutureThing = true\n", "")).expect("write");
        let p = place(t.path(), "e.git");
        assert!(p.starts_with("unreadable: ") && p.contains("repository format version 7"), "{p}");
        // A directory that is no repository holds nothing.
        std::fs::create_dir_all(t.path().join("plain")).expect("mkdir");
        assert!(place(t.path(), "plain").starts_with("nothing: "), "{}", place(t.path(), "plain"));
    }
}
