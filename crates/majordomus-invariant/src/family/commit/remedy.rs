//! The commit family's remedies as command lines: what, run as written by
//! `sh` in the working tree's root, settles `committed`, `no-untracked` and
//! `pushed`, or moves the question to its next honest state (README.md,
//! "Remedies that run as written"; test/cases/228 onwards follow each one
//! to the letter).
//!
//! Two rules shape them. A commit names the task's own paths, never a
//! sweeping `git add -A` that would take in what the start inherited. A push
//! names its remote and branch, because `git push` alone fails on a branch
//! with no upstream and does whatever `push.default` says on one whose
//! upstream has another name. Where no one line fits (a detached HEAD, no
//! remote to choose, a submodule to push from its own branch), the remedy
//! is advice that says what to do, and is marked as such.

use majordomus_readings::refs::RemoteEvidence;

use crate::prose::{shell_word, shell_words};
use crate::readings::Readings;

/// The longest command line given as a remedy: past it, the paths are left
/// to the evidence and the remedy is advice.
const LONGEST: usize = 4000;

/// Whether the paths are added before they are committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Add {
    /// Tracked already: committed as they are.
    No,
    /// Untracked: `git add --` first.
    Yes,
    /// Untracked, and one is hidden by an ignore rule set since the start:
    /// `git add -f --` first, as git refuses an ignored path otherwise.
    Forced,
}

/// `git`, or `git --literal-pathspecs` where a path reads as a pattern or
/// pathspec magic: each path is taken literally.
fn git_for(paths: &[&str]) -> &'static str {
    match paths.iter().any(|p| p.starts_with(':') || p.contains(['*', '?', '[', '\\'])) {
        true => "git --literal-pathspecs",
        false => "git",
    }
}

/// `git add -- PATHS && THEN`: the paths staged, then `then` run (an
/// operation in progress finished, which commits the whole index). `None`
/// with no paths, or past [`LONGEST`].
pub(crate) fn add_then(paths: &[&str], then: &str) -> Option<String> {
    if paths.is_empty() {
        return None;
    }
    let line = format!("{} add -- {} && {then}", git_for(paths), shell_words(paths));
    (line.len() <= LONGEST).then_some(line)
}

/// `git commit -- PATHS`, with `git add -- PATHS &&` before it when the
/// paths are untracked: the commit takes those paths' content and nothing
/// else the index holds. `None` past [`LONGEST`].
pub(crate) fn commit_paths(paths: &[&str], add: Add) -> Option<String> {
    if paths.is_empty() {
        return None;
    }
    let git = git_for(paths);
    let words = shell_words(paths);
    let line = match add {
        Add::No => format!("{git} commit -- {words}"),
        Add::Yes => format!("{git} add -- {words} && {git} commit -- {words}"),
        Add::Forced => format!("{git} add -f -- {words} && {git} commit -- {words}"),
    };
    (line.len() <= LONGEST).then_some(line)
}

/// `git rm --cached -q -- PATHS`: the index entries dropped, the files
/// left as they are. `None` with no paths, or past [`LONGEST`].
pub(crate) fn untrack_paths(paths: &[&str]) -> Option<String> {
    if paths.is_empty() {
        return None;
    }
    let line = format!("{} rm --cached -q -- {}", git_for(paths), shell_words(paths));
    (line.len() <= LONGEST).then_some(line)
}

/// `git reset -q -- PATHS`: the index put back as HEAD holds each path
/// (dropped where HEAD holds none), the working tree left as it is.
/// `None` with no paths, or past [`LONGEST`].
pub(crate) fn unstage_paths(paths: &[&str]) -> Option<String> {
    if paths.is_empty() {
        return None;
    }
    let line = format!("{} reset -q -- {}", git_for(paths), shell_words(paths));
    (line.len() <= LONGEST).then_some(line)
}

/// How a remedy names the branch or remote-tracking ref `full`: by its
/// short name, or in full where another ref of that short name is there
/// (`CommitReadings::shadowed`), which git would refuse as ambiguous or
/// read in its place.
pub(crate) fn named(full: &str, r: &Readings) -> String {
    let shadowed = r.commit.shadowed.as_ref().is_ok_and(|s| s.contains(full));
    match (shadowed, full.strip_prefix("refs/heads/").or_else(|| full.strip_prefix("refs/remotes/"))) {
        (false, Some(short)) => short.to_string(),
        _ => full.to_string(),
    }
}

/// The remote a remote-tracking ref belongs to: as the evidence names it,
/// else the first segment after `refs/remotes/`.
fn remote_of<'a>(refname: &'a str, evidence: Option<&'a RemoteEvidence>) -> Option<&'a str> {
    if let Some(t) = evidence.and_then(|e| e.get(refname)) {
        return Some(t.remote.as_str());
    }
    refname.strip_prefix("refs/remotes/")?.split('/').next()
}

/// The push that puts `branch`'s commits on a remote that counts: to its
/// upstream when that counts as evidence (`git push REMOTE BRANCH`, or
/// `BRANCH:UPSTREAM` where the names differ), else to `fallback` setting
/// the upstream (`git push -u REMOTE BRANCH`).
fn push_branch(branch: &str, r: &Readings, fallback: Option<&str>) -> Option<String> {
    let evidence = r.commit.evidence.as_ref().ok();
    let upstream = r
        .branches
        .as_ref()
        .ok()
        .and_then(|all| all.iter().find(|b| b.name == branch))
        .and_then(|b| b.upstream.as_ref());
    // The push to the upstream's remote, onto the upstream's branch.
    // The branch by its short name, or in full where another ref of that
    // name (a tag) makes git refuse it as ambiguous (test/cases/618).
    let src = named(&format!("refs/heads/{branch}"), r);
    let push = |u: &majordomus_readings::refs::Upstream| -> Option<(String, String)> {
        let remote = remote_of(&u.refname, evidence)?;
        let theirs = u.refname.strip_prefix(&format!("refs/remotes/{remote}/"))?;
        let spec = match theirs == branch {
            true => shell_word(&src),
            false => shell_word(&format!("{src}:{theirs}")),
        };
        Some((shell_word(remote), spec))
    };
    // An upstream a fetch found gone from its remote, its ref left here:
    // pushed again, the ref keeps its value and git writes no line into
    // it, so a fetch after the push says the remote has it (test/cases/579).
    let gone = upstream.filter(|u| u.exists && evidence.is_some_and(|e| e.gone_by_fetch.contains(&u.refname)));
    if let Some(u) = gone {
        let (remote, spec) = push(u)?;
        return Some(format!("git push {remote} {spec} && git fetch {remote}"));
    }
    let upstream = upstream.filter(|u| u.exists && evidence.is_some_and(|e| e.get(&u.refname).is_some()));
    if let Some(u) = upstream {
        let (remote, spec) = push(u)?;
        return Some(format!("git push {remote} {spec}"));
    }
    let remote = fallback?;
    let line = format!("git push -u {} {}", shell_word(remote), shell_word(&src));
    // A remote whose fetch refspecs map no ref onto the branch (a
    // `--single-branch` or `--depth` clone): the push writes no
    // remote-tracking ref, so nothing here would say the remote has it.
    // The refspec added, a fetch writes it (test/cases/587).
    match evidence.map_or(true, |e| e.maps_branch(remote, branch)) {
        true => Some(line),
        false => Some(format!(
            "{line} && git remote set-branches --add {0} {1} && git fetch {0}",
            shell_word(remote),
            shell_word(branch)
        )),
    }
}

/// The remote a branch with no counted upstream is pushed to: the trunk's
/// (the ref `pushed` first compared HEAD with), else the only remote.
fn default_remote<'a>(against: &'a str, r: &'a Readings) -> Option<&'a str> {
    let evidence = r.commit.evidence.as_ref().ok();
    if against.starts_with("refs/remotes/") {
        return remote_of(against, evidence);
    }
    match evidence.map(|e| e.remotes_now.as_slice()) {
        Some([only]) => Some(only.as_str()),
        _ => None,
    }
}

/// HEAD's branch's push `line`, where its upstream is not an ancestor of
/// HEAD (git rejects the plain push as non-fast-forward): on a branch that
/// is not the trunk's, whose upstream holds only the task's own earlier
/// commits (an amend or a rebase of what it pushed), the same push with
/// `--force-with-lease`, which still refuses where the remote moved since
/// the ref was read; anywhere else, advice to integrate first, as the
/// trunk is never force-pushed and a colleague's commits are not the
/// task's to overwrite (test/cases/543).
fn over_behind(branch: &str, line: String, r: &Readings) -> Result<String, String> {
    let Ok(Some(behind)) = &r.commit.behind else { return Ok(line) };
    let shown = behind.upstream.strip_prefix("refs/remotes/").unwrap_or(&behind.upstream);
    // In a command, the upstream in full where a branch or tag of its short
    // name would be read in its place (test/cases/618).
    let named_upstream = shell_word(&named(&behind.upstream, r));
    let trunk = match &r.integration.integrated {
        Ok(crate::family::integration::Integrated::Measured { trunk, .. }) => {
            trunk.refname == behind.upstream || trunk.branch == branch
        }
        // The trunk unread: a branch named as a trunk is taken for one.
        _ => matches!(branch, "main" | "master"),
    };
    match (behind.own_only, trunk) {
        (true, false) => match line.strip_prefix("git push ") {
            Some(rest) => Ok(format!("git push --force-with-lease {rest}")),
            None => Err(format!("{shown} is not an ancestor of HEAD: git rejects a plain push")),
        },
        (true, true) => Err(format!(
            "{shown} is not an ancestor of HEAD: the task rewrote commits it had pushed to the trunk, which is never force-pushed; put the change on top of {shown} as a new commit (git reset --soft {named_upstream} && git commit), then {line}"
        )),
        (false, _) => Err(format!(
            "{shown} is not an ancestor of HEAD: it holds commits HEAD lacks, so git rejects a plain push; integrate them first (git pull --rebase, or git fetch && git rebase {named_upstream}), then {line}"
        )),
    }
}

/// The push of each submodule's branch named, from the submodule, to the
/// remote the superproject names for it (`git -C lib push -u origin
/// helper`): `Ok` one line for them all, `Err` advice where one is a ref
/// other than a branch, or no remote of the submodule is the one named.
pub(crate) fn push_in_submodules(
    work: &[(&majordomus_readings::refs::in_submodules::Left, &majordomus_readings::refs::in_submodules::Unpushed)],
) -> Result<String, String> {
    let mut lines = Vec::new();
    for (left, w) in work {
        match (&left.remote, w.branch, left.checked_out) {
            (Some(remote), true, true) => lines.push(format!(
                "git -C {} push -u {} {}",
                shell_word(&left.path),
                shell_word(remote),
                shell_word(&w.name)
            )),
            _ => {
                return Err(format!(
                    "push each branch named from its submodule to the remote .gitmodules names for it (git -C {} push -u REMOTE BRANCH), put the commits a ref other than a branch keeps on a branch and push that, or, where they are not work to keep, delete the branch or ref there (git -C {0} branch -D BRANCH); a submodule no longer checked out is checked out again first (git submodule update --init {0})",
                    shell_word(&left.path)
                ))
            }
        }
    }
    Ok(lines.join(" && "))
}

/// The remedy of an owed `pushed`: `Ok` a command line pushing HEAD's
/// branch (when `head_owed`) and each branch named, `Err` advice when no
/// line fits.
pub(crate) fn push(
    r: &Readings,
    against: &str,
    head_owed: bool,
    branches: &[&str],
    submodules: &[&str],
) -> Result<String, String> {
    let advice = "git push -u REMOTE BRANCH for HEAD's branch and each branch named, git -C PATH push from a branch in each submodule named";
    if !submodules.is_empty() {
        return Err(format!(
            "{advice} (a submodule's commit is pushed from the submodule, on a branch: git -C {} switch -c BRANCH && git -C {0} push -u REMOTE BRANCH)",
            shell_word(submodules[0])
        ));
    }
    // A remote renamed since the start counts only under its start's name
    // (a push to it under the new one, or to the start's name, now
    // another remote or none, gives no evidence): the rename back first,
    // its refs then read as that remote's again (test/cases/573).
    if let Some(renamed) = r.commit.evidence.as_ref().ok().filter(|e| !e.renamed.is_empty()) {
        let back: Vec<String> = renamed.renamed.iter().map(majordomus_readings::refs::evidence::rename_back).collect();
        let line = back.join(" && ");
        return match renamed.renamed.iter().any(|n| n.then_taken) {
            true => Err(format!("{line}, NAME a name of your choosing for the remote now called so; then push")),
            false => Ok(line),
        };
    }
    let fallback = default_remote(against, r);
    let mut lines = Vec::new();
    if head_owed {
        let Some(branch) = r.head.as_ref().ok().and_then(|h| h.branch.as_deref()) else {
            return Err("HEAD is detached: put its commits on a branch and push that (git switch -c BRANCH && git push -u REMOTE BRANCH)".into());
        };
        let line = push_branch(branch, r, fallback)
            .ok_or_else(|| format!("{advice}: the remote to push to is yours to name"))?;
        lines.push(over_behind(branch, line, r)?);
    }
    for branch in branches {
        lines.push(
            push_branch(branch, r, fallback)
                .ok_or_else(|| format!("{advice}: the remote to push to is yours to name"))?,
        );
    }
    match lines.is_empty() {
        true => Err(advice.into()),
        false => Ok(lines.join(" && ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commit_names_each_path_as_one_shell_word_and_only_those() {
        assert_eq!(
            commit_paths(&["src/a.rs", "my file"], Add::No).as_deref(),
            Some("git commit -- src/a.rs 'my file'")
        );
        assert_eq!(commit_paths(&["n.txt"], Add::Yes).as_deref(), Some("git add -- n.txt && git commit -- n.txt"));
    }

    #[test]
    fn a_path_that_reads_as_a_pattern_is_taken_literally() {
        assert_eq!(commit_paths(&["a*b"], Add::No).as_deref(), Some("git --literal-pathspecs commit -- 'a*b'"));
        assert_eq!(untrack_paths(&["a b", "c"]).as_deref(), Some("git rm --cached -q -- 'a b' c"));
        assert_eq!(untrack_paths(&[]), None);
    }

    #[test]
    fn no_paths_or_too_many_to_say_give_no_command() {
        assert_eq!(commit_paths(&[], Add::No), None);
        let long: Vec<String> = (0..1000).map(|i| format!("some/long/path/{i}.rs")).collect();
        let long: Vec<&str> = long.iter().map(String::as_str).collect();
        assert_eq!(commit_paths(&long, Add::No), None);
    }
}
