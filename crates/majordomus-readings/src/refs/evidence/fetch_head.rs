//! What the last fetch said the remote held: `FETCH_HEAD`.
//!
//! A reflog line `fetch origin: fast-forward` keeps the command's words,
//! not the refspecs configured for it, so `remote.origin.fetch` set to map
//! `feature` onto `origin/main` for one fetch and put back before the
//! check leaves a line that reads like any fetch (`refspec.rs`). The fetch
//! also writes `FETCH_HEAD` in the git directory it ran from: one line per
//! remote ref it fetched, `SHA<TAB>[not-for-merge]<TAB>branch 'main' of
//! URL`, and a fetch of a branch's remote lists that branch's upstream
//! there too. So where a `FETCH_HEAD` written no earlier than the ref's
//! newest reflog line says the remote's `main` was at one commit while the
//! ref that stands for it (under the start's refspecs) holds another, the
//! fetch did not write the remote's `main` into it (test/cases/303).
//!
//! A `FETCH_HEAD` that does not name the branch says nothing either way:
//! a fetch put back and followed by a fetch of another branch alone, whose
//! `FETCH_HEAD` replaces it, is still not seen (README.md, "What counts as
//! on a remote"). Nothing here runs git.

use std::path::PathBuf;

use crate::Repo;

/// One line of a `FETCH_HEAD`: a branch of a remote and the commit fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Fetched {
    pub commit: String,
    /// `refs/heads/NAME`.
    pub branch: String,
    /// The remote's URL as git shows it there (`.git` and a trailing `/`
    /// dropped).
    pub url: String,
    /// When its file was written (seconds).
    pub written: i64,
    /// Which file it was read from (an index into the files read).
    pub file: usize,
    /// Whether the fetch marked it for a merge: a fetch given its refspecs
    /// marks every line so, one by the configured refspecs only the
    /// current branch's upstream, the rest `not-for-merge`.
    pub for_merge: bool,
}

/// Every branch line of every `FETCH_HEAD` of the repository's worktrees
/// (the main one's, and each linked one's). A file that cannot be read is
/// no line.
pub(super) fn read(repo: &Repo) -> Vec<Fetched> {
    let common = repo.common_dir();
    let mut files: Vec<PathBuf> = vec![common.join("FETCH_HEAD"), repo.git_dir().join("FETCH_HEAD")];
    if let Ok(entries) = std::fs::read_dir(common.join("worktrees")) {
        files.extend(entries.flatten().map(|e| e.path().join("FETCH_HEAD")));
    }
    files.sort();
    files.dedup();
    let mut out = Vec::new();
    for (index, file) in files.into_iter().enumerate() {
        let Ok(meta) = std::fs::symlink_metadata(&file) else { continue };
        if !meta.is_file() || meta.len() > 16 * 1024 * 1024 {
            continue;
        }
        let Some(text) = crate::file::read(&file).ok().and_then(|b| String::from_utf8(b).ok()) else { continue };
        let written = std::os::unix::fs::MetadataExt::mtime(&meta);
        out.extend(text.lines().filter_map(|l| parse(l, written)).map(|f| Fetched { file: index, ..f }));
    }
    out
}

fn parse(line: &str, written: i64) -> Option<Fetched> {
    let mut fields = line.splitn(3, '\t');
    let (commit, mark, what) = (fields.next()?, fields.next()?, fields.next()?);
    let rest = what.strip_prefix("branch '")?;
    let (name, url) = rest.split_once("' of ")?;
    Some(Fetched {
        commit: commit.to_string(),
        branch: format!("refs/heads/{name}"),
        url: shown(url),
        written,
        file: 0,
        for_merge: mark != "not-for-merge",
    })
}

/// A URL as `FETCH_HEAD` shows it: without a trailing `/` or `.git`.
impl Fetched {
    /// Whether its file was written no earlier than `since` (a reflog
    /// line's time, in seconds, from the wall clock): a second's leeway,
    /// since the file system stamps a file from a coarser clock, which can
    /// read the second before the wall clock's at the same moment (a
    /// fetch's `FETCH_HEAD` then reads older than the ref line it wrote
    /// just before).
    fn since(&self, since: i64) -> bool {
        self.written.saturating_add(1) >= since
    }
}

pub(super) fn shown(url: &str) -> String {
    let url = url.trim_end_matches('/');
    url.strip_suffix(".git").unwrap_or(url).trim_end_matches('/').to_string()
}

/// The line of `fetched` that contradicts `refname` holding `commit`: of
/// the remote at `url`, written no earlier than `since` (the ref's newest
/// reflog line), for a branch the start's refspecs `mapping` map onto
/// `refname`, at another commit, where no such line is at `commit` (two
/// worktrees' fetches in one second).
pub(super) fn contradiction<'a>(
    fetched: &'a [Fetched],
    refname: &str,
    commit: &str,
    since: i64,
    url: &str,
    mapping: &[String],
) -> Option<&'a Fetched> {
    let url = shown(url);
    let said: Vec<&Fetched> = fetched
        .iter()
        .filter(|f| {
            f.url == url && f.since(since) && super::refspec::maps_onto(mapping, &f.branch).iter().any(|r| r == refname)
        })
        .collect();
    if said.iter().any(|f| f.commit == commit) {
        return None;
    }
    said.into_iter().next()
}

/// Whether a line of `fetched` of the remote at `url`, written no
/// earlier than `since` (the ref's newest reflog line, a push), says a
/// branch the start's refspecs `mapping` map onto `refname` was at
/// `commit`: a fetch since the push found there what the push left. A
/// fetch that finds the ref already at that commit writes no reflog line
/// of its own, only this (test/cases/487).
pub(super) fn confirms(
    fetched: &[Fetched],
    refname: &str,
    commit: &str,
    since: i64,
    url: &str,
    mapping: &[String],
) -> bool {
    let url = shown(url);
    fetched.iter().any(|f| {
        f.url == url
            && f.since(since)
            && f.commit == commit
            && super::refspec::maps_onto(mapping, &f.branch).iter().any(|r| r == refname)
    })
}

/// Whether a line of `fetched` of the remote at `url`, written no earlier
/// than `since` (the fetch's reflog line), says the remote's branch `name`
/// was at `commit`: a fetch given `name` unqualified found the branch, not
/// a tag or another ref git resolves that name to first (a `tag 'NAME'`
/// line is no branch line, and is not read).
pub(super) fn found_branch(fetched: &[Fetched], name: &str, commit: &str, since: i64, url: &str) -> bool {
    let (url, branch) = (shown(url), format!("refs/heads/{name}"));
    fetched.iter().any(|f| f.url == url && f.since(since) && f.commit == commit && f.branch == branch)
}

/// The lines of the newest `FETCH_HEAD` file that fetched a remote, by
/// the remote's URL as `FETCH_HEAD` shows it: grouped once, so that a
/// thousand upstreams each ask in constant time.
pub(super) struct Newest<'a> {
    /// The file's lines of that remote.
    pub lines: Vec<&'a Fetched>,
    branches: std::collections::HashSet<&'a str>,
}

/// [`Newest`] of every remote `fetched` names.
pub(super) fn newest_by_url(fetched: &[Fetched]) -> std::collections::HashMap<&str, Newest<'_>> {
    let mut newest: std::collections::HashMap<&str, (i64, usize)> = std::collections::HashMap::new();
    for f in fetched {
        let at = newest.entry(f.url.as_str()).or_insert((f.written, f.file));
        *at = (*at).max((f.written, f.file));
    }
    let mut out: std::collections::HashMap<&str, Newest<'_>> = std::collections::HashMap::new();
    for f in fetched.iter().filter(|f| newest.get(f.url.as_str()) == Some(&(f.written, f.file))) {
        let n = out.entry(f.url.as_str()).or_insert_with(|| Newest { lines: Vec::new(), branches: Default::default() });
        n.lines.push(f);
        n.branches.insert(f.branch.as_str());
    }
    out
}

impl Newest<'_> {
    /// Whether this `FETCH_HEAD` says its remote no longer has `branch`:
    /// written after `since` (the ref's newest reflog line, strictly: a
    /// fetch in the same second may have come before it), by a fetch of
    /// the remote's branches under its configured refspecs (which map
    /// `branch` onto the ref, or the caller would not ask), listing other
    /// branches of the remote and not `branch`. A fetch given its
    /// refspecs (`git fetch origin main`) lists only what it was given,
    /// and marks every line for a merge; one by the configured refspecs
    /// marks all but the current branch's upstream `not-for-merge`. Where
    /// every line is marked for a merge (a `git pull` on main, the
    /// remote's only branch), `by_configured` is asked of the lines: a
    /// reflog line that fetch wrote saying it was given no refspec.
    pub(super) fn omits(&self, branch: &str, since: i64, by_configured: impl Fn(&[&Fetched]) -> bool) -> bool {
        let Some(first) = self.lines.first() else { return false };
        first.written > since
            && !self.branches.contains(branch)
            && (self.lines.iter().any(|f| !f.for_merge) || by_configured(&self.lines))
    }
}

/// Whether a reflog message is a fetch's or a pull's (a push's line says
/// nothing `FETCH_HEAD` could contradict).
pub(super) fn is_fetch(message: &str) -> bool {
    message.starts_with("fetch") || message.starts_with("pull")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetch_by_the_configured_refspecs_that_lists_other_branches_omits_a_deleted_one() {
        let a = "a".repeat(40);
        let lines = |text: &str, written: i64, file: usize| -> Vec<Fetched> {
            text.lines().filter_map(|l| parse(l, written)).map(|f| Fetched { file, ..f }).collect()
        };
        let omits = |fetched: &[Fetched], url: &str, branch: &str, since: i64, configured: bool| {
            newest_by_url(fetched).get(shown(url).as_str()).is_some_and(|n| n.omits(branch, since, |_| configured))
        };
        let configured = format!("{a}\tnot-for-merge\tbranch 'main' of /srv/origin\n");
        let fetched = lines(&configured, 100, 0);
        assert!(omits(&fetched, "/srv/origin.git", "refs/heads/feat", 99, false));
        assert!(!omits(&fetched, "/srv/origin", "refs/heads/main", 99, false), "listed");
        assert!(!omits(&fetched, "/srv/origin", "refs/heads/feat", 100, false), "the same second");
        assert!(!omits(&fetched, "/srv/other", "refs/heads/feat", 99, false), "another remote");
        // Every line for a merge: a fetch given `main`, unless its reflog
        // line says it was given no refspec.
        let given = lines(&format!("{a}\t\tbranch 'main' of /srv/origin\n"), 100, 0);
        assert!(!omits(&given, "/srv/origin", "refs/heads/feat", 99, false));
        assert!(omits(&given, "/srv/origin", "refs/heads/feat", 99, true));
        // The newest file of the remote counts: a later fetch listing it.
        let mut both = lines(&configured, 100, 0);
        both.extend(lines(&format!("{a}\tnot-for-merge\tbranch 'feat' of /srv/origin\n"), 101, 1));
        assert!(!omits(&both, "/srv/origin", "refs/heads/feat", 99, false));
        assert_eq!(newest_by_url(&both).get("/srv/origin").map(|n| n.lines[0].written), Some(101));
    }

    #[test]
    fn a_branch_line_is_read_and_a_fetch_that_found_the_refs_commit_contradicts_nothing() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let text = format!(
            "{a}\t\tbranch 'main' of /srv/origin\n{b}\tnot-for-merge\tbranch 'feature' of /srv/origin\n{b}\tnot-for-merge\ttag 'v1' of /srv/origin\n"
        );
        let fetched: Vec<Fetched> = text.lines().filter_map(|l| parse(l, 100)).collect();
        assert_eq!(fetched.len(), 2);
        assert_eq!((fetched[1].branch.as_str(), fetched[1].url.as_str()), ("refs/heads/feature", "/srv/origin"));
        let mapping = vec!["+refs/heads/*:refs/remotes/origin/*".to_string()];
        let main = "refs/remotes/origin/main";
        let found = contradiction(&fetched, main, &b, 100, "/srv/origin.git/", &mapping);
        assert_eq!(found.map(|f| f.commit.as_str()), Some(a.as_str()), "origin's main was at a, the ref holds b");
        assert!(contradiction(&fetched, main, &a, 100, "/srv/origin.git", &mapping).is_none());
        assert!(contradiction(&fetched, main, &b, 102, "/srv/origin.git", &mapping).is_none(), "older than the line");
        assert!(
            contradiction(&fetched, main, &b, 101, "/srv/origin.git", &mapping).is_some(),
            "a second's leeway for the file system's coarser clock"
        );
        assert!(contradiction(&fetched, main, &b, 100, "/srv/other", &mapping).is_none(), "another remote");
        assert!(found_branch(&fetched, "feature", &b, 100, "/srv/origin.git"));
        assert!(!found_branch(&fetched, "v1", &b, 100, "/srv/origin"), "a tag line is no branch's");
        assert!(!found_branch(&fetched, "main", &b, 100, "/srv/origin"), "main was at a");
        assert!(!found_branch(&fetched, "feature", &b, 102, "/srv/origin"), "older than the line");
        assert!(found_branch(&fetched, "feature", &b, 101, "/srv/origin"), "a second's leeway");
    }
}
