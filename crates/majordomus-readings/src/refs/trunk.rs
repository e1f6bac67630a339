//! The trunk: the branch changes are measured against, and how it was
//! chosen, or every ref looked at when none was found.

use git2::ErrorCode;

use super::branches::{remotes, tracking_config, upstream_ref};
use super::evidence::RemoteEvidence;
use super::head;
use crate::{Reading, Repo, Unread};

/// The branch changes are measured against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trunk {
    pub refname: String,
    /// The branch it names: `main` for `refs/heads/main` and for
    /// `refs/remotes/<remote>/main`.
    pub branch: String,
    pub commit: String,
    /// How it was chosen, for the evidence.
    pub chosen_by: String,
    /// Why `commit` is the value it had at the task's start rather than
    /// the one it has now (it moved since by something else than a fetch
    /// or push of its remote: [`super::evidence`]); `None` when read as it is.
    pub at_start: Option<String>,
    /// The remote a fetch of which reads it again, where it is read at its
    /// start value because a push elsewhere than that remote's fetch URL
    /// moved it (test/cases/515): the remedy names the fetch.
    pub fetch_reads: Option<String>,
}

/// The branch a trunk ref names. A remote's name may hold a `/`, so the
/// remote is the longest configured remote the ref lies under.
fn branch_of(repo: &Repo, refname: &str) -> String {
    if let Some(b) = refname.strip_prefix("refs/heads/") {
        return b.to_string();
    }
    let Some(rest) = refname.strip_prefix("refs/remotes/") else { return refname.to_string() };
    let remotes = repo.config().map(|c| c.remote_names()).unwrap_or_default();
    match super::remote_under(refname, &remotes) {
        Some(r) => rest[r.len() + 1..].to_string(),
        None => rest.split_once('/').map_or(rest, |(_, b)| b).to_string(),
    }
}

/// No trunk was found: what was asked for and every ref looked at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoTrunk {
    /// What the policy's `[trunk]` named (`branch "dev" on remote "up"`);
    /// `None` when it named nothing.
    pub asked: Option<String>,
    /// Why no remote was looked at, when none was.
    pub remote_note: Option<String>,
    /// The refs looked at, short names (`origin/HEAD`, `main`), in order.
    pub tried: Vec<String>,
    /// Where the remote's default branch is not set and both conventional
    /// names exist on it, which nothing here tells apart: the trunk is not
    /// guessed ([`Undecided`]).
    pub undecided: Option<Undecided>,
}

/// A remote whose `<remote>/HEAD` is not set (a repository made by `git
/// init`, `git remote add` and `git fetch`, not by a clone) and that has
/// both `<remote>/main` and `<remote>/master`: a remote-tracking ref
/// outlives the remote's branch until a `git fetch --prune`, so one of them
/// may be a branch the remote deleted long ago. Neither is taken for the
/// trunk: `git remote set-head` says which (test/cases/544).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecided {
    pub remote: String,
    /// The candidates, short names (`origin/main`, `origin/master`).
    pub candidates: Vec<String>,
    /// The ref `<remote>/HEAD` names now, where it was set since a start
    /// that recorded no trunk, to a branch that start did not hold or,
    /// where the start held both candidates, to neither of them (short
    /// name): not taken, for the task could name its own branch so.
    pub named_since: Option<String>,
}

impl Undecided {
    /// Why no trunk was taken.
    pub fn reason(&self) -> String {
        if let Some(named) = &self.named_since {
            let held = match self.candidates.as_slice() {
                [] => String::new(),
                c => format!(", where the start held {} and the remote's HEAD named neither", and_list(c)),
            };
            return format!(
                "no trunk was taken: {}/HEAD names {named} now, a default branch set since the task's start{held}; the start recorded no trunk, and a branch the start did not hold, or a third one, is not taken for it on the task's word (a task could name its own branch so)",
                self.remote
            );
        }
        format!(
            "no trunk was taken: {}/HEAD (the remote's default branch) is not set, and {} both exist; a remote-tracking ref outlives the remote's branch until a git fetch --prune (a master the remote renamed main leaves {}/master here, and a local master tracking it), so which one is the trunk is not known here",
            self.remote,
            and_list(&self.candidates),
            self.remote
        )
    }

    /// What sets the remote's default branch, so the trunk is read.
    pub fn remedy(&self) -> String {
        let r = &self.remote;
        if self.named_since.is_some() {
            let which = match self.candidates.as_slice() {
                [] => "a branch the remote held at the task's start".to_string(),
                c => format!("one of {}", or_list(c)),
            };
            return format!(
                "git remote set-head {r} --auto where the remote's default branch is {which}; where it is not, the trunk is not this task's to settle: majordomus finish --outcome blocked, and name the trunk in the policy's [trunk] for the next task"
            );
        }
        format!(
            "git remote set-head {r} --auto (it asks {r} which branch is its default), or git remote set-head {r} BRANCH; or name the trunk in the policy's [trunk]"
        )
    }
}

impl NoTrunk {
    /// The sentence an unread trunk gives.
    pub fn reason(&self) -> String {
        if let Some(u) = &self.undecided {
            return format!("{}: {}", u.reason(), u.remedy());
        }
        let tried = or_list(&self.tried);
        match &self.asked {
            Some(asked) => format!(
                "no trunk was found: the policy's [trunk] names {asked}, and there is no {tried}; correct the policy's [trunk]"
            ),
            None => {
                let note = self.remote_note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
                format!("no trunk was found: no {tried}{note}; name it in the policy's [trunk]")
            }
        }
    }
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => "ref at all".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Whether `<remote>/main` and `<remote>/master` both exist, where
/// `<remote>/HEAD` names neither ([`Undecided`]).
enum Pair {
    /// Fewer than two of them exist: the first that does is taken, as
    /// ever.
    Open,
    Undecided(Undecided),
}

/// Reads [`Pair`] for `remote`. Asked only where `<remote>/HEAD` did not
/// resolve, so a clone pays nothing for it. No local branch decides: a
/// local `master` tracking `origin/master` is what a repository whose
/// remote renamed its master to main keeps too, tracking the dead one.
fn conventional_pair(repo: &Repo, remote: &str) -> Reading<Pair> {
    let mut candidates = Vec::new();
    for b in ["main", "master"] {
        let refname = format!("refs/remotes/{remote}/{b}");
        match repo.git.find_reference(&refname) {
            Ok(_) => candidates.push(format!("{remote}/{b}")),
            Err(e) if e.code() == ErrorCode::NotFound || e.code() == ErrorCode::InvalidSpec => return Ok(Pair::Open),
            Err(e) => return Err(Unread::git(&refname, &e)),
        }
    }
    Ok(Pair::Undecided(Undecided { remote: remote.to_string(), candidates, named_since: None }))
}

/// The trunk `name` names, if it names a commit; a symbolic ref naming
/// nothing (an `origin/HEAD` left behind by a deleted branch) names none.
fn found(repo: &Repo, name: &str, chosen_by: &str) -> Reading<Option<Trunk>> {
    let reference = match repo.git.find_reference(name) {
        Ok(reference) => reference,
        Err(e) if e.code() == ErrorCode::NotFound || e.code() == ErrorCode::InvalidSpec => return Ok(None),
        Err(e) => return Err(Unread::git(name, &e)),
    };
    let resolved = match reference.resolve() {
        Ok(r) => r,
        Err(e) if e.code() == ErrorCode::NotFound && reference.kind() == Some(git2::ReferenceType::Symbolic) => {
            return Ok(None)
        }
        Err(e) => return Err(Unread::git(name, &e)),
    };
    let refname = resolved.name().unwrap_or(name).to_string();
    let Some(target) = resolved.target() else { return Ok(None) };
    let branch = branch_of(repo, &refname);
    Ok(Some(Trunk {
        refname,
        branch,
        commit: target.to_string(),
        chosen_by: chosen_by.to_string(),
        at_start: None,
        fetch_reads: None,
    }))
}

/// The remote whose branches the trunk is looked for on, and how it was
/// chosen: `origin`; else the only remote; else, among several, the remote
/// of HEAD's branch's upstream. `Err` says why none was chosen.
fn trunk_remote(repo: &Repo) -> Reading<Result<(String, String), String>> {
    let names = remotes(repo)?;
    if names.is_empty() || names.iter().any(|n| n == "origin") {
        // With no remote configured, refs left under `origin` still count.
        return Ok(Ok(("origin".to_string(), String::new())));
    }
    if let [only] = names.as_slice() {
        return Ok(Ok((only.clone(), format!("{only} is the only remote"))));
    }
    let listed = names.join(", ");
    let Some(branch) = head(repo)?.branch else {
        return Ok(Err(format!(
            "of the remotes {listed} none is origin, and HEAD is detached, so no upstream names one"
        )));
    };
    let tracking = tracking_config(repo)?;
    match tracking.get(&branch).and_then(|(remote, _)| remote.as_deref()) {
        Some(remote) if names.iter().any(|n| n == remote) => {
            Ok(Ok((remote.to_string(), format!("{remote} is the remote of {branch}'s upstream"))))
        }
        _ => Ok(Err(format!("of the remotes {listed} none is origin, and {branch} has no upstream on one of them"))),
    }
}

/// The remote-tracking ref of the one branch `remote` is fetched for, in
/// a clone made for one branch (`git clone --single-branch --branch 2.x`,
/// or `--depth`): its one fetch refspec names one branch, not a glob. Such
/// a clone has no other branch of the remote to land on, and a backport
/// pushed to that branch has landed where it belongs (test/cases/490).
/// `None` for any other refspec.
fn single_branch(repo: &Repo, remote: &str) -> Reading<Option<String>> {
    let config = repo.config()?;
    let key = format!("remote.{remote}.fetch");
    let specs: Vec<&str> = config.all(&key).collect();
    let [spec] = specs.as_slice() else { return Ok(None) };
    let Some((src, dst)) = spec.trim_start_matches('+').split_once(':') else { return Ok(None) };
    let single = src.starts_with("refs/heads/") && dst.starts_with("refs/remotes/") && !spec.contains('*');
    Ok(single.then(|| dst.to_string()))
}

/// Finds the trunk: the policy's choice, else the remote's default branch
/// (`<remote>/HEAD`), else `<remote>/main`, `<remote>/master`, the one
/// branch a single-branch clone fetches ([`single_branch`]), `main`,
/// `master`. The remote is `origin`, else the only remote, else the remote
/// of HEAD's branch's upstream (`trunk_remote`). `Ok(Err)` says what was
/// looked for when none exists.
pub fn trunk(repo: &Repo, remote: Option<&str>, branch: Option<&str>) -> Reading<Result<Trunk, NoTrunk>> {
    let mut candidates: Vec<(String, String)> = Vec::new();
    let mut remote_note = None;
    // Where the conventional names on a remote begin: reached only when
    // the remote's HEAD named no trunk ([`conventional_pair`]).
    let mut pair_at: Option<(usize, String)> = None;
    let asked = match (remote, branch) {
        (Some(r), Some(b)) => {
            candidates.push((format!("refs/remotes/{r}/{b}"), "the policy's [trunk]".into()));
            Some(format!("branch {b:?} on remote {r:?}"))
        }
        (Some(r), None) => {
            candidates.push((format!("refs/remotes/{r}/HEAD"), "the policy's [trunk] remote's default branch".into()));
            pair_at = Some((candidates.len(), r.to_string()));
            for b in ["main", "master"] {
                candidates.push((
                    format!("refs/remotes/{r}/{b}"),
                    "the policy's [trunk] remote and the conventional name".into(),
                ));
            }
            Some(format!("remote {r:?}"))
        }
        (None, Some(b)) => {
            match trunk_remote(repo)? {
                Ok((r, why)) => {
                    let why = if why.is_empty() { String::new() } else { format!("; {why}") };
                    candidates
                        .push((format!("refs/remotes/{r}/{b}"), format!("the policy's [trunk] branch on {r}{why}")));
                }
                Err(note) => remote_note = Some(note),
            }
            candidates.push((format!("refs/heads/{b}"), "the policy's [trunk] branch".into()));
            Some(format!("branch {b:?}"))
        }
        (None, None) => {
            match trunk_remote(repo)? {
                Ok((r, why)) => {
                    let why = if why.is_empty() { String::new() } else { format!("; {why}") };
                    candidates.push((
                        format!("refs/remotes/{r}/HEAD"),
                        format!("the remote's default branch ({r}/HEAD{why})"),
                    ));
                    pair_at = Some((candidates.len(), r.clone()));
                    for b in ["main", "master"] {
                        candidates.push((
                            format!("refs/remotes/{r}/{b}"),
                            format!("the conventional trunk name on {r}{why}"),
                        ));
                    }
                    if let Some(only) = single_branch(repo, &r)? {
                        candidates
                            .push((only, format!("the one branch {r} is fetched for (a single-branch clone){why}")));
                    }
                }
                Err(note) => remote_note = Some(note),
            }
            // A local main or master that tracks a branch of a remote stands
            // for that branch, which no `git merge` here moves
            // (test/cases/409).
            let tracking = tracking_config(repo)?;
            let mut specs = std::collections::HashMap::new();
            for name in ["main", "master"] {
                if let Some((Some(remote), Some(merge))) = tracking.get(name) {
                    if remote != "." {
                        if let Some(upstream) = upstream_ref(repo, &mut specs, remote, merge)? {
                            let why = format!("the upstream of the local {name}, which stands for it");
                            candidates.push((upstream, why));
                        }
                    }
                }
            }
            let local = match &remote_note {
                Some(note) => format!("the conventional trunk name, locally: {note}"),
                None => "the conventional trunk name".to_string(),
            };
            for name in ["refs/heads/main", "refs/heads/master"] {
                candidates.push((name.into(), local.clone()));
            }
            None
        }
    };
    let tried = |candidates: &[(String, String)]| -> Vec<String> {
        candidates
            .iter()
            .map(|(name, _)| {
                name.strip_prefix("refs/remotes/")
                    .or_else(|| name.strip_prefix("refs/heads/"))
                    .unwrap_or(name)
                    .to_string()
            })
            .collect()
    };
    for (i, (name, chosen_by)) in candidates.iter().enumerate() {
        if let Some((_, remote)) = pair_at.as_ref().filter(|(at, _)| *at == i) {
            match conventional_pair(repo, remote)? {
                Pair::Open => {}
                Pair::Undecided(u) => {
                    return Ok(Err(NoTrunk { asked, remote_note, tried: tried(&candidates), undecided: Some(u) }))
                }
            }
        }
        if let Some(t) = found(repo, name, chosen_by)? {
            return Ok(Ok(t));
        }
    }
    Ok(Err(NoTrunk { asked, remote_note, tried: tried(&candidates), undecided: None }))
}

/// The trunk a task is measured against: the one recorded at its start,
/// if any (moving `origin/HEAD` or the policy's `[trunk]` since does not
/// move it), else the one `found` now; a remote-tracking trunk read at the
/// commit the evidence counts it at (its start value, when it moved since
/// by something else than a fetch or push of its remote). A trunk that is
/// not evidence of its remote at all is unread, saying why.
pub fn in_force(
    repo: &Repo,
    found: Reading<Result<Trunk, NoTrunk>>,
    recorded: Option<&str>,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Result<Trunk, NoTrunk>> {
    let mut trunk = match (recorded, found) {
        (Some(r), Ok(Ok(f))) if f.refname == r => f,
        (Some(r), found) => {
            let now = match found {
                Ok(Ok(f)) => format!("; {} would be chosen now, as {}", short(&f.refname), f.chosen_by),
                _ => String::new(),
            };
            let commit = match repo.git.refname_to_id(r) {
                Ok(id) => id.to_string(),
                Err(e) if e.code() == ErrorCode::NotFound && r.starts_with("refs/remotes/") => String::new(),
                Err(e) if e.code() == ErrorCode::NotFound => {
                    return Err(Unread::repository(format!(
                        "the trunk {} the task started with no longer exists{now}",
                        short(r)
                    )))
                }
                Err(e) => return Err(Unread::git(r, &e)),
            };
            Trunk {
                refname: r.to_string(),
                branch: branch_of(repo, r),
                commit,
                chosen_by: format!("the trunk at the task's start{now}"),
                at_start: None,
                fetch_reads: None,
            }
        }
        (None, found) => match found? {
            Ok(f) => f,
            Err(none) => return Ok(Err(none)),
        },
    };
    if trunk.refname.starts_with("refs/remotes/") {
        let evidence = evidence.as_ref().map_err(Clone::clone)?;
        let Some(counted) = evidence.get(&trunk.refname) else {
            let why = evidence
                .set_aside_for(&trunk.refname)
                .map(|s| s.why.clone())
                .unwrap_or_else(|| "it no longer exists".to_string());
            return Err(Unread::repository(format!(
                "the trunk {} is not evidence of what its remote holds: {why}",
                short(&trunk.refname)
            )));
        };
        trunk.commit = counted.commit.clone();
        trunk.at_start = counted.at_start.clone();
        // A push to a fork moved it last: the trunk is the branch its
        // remote fetches from, read where a fetch or the start left it.
        if let Some(elsewhere) = evidence.pushed_elsewhere_of(&trunk.refname) {
            let Some(fetched) = &elsewhere.fetched else {
                return Err(Unread::repository(format!(
                    "the trunk {} is not evidence of what its remote holds: {}",
                    short(&trunk.refname),
                    elsewhere.why
                )));
            };
            trunk.commit = fetched.clone();
            trunk.at_start = Some(elsewhere.why.clone());
            trunk.fetch_reads = Some(elsewhere.remote.clone());
        }
    }
    Ok(Ok(trunk))
}

/// `origin/main` for `refs/remotes/origin/main`, `main` for `refs/heads/main`.
fn short(refname: &str) -> &str {
    refname.strip_prefix("refs/remotes/").or_else(|| refname.strip_prefix("refs/heads/")).unwrap_or(refname)
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::{TempDir, TestRepo};

    #[test]
    fn the_trunk_is_the_remotes_default_branch_then_a_conventional_name() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(trunk(&repo, None, None).expect("trunk").expect("main").refname, "refs/heads/main");
        let _origin = t.with_origin();
        let found = trunk(&repo, None, None).expect("trunk").expect("origin");
        assert_eq!(found.refname, "refs/remotes/origin/main");
        assert!(found.chosen_by.contains("origin/HEAD"), "{}", found.chosen_by);
        let none = trunk(&repo, None, Some("nope")).expect("trunk").expect_err("no such branch");
        assert_eq!(none.tried, ["origin/nope", "nope"]);
    }

    /// A remote named `name`, a bare repository beside `t` with `main`
    /// pushed, and `name/HEAD` set; `main` does not track it.
    fn add_remote(t: &TestRepo, name: &str) -> TempDir {
        let bare = tempfile::Builder::new().prefix("majordomus-remote-").tempdir().expect("tempdir");
        t.git_in(bare.path(), &["init", "-q", "--bare", "-b", "main"]);
        t.git(&["remote", "add", name, bare.path().to_str().expect("utf-8")]);
        t.git(&["push", "-q", name, "main"]);
        t.git(&["remote", "set-head", name, "main"]);
        bare
    }

    #[test]
    fn the_trunks_branch_is_read_past_a_remote_name_that_holds_a_slash() {
        let t = TestRepo::with_commit();
        let remote = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-slashed.git", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["init", "-q", "--bare", remote.to_str().expect("utf8")]);
        t.git(&["remote", "add", "team/origin", remote.to_str().expect("utf8")]);
        t.git(&["push", "-q", "team/origin", "HEAD:refs/heads/main"]);
        t.git(&["fetch", "-q", "team/origin"]);
        let repo = crate::open(t.path()).expect("open");
        let found = trunk(&repo, Some("team/origin"), None).expect("read").expect("a trunk");
        assert_eq!((found.refname.as_str(), found.branch.as_str()), ("refs/remotes/team/origin/main", "main"));
        assert_eq!(branch_of(&repo, "refs/heads/release/2.0"), "release/2.0");
        std::fs::remove_dir_all(remote).expect("cleanup");
    }

    #[test]
    fn a_dangling_remote_head_falls_through_to_the_conventional_name() {
        let t = TestRepo::with_commit();
        let remote = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-dangling.git", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["init", "-q", "--bare", remote.to_str().expect("utf8")]);
        t.git(&["remote", "add", "origin", remote.to_str().expect("utf8")]);
        t.git(&["push", "-q", "origin", "HEAD:refs/heads/main"]);
        t.git(&["fetch", "-q", "origin"]);
        t.git(&["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/gone"]);
        let repo = crate::open(t.path()).expect("open");
        let found = trunk(&repo, None, None).expect("read").expect("a trunk");
        assert_eq!(found.refname, "refs/remotes/origin/main");
        std::fs::remove_dir_all(remote).expect("cleanup");
    }

    #[test]
    fn both_conventional_names_without_the_remotes_head_take_no_trunk() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["branch", "-q", "master"]);
        t.git(&["push", "-q", "origin", "master"]);
        let repo = crate::open(t.path()).expect("open");
        // origin/HEAD names one: the clone's path, as ever.
        let found = trunk(&repo, None, None).expect("read").expect("a trunk");
        assert_eq!(found.refname, "refs/remotes/origin/main");
        // Unset (git init, remote add, fetch): neither is guessed, and a
        // local main tracking origin/main does not decide.
        t.git(&["remote", "set-head", "origin", "-d"]);
        for asked in [None, Some("origin")] {
            let none = trunk(&repo, asked, None).expect("read").expect_err("undecided");
            let u = none.undecided.as_ref().expect("undecided");
            assert_eq!(u.candidates, ["origin/main", "origin/master"]);
            assert!(none.reason().contains("git remote set-head origin --auto"), "{}", none.reason());
        }
        // Dangling, it names neither either.
        t.git(&["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/gone"]);
        assert!(trunk(&repo, None, None).expect("read").is_err());
        // The policy naming the branch decides; so does set-head.
        let named = trunk(&repo, None, Some("master")).expect("read").expect("named");
        assert_eq!(named.refname, "refs/remotes/origin/master");
        t.git(&["remote", "set-head", "origin", "master"]);
        let found = trunk(&repo, None, None).expect("read").expect("a trunk");
        assert_eq!(found.refname, "refs/remotes/origin/master");
        // One of the two alone is taken by its name, as ever.
        t.git(&["remote", "set-head", "origin", "-d"]);
        t.git(&["update-ref", "-d", "refs/remotes/origin/master"]);
        let found = trunk(&repo, None, None).expect("read").expect("a trunk");
        assert_eq!(found.refname, "refs/remotes/origin/main");
    }

    #[test]
    fn a_sole_remote_not_named_origin_gives_the_trunk() {
        let t = TestRepo::with_commit();
        let _gh = add_remote(&t, "gh");
        t.git(&["commit", "-q", "--allow-empty", "-m", "local work"]);
        let repo = crate::open(t.path()).expect("open");
        let found = trunk(&repo, None, None).expect("trunk").expect("gh");
        assert_eq!(found.refname, "refs/remotes/gh/main");
        assert!(found.chosen_by.contains("gh/HEAD") && found.chosen_by.contains("only remote"), "{}", found.chosen_by);
        t.git(&["remote", "set-head", "gh", "-d"]);
        let found = trunk(&repo, None, None).expect("trunk").expect("gh/main");
        assert_eq!(found.refname, "refs/remotes/gh/main");
        assert!(found.chosen_by.contains("conventional trunk name on gh"), "{}", found.chosen_by);
    }

    #[test]
    fn among_several_remotes_the_upstreams_remote_gives_the_trunk() {
        let t = TestRepo::with_commit();
        let (_a, _b) = (add_remote(&t, "a"), add_remote(&t, "b"));
        let repo = crate::open(t.path()).expect("open");
        let local = trunk(&repo, None, None).expect("trunk").expect("local main");
        assert_eq!(local.refname, "refs/heads/main");
        assert!(local.chosen_by.contains("none is origin"), "{}", local.chosen_by);
        t.git(&["branch", "-q", "--set-upstream-to", "b/main"]);
        let found = trunk(&repo, None, None).expect("trunk").expect("b");
        assert_eq!(found.refname, "refs/remotes/b/main");
        assert!(found.chosen_by.contains("b is the remote of main's upstream"), "{}", found.chosen_by);
    }

    #[test]
    fn a_trunk_the_policy_names_but_that_does_not_exist_says_what_was_asked() {
        let t = TestRepo::with_commit();
        let _gh = add_remote(&t, "gh");
        let repo = crate::open(t.path()).expect("open");
        let none = trunk(&repo, None, Some("develop")).expect("trunk").expect_err("no develop");
        assert_eq!(none.tried, ["gh/develop", "develop"]);
        assert!(none.reason().contains(r#"names branch "develop""#), "{}", none.reason());
        let none = trunk(&repo, Some("up"), None).expect("trunk").expect_err("no remote up");
        assert!(none.reason().contains(r#"remote "up""#) && none.reason().contains("up/HEAD"), "{}", none.reason());
        assert!(trunk(&repo, Some("gh"), None).expect("trunk").is_ok());
    }

    #[test]
    fn the_trunk_recorded_at_the_start_holds_and_is_read_where_its_ref_counts() {
        use crate::refs::evidence::{at_start_now, evidence, Start};
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        let repo = crate::open(t.path()).expect("open");
        let (remotes, refs) = at_start_now(&repo).expect("read");
        let at_start = refs["refs/remotes/origin/main"].clone();
        let snapshot = majordomus_records::task::Snapshot {
            remotes: Some(remotes),
            remote_refs: Some(refs.into()),
            ..Default::default()
        };
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.write("a.txt", "a\n");
        t.commit_all("feature");
        t.git(&["push", "-q", "-u", "origin", "feature"]);
        t.git(&["remote", "set-head", "origin", "feature"]);
        t.git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
        let ev = evidence(&repo, Start::Snapshot(&snapshot));
        let found = trunk(&repo, None, None);
        assert_eq!(found.as_ref().expect("read").as_ref().expect("a trunk").refname, "refs/remotes/origin/feature");
        let held = in_force(&repo, found, Some("refs/remotes/origin/main"), &ev).expect("read").expect("a trunk");
        assert_eq!((held.refname.as_str(), held.commit.as_str()), ("refs/remotes/origin/main", at_start.as_str()));
        assert!(held.chosen_by.contains("origin/feature would be chosen now"), "{}", held.chosen_by);
        assert!(held.at_start.is_some_and(|w| w.contains("git update-ref")));
        // A local trunk recorded at the start and deleted since is unread, saying so.
        let gone = in_force(&repo, trunk(&repo, None, None), Some("refs/heads/trunk"), &ev).expect_err("gone");
        assert!(gone.reason.contains("trunk the task started with no longer exists"), "{gone}");
    }
}
