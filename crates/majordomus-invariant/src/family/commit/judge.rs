//! The commit family judged: `committed`, `no-untracked`, `no-stash`,
//! `settled`, `pushed`. What the working tree, the stash and the refs
//! already held at the start is inherited: named in the evidence, never
//! counted against the task.

use serde_json::json;

use std::collections::HashSet;

use majordomus_readings::refs::in_submodules::{Basis, Left, Unpushed};
use majordomus_readings::refs::submodules::{OnRemote, Place, Submodule, There};
use majordomus_readings::refs::{Made, Push, RemoteEvidence};
use majordomus_readings::stash::StashEntry;
use majordomus_readings::state::Operation;
use majordomus_readings::status::{HiddenBy, Of, Why, WorkingTree};
use majordomus_readings::Unread;
use majordomus_records::task::TaskRecord;
use majordomus_records::RepoPath;

use crate::answer::Status;
use crate::judgement::Judgement;
use crate::prose::{are, count, count_verb, names, remain, sentence, shell_word, short, short_ref};
use crate::readings::Readings;

use super::remedy;

pub(crate) fn committed(r: &Readings) -> Judgement {
    let (tree, inherited) = match (&r.tree, &r.commit.inherited_dirty) {
        (Ok(t), Ok(i)) => (t, i),
        (Err(e), _) | (_, Err(e)) => return Judgement::unread(e),
    };
    let (kept, counted): (Vec<&RepoPath>, Vec<&RepoPath>) =
        tree.dirty.iter().map(|d| &d.path).partition(|p| inherited.contains(*p));
    // Of those counted, the ones whose content is what it was at the start
    // (dirty or untracked then, staged since; or a commit since undone in
    // the working tree) are not "changed since the start": said apart, so
    // the count agrees with the change set the other questions read.
    // An intent to add (`git add -N`) whose file is gone changed nothing
    // of the tree: said apart, as what it is (test/cases/590).
    let (intents, rest): (Vec<&RepoPath>, Vec<&RepoPath>) = counted.iter().partition(|p| tree.intent_gone.contains(p));
    let (changed, as_at_start): (Vec<&RepoPath>, Vec<&RepoPath>) = match &r.changes {
        Ok(c) => {
            let changed: HashSet<&RepoPath> = c.changed.iter().collect();
            rest.iter().partition(|p| changed.contains(**p))
        }
        Err(_) => (rest.clone(), Vec::new()),
    };
    // Of those counted, the ones whose working tree holds what HEAD holds:
    // only the index differs (test/cases/636).
    let staged_only: Vec<&RepoPath> = match &r.changes {
        Ok(c) => counted.iter().copied().filter(|p| c.staged_only.contains(p)).collect(),
        Err(_) => Vec::new(),
    };
    let details = json!({
        "uncommitted": counted,
        "inherited": kept,
        "content_as_at_start": as_at_start,
        "staged_only": staged_only,
        "shown_though_git_hides": overruled_details(tree, &counted),
        "read_as_at_start": tree.governed.iter().filter(|g| g.of.tracked()).map(ToString::to_string).collect::<Vec<_>>(),
    });
    let also = inherited_clause(&kept, "dirty");
    if counted.is_empty() {
        return Judgement::new(
            Status::Pass,
            format!("No tracked file changed since the start is uncommitted{also}."),
            details,
        );
    }
    let mut parts = Vec::new();
    if !changed.is_empty() {
        parts.push(format!(
            "{} changed since the start {} not committed: {}",
            count(changed.len(), "tracked file"),
            are(changed.len()),
            names(&labels(tree, &changed))
        ));
    }
    if !as_at_start.is_empty() {
        parts.push(format!(
            "{} whose content is what it was at the start {} from HEAD, not committed: {}",
            count(as_at_start.len(), "tracked file"),
            if as_at_start.len() == 1 { "differs" } else { "differ" },
            names(&labels(tree, &as_at_start))
        ));
    }
    if !intents.is_empty() {
        parts.push(format!(
            "{} (git add -N) whose file is gone {} in the index: {}",
            count_verb(intents.len(), "intent to add", "intents to add"),
            remain(intents.len()),
            names(&labels(tree, &intents))
        ));
    }
    // Named apart only where every other path is too, as the remedy then
    // differs.
    let only_index = !staged_only.is_empty()
        && counted.iter().all(|p| staged_only.contains(p) || tree.intent_gone.contains(p))
        && staged_only.iter().any(|p| !tree.intent_gone.contains(p));
    if only_index {
        parts.push(format!(
            "the index alone differs from HEAD at {}: the working tree holds what HEAD holds",
            names(&labels(tree, &staged_only))
        ));
    }
    let v = Judgement::new(
        Status::Owed,
        format!("{}{also}{}.", sentence(&parts.join("; ")).trim_end_matches('.'), governed_clause(tree, Of::tracked)),
        details,
    );
    // A merge, cherry-pick, revert, rebase or am session in progress:
    // git refuses `git commit -- PATH` during a merge or cherry-pick ("cannot
    // do a partial commit"), and a commit in a rebase is one the rebase
    // did not ask for. The way to commit is to finish it (test/cases/467).
    match finish_operation(r, tree, &counted) {
        Some(Ok(line)) => return v.command(line),
        Some(Err(advice)) => return v.remedy(advice),
        None => {}
    }
    // A submodule changed only inside (its HEAD still the recorded commit):
    // `git commit -- PATH` here takes nothing of it, and fails when it is
    // all there is to commit. The rest is committed as written; the
    // submodule's own commit comes first, and is advice (which branch, what
    // of it to commit, is the submodule's to say).
    let (inside, here): (Vec<&RepoPath>, Vec<&RepoPath>) = counted.iter().partition(|p| tree.dirty_inside.contains(p));
    if here.is_empty() {
        let sub = inside.first().map_or_else(String::new, |p| crate::prose::shell_word(&p.to_string()));
        return v.remedy(format!(
            "commit the change inside each submodule named first, on a branch it can push (git -C {sub} switch -c BRANCH, then git -C {sub} add and git -C {sub} commit), then record its new commit here (git commit -- {sub}): a commit here takes nothing of a submodule whose change is in its own working tree"
        ));
    }
    // A file under `.ai/local/` the index holds: majordomus's own state
    // tracked (`git add -f`), which it writes at every check, or work put
    // there. Committing it is no way out for the first; untracking is.
    if here.iter().any(|p| p.is_own_state()) {
        return v.remedy(
            "files under .ai/local/ are tracked: that directory is majordomus's own state, written at every check; untrack it (git rm -r --cached -- .ai/local, then commit), moving work kept there to its place in the tree first; commit the other tracked files named (git commit -- PATH...)",
        );
    }
    // A file a skip-worktree bit hides is not taken by `git commit --
    // PATH`; one changed under a bit the user set before the start holds
    // the user's local content too: whether to clear the bit and commit,
    // or to put the task's edit back, is the task's to say.
    let under_bit = here.iter().any(|p| {
        tree.overruled.iter().any(|o| {
            &o.path == *p
                && matches!(
                    o.why,
                    Why::ChangedUnderBit(_) | Why::Bit(HiddenBy::SkipWorktree | HiddenBy::ExpectedOutsideSparse)
                )
        })
    });
    if under_bit {
        return v.remedy(
            "for each file named with its bit: put the task's edit back, or clear the bit (git update-index --no-skip-worktree or --no-assume-unchanged -- PATH) and commit what is the task's; commit the other tracked files named (git commit -- PATH...)",
        );
    }
    // Intents to add (`git add -N`) whose file is gone, all there is:
    // `git commit -- PATH` takes nothing of them and refuses ("nothing
    // added to commit"); `git rm --cached` drops the intent. Beside other
    // paths, the commit naming them drops them too (test/cases/590).
    if here.iter().all(|p| tree.intent_gone.contains(p)) {
        return match as_words(&here).and_then(|w| remedy::untrack_paths(&w)) {
            Some(line) => v.command(line),
            None => v.remedy("drop each intent to add whose file is gone: git rm --cached -- PATH..."),
        };
    }
    // Only the index differs from HEAD at every path (staged, then the
    // edit undone in the working tree, or the file removed): `git commit
    // -- PATH` takes the working tree's content, HEAD's, and refuses
    // ("nothing to commit"); `git reset` puts the index back. Beside a
    // path the working tree changed, the commit naming both does that too
    // (git updates the index at each path it names) (test/cases/636).
    if only_index && here.iter().all(|p| staged_only.contains(p) || tree.intent_gone.contains(p)) {
        return match as_words(&here).and_then(|w| remedy::unstage_paths(&w)) {
            Some(line) => v.command(line),
            None => v.remedy("put the index back at each path named, as HEAD holds it: git reset -q -- PATH..."),
        };
    }
    match as_words(&here).and_then(|w| remedy::commit_paths(&w, remedy::Add::No)) {
        Some(line) => v.command(line),
        None => v.remedy("commit the tracked files named, and only those: git commit -- PATH..."),
    }
}

/// The remedy of an owed `committed` while `settled` reads an operation
/// in progress that a commit finishes (not a bisect, nor a sequence whose
/// current commit was committed, where `git commit -- PATH` works): the
/// paths named staged (`git add -- PATH...`), then the operation finished,
/// a command where nothing is conflicted: `git commit --no-edit` for a
/// merge (it takes the whole index, as git requires of one),
/// `GIT_EDITOR=true git cherry-pick|revert|rebase|am --continue` for the
/// others (the message they prepared, without an editor). Advice where a
/// path is conflicted (resolving is the task's), for an interactive rebase
/// (one stopped at an `edit` refuses staged changes on `--continue`), and
/// where the paths cannot be named on one line. `None` with no such
/// operation; `Ok` a command, `Err` advice.
fn finish_operation(r: &Readings, tree: &WorkingTree, counted: &[&RepoPath]) -> Option<Result<String, String>> {
    let op =
        r.commit.operations.as_ref().ok()?.iter().find(|o| o.operation != Operation::Bisect && !o.sequencer_only())?;
    let (name, cmd) = (op.operation.name(), op.operation.command());
    let finish = match op.operation {
        Operation::Merge => "git commit --no-edit".to_string(),
        _ => format!("GIT_EDITOR=true git {cmd} --continue"),
    };
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    let advice = format!(
        "finish the {name} in progress first (settled names it): resolve each conflicted path, git add the paths named, then {finish} (or git {cmd} --abort): git refuses a partial commit, of chosen paths, during {article} {name}"
    );
    let special = counted
        .iter()
        .any(|p| p.is_own_state() || tree.dirty_inside.contains(p) || tree.overruled.iter().any(|o| &o.path == *p));
    let line = (!special && tree.conflicted.is_empty() && op.operation != Operation::RebaseInteractive)
        .then(|| as_words(counted))
        .flatten()
        .and_then(|w| remedy::add_then(&w, &finish));
    Some(line.ok_or(advice))
}

pub(crate) fn no_untracked(task: &TaskRecord, r: &Readings) -> Judgement {
    let (tree, inherited) = match (&r.tree, &r.commit.inherited_untracked) {
        (Ok(t), Ok(i)) => (t, i),
        (Err(e), _) | (_, Err(e)) => return Judgement::unread(e),
    };
    let (Some(then), Some(inherited)) = (&task.snapshot.untracked, inherited) else {
        return Judgement::unread(&Unread::record(
            "the task record holds no snapshot of the untracked files at the start",
        ));
    };
    let (kept, counted): (Vec<&RepoPath>, Vec<&RepoPath>) = tree.untracked.iter().partition(|p| inherited.contains(*p));
    // Untracked at the start by this name, but not with this content: the task's work.
    let refilled: Vec<&RepoPath> = counted.iter().copied().filter(|p| then.iter().any(|u| &u.path == *p)).collect();
    let details = json!({
        "untracked": counted,
        "inherited": kept,
        "changed_since_the_start": refilled,
        "shown_though_git_hides": overruled_details(tree, &counted),
        "read_as_at_start": tree.governed.iter().filter(|g| g.of.untracked()).map(ToString::to_string).collect::<Vec<_>>(),
    });
    let also = inherited_clause(&kept, "untracked");
    if counted.is_empty() {
        return Judgement::new(
            Status::Pass,
            format!("No untracked, non-ignored file appeared since the start{also}."),
            details,
        );
    }
    let nested = |p: &RepoPath| p.as_bytes().ends_with(b"/");
    let named: Vec<String> = counted
        .iter()
        .map(|p| match refilled.contains(p) {
            true if nested(p) => format!("{p} (a repository of its own, untracked at the start, changed inside since)"),
            true => format!("{p} (untracked at the start, its content changed since)"),
            false => label(tree, p),
        })
        .collect();
    let what = if refilled.is_empty() { "appeared" } else { "appeared or changed" };
    let v = Judgement::new(
        Status::Owed,
        format!(
            "{} {what} since the start: {}{also}{}.",
            count(counted.len(), "untracked file"),
            names(&named),
            governed_clause(tree, Of::untracked)
        ),
        details,
    );
    // Committing is the remedy given; ignoring or removing them settles the
    // question as well, and is the task's to choose. A file an ignore rule
    // set since the start hides is added with -f: git would refuse it.
    // A repository of its own inside this one: `git add` would record only
    // its HEAD as an embedded gitlink, not the work left in it.
    if counted.iter().any(|p| nested(p)) {
        return v.remedy(
            "commit and push the work inside each repository named that is a repository of its own (or add it as a submodule, or put it back as it was), and commit the other files named",
        );
    }
    // A file `core.ignoreCase` folds onto a tracked path: `git add` takes
    // it for that path and stages nothing of it (or stages its content
    // under the tracked name), so the commit is made with the setting off
    // for that one command, or the file renamed.
    let folded = counted.iter().any(|p| tree.overruled.iter().any(|o| &o.path == *p && o.why == Why::CaseFolded));
    if folded {
        return v.remedy(
            "for each file named whose name differs from a tracked path's only by case: rename it to a name of its own, or commit it with core.ignoreCase off for that command (git -c core.ignoreCase=false add -- PATH, then git -c core.ignoreCase=false commit -- PATH), or remove it; git add under core.ignoreCase takes it for the tracked path; commit the other files named",
        );
    }
    // A file an ignore rule set since the start hides is either work left
    // out of the repository (commit it) or output the build makes behind a
    // rule the task added for it (say so): two answers, so advice naming
    // both, never a command that commits a build's output.
    let hidden = counted.iter().any(|p| tree.overruled.iter().any(|o| &o.path == *p));
    if hidden {
        let commit = as_words(&counted).and_then(|w| remedy::commit_paths(&w, remedy::Add::Forced));
        return v.remedy(format!(
            "commit the files named ({}), or, for one the build generates behind an ignore rule the task added, say so: majordomus ack no-untracked --why \"generated by the build\"",
            commit.as_deref().unwrap_or("git add -f -- PATH... && git commit -- PATH...")
        ));
    }
    match as_words(&counted).and_then(|w| remedy::commit_paths(&w, remedy::Add::Yes)) {
        Some(line) => v.command(line),
        None => v.remedy(
            "commit the untracked files named, and only those (git add -- PATH... && git commit -- PATH...), or ignore or remove them",
        ),
    }
}

/// The paths as text, for a command line; `None` when one is not UTF-8
/// (then the remedy is advice: the evidence names it as git does).
fn as_words<'a>(paths: &[&'a RepoPath]) -> Option<Vec<&'a str>> {
    paths.iter().map(|p| p.to_str()).collect()
}

/// A path as the evidence names it: with why it is counted where git's
/// status would not show it (a bit or an ignore rule set since the start).
fn label(tree: &WorkingTree, path: &RepoPath) -> String {
    match tree.overruled.iter().find(|o| &o.path == path) {
        Some(o) => o.to_string(),
        None => path.to_string(),
    }
}

fn labels(tree: &WorkingTree, paths: &[&RepoPath]) -> Vec<String> {
    paths.iter().map(|p| label(tree, p)).collect()
}

/// The counted paths git's status hides, each with why.
fn overruled_details(tree: &WorkingTree, counted: &[&RepoPath]) -> serde_json::Value {
    json!(tree
        .overruled
        .iter()
        .filter(|o| counted.contains(&&o.path))
        .map(|o| json!({ "path": o.path, "why": o.to_string() }))
        .collect::<Vec<_>>())
}

/// ` (read as at the start: core.fileMode was set to ...)`, naming each
/// setting changed since the start that the reading did not obey.
fn governed_clause(tree: &WorkingTree, part: fn(Of) -> bool) -> String {
    let said: Vec<String> = tree.governed.iter().filter(|g| part(g.of)).map(ToString::to_string).collect();
    if said.is_empty() {
        return String::new();
    }
    format!("; {}", said.join("; "))
}

pub(crate) fn no_stash(task: &TaskRecord, r: &Readings) -> Judgement {
    let stashes = match &r.commit.stashes {
        Ok(s) => s,
        Err(e) => return Judgement::unread(e),
    };
    let Some(then) = &task.snapshot.stashes else {
        return Judgement::unread(&Unread::record("the task record holds no snapshot of the stash at the start"));
    };
    let (kept, counted): (Vec<_>, Vec<_>) = stashes.iter().partition(|s| then.contains(&s.commit));
    let label = |s: &&StashEntry| format!("stash@{{{}}} ({})", s.index, s.message);
    // The stash entries of the submodules' own repositories made since.
    let mut in_subs: Vec<(&Left, &StashEntry)> = Vec::new();
    let mut sub_said: Vec<String> = Vec::new();
    let mut unread: Vec<Unread> = Vec::new();
    match &r.commit.in_submodules {
        Ok(all) => {
            for left in all {
                if let Some(why) = &left.unread {
                    unread.push(Unread::repository(format!(
                        "the stash of the submodule {} cannot be read: {why}",
                        left.path
                    )));
                    continue;
                }
                if left.stashes.is_empty() {
                    continue;
                }
                let labels: Vec<String> = left.stashes.iter().map(|s| label(&s)).collect();
                let n = left.stashes.len();
                let line = match left.basis {
                    Basis::Recorded => format!(
                        "the submodule {}: {} made since the start {}: {}",
                        left.path,
                        count(n, "stash entry"),
                        remain(n),
                        names(&labels)
                    ),
                    Basis::NotThen => format!(
                        "the submodule {}: {} {} ({0} was not checked out at the start): {}",
                        left.path,
                        count(n, "stash entry"),
                        remain(n),
                        names(&labels)
                    ),
                    Basis::NoSnapshot => {
                        unread.push(Unread::record(format!(
                            "the submodule {} holds {}, and the task record holds no snapshot of its stash at the start to tell whether {} there then (start the task again): {}",
                            left.path,
                            count(n, "stash entry"),
                            if n == 1 { "it was" } else { "they were" },
                            names(&labels)
                        )));
                        continue;
                    }
                };
                sub_said.push(line);
                in_subs.extend(left.stashes.iter().map(|s| (left, s)));
            }
        }
        Err(e) => unread.push(e.clone()),
    }
    let details = json!({
        "made": counted.iter().map(|s| json!({ "ref": format!("stash@{{{}}}", s.index), "commit": s.commit, "message": s.message })).collect::<Vec<_>>(),
        "inherited": kept.iter().map(|s| &s.commit).collect::<Vec<_>>(),
        "in_submodules": in_subs.iter().map(|(l, s)| json!({ "submodule": l.path, "ref": format!("stash@{{{}}}", s.index), "commit": s.commit, "message": s.message })).collect::<Vec<_>>(),
    });
    let kept_labels: Vec<String> = kept.iter().map(label).collect();
    let also = inherited_clause(&kept_labels, "in the stash");
    if counted.is_empty() && in_subs.is_empty() {
        if let Some(first) = unread.first() {
            return Judgement::unread(first);
        }
        return Judgement::new(Status::Pass, format!("No stash entry made since the start remains{also}."), details);
    }
    let mut said = Vec::new();
    if !counted.is_empty() {
        let labels: Vec<String> = counted.iter().map(label).collect();
        said.push(format!(
            "{} made since the start {}: {}{also}",
            count(counted.len(), "stash entry"),
            remain(counted.len()),
            names(&labels)
        ));
    }
    if !sub_said.is_empty() {
        let also = if counted.is_empty() { also.as_str() } else { "" };
        said.push(format!("{}{also}", sub_said.join("; ")));
    }
    let unread_too: String = unread.iter().map(|u| format!("; {}", u.reason)).collect();
    let v = Judgement::new(
        Status::Owed,
        format!("{}{unread_too}.", sentence(&said.join("; ")).trim_end_matches('.')),
        details,
    );
    let here = counted.first().map(|s| format!("git stash pop stash@{{{}}}", s.index));
    let there = in_subs.first().map(|(l, s)| {
        let path = crate::prose::shell_word(&l.path);
        // `git -C` of an empty directory is the superproject's.
        let init = if l.checked_out { String::new() } else { format!("git submodule update --init {path} && ") };
        format!("{init}git -C {path} stash pop stash@{{{}}}", s.index)
    });
    let exact = match (here, there) {
        (Some(here), Some(there)) => format!("{here}; a submodule's in the submodule: {there}"),
        (Some(here), None) => here,
        (None, Some(there)) => format!("in its submodule: {there}"),
        (None, None) => String::new(),
    };
    v.remedy(format!("apply or drop each by its exact ref ({exact}), never a bare git stash pop"))
}

pub(crate) fn settled(r: &Readings) -> Judgement {
    let (operations, tree) = match (&r.commit.operations, &r.tree) {
        (Ok(o), Ok(t)) => (o, t),
        (Err(e), _) | (_, Err(e)) => return Judgement::unread(e),
    };
    let named: Vec<&str> = operations.iter().map(|o| o.operation.name()).collect();
    // Each submodule checked out here is read as the repository around it
    // is (test/cases/458): a bisect or rebase left in progress there.
    // A submodule whose git directory cannot be read is not taken as
    // holding nothing in progress: `settled` is then unknown for it.
    let (in_subs, sub_unread): (Vec<(&str, &majordomus_readings::state::InProgress)>, Vec<Unread>) =
        match &r.commit.in_submodules {
            Ok(lefts) => (
                lefts.iter().flat_map(|l| l.operations.iter().flatten().map(move |o| (l.path.as_str(), o))).collect(),
                lefts
                    .iter()
                    .filter_map(|l| {
                        let why = l.operations.as_ref().err()?;
                        Some(Unread::repository(format!(
                            "what is in progress in the submodule {} cannot be read: {why}",
                            l.path
                        )))
                    })
                    .collect(),
            ),
            Err(e) => (Vec::new(), vec![e.clone()]),
        };
    // A path left conflicted in a submodule with no operation in progress
    // there (`git -C lib stash pop` or `git -C lib merge --squash` that
    // conflicted): `git -C lib status` lists it "Unmerged", as the
    // repository around it would.
    let sub_conflicted: Vec<(&str, &Vec<String>)> = match &r.commit.in_submodules {
        Ok(lefts) => {
            lefts.iter().filter(|l| !l.conflicted.is_empty()).map(|l| (l.path.as_str(), &l.conflicted)).collect()
        }
        Err(_) => Vec::new(),
    };
    let details = json!({
        "operation": named.first(),
        "operations": operations.iter().map(|o| json!({ "name": o.operation.name(), "shown_by": o.shown_by })).collect::<Vec<_>>(),
        "in_submodules": in_subs.iter().map(|(p, o)| json!({ "submodule": p, "name": o.operation.name(), "shown_by": o.shown_by }))
            .chain(sub_conflicted.iter().map(|(p, c)| json!({ "submodule": p, "conflicted": c })))
            .collect::<Vec<_>>(),
        "conflicted": tree.conflicted,
    });
    if (!in_subs.is_empty() || !sub_conflicted.is_empty()) && operations.is_empty() && tree.conflicted.is_empty() {
        let listed: Vec<String> = in_subs
            .iter()
            .map(|(p, o)| format!("{} in {p} ({})", o.operation.name(), o.shown_by))
            .chain(
                sub_conflicted
                    .iter()
                    .map(|(p, c)| format!("{} conflicted in {p}: {}", count(c.len(), "path"), names(c))),
            )
            .collect();
        let Some(&(path, first)) = in_subs.first() else {
            let (path, _) = sub_conflicted[0];
            return Judgement::new(
                Status::Owed,
                format!("Left in a submodule checked out here: {}.", names(&listed)),
                details,
            )
            .remedy(format!("resolve the conflicted paths in {path} and git -C {path} add them"));
        };
        let remedy = match first.operation {
            Operation::Bisect => format!("git -C {path} bisect reset"),
            op => format!(
                "in {path}: resolve any conflicts, then git -C {path} {0} --continue (or --abort)",
                op.command()
            ),
        };
        return Judgement::new(
            Status::Owed,
            format!("In progress in a submodule checked out here: {}.", names(&listed)),
            details,
        )
        .remedy(remedy);
    }
    if operations.is_empty() && tree.conflicted.is_empty() && in_subs.is_empty() && sub_conflicted.is_empty() {
        if let Some(first) = sub_unread.first() {
            let mut why = first.clone();
            why.reason = sub_unread.iter().map(|u| u.reason.as_str()).collect::<Vec<_>>().join("; ");
            return Judgement::unread(&why);
        }
    }
    if operations.is_empty() && tree.conflicted.is_empty() {
        return Judgement::new(
            Status::Pass,
            "No merge, rebase, am session, cherry-pick, revert or bisect is in progress and no path is conflicted.",
            details,
        );
    }
    let mut parts: Vec<String> = operations
        .iter()
        .map(|o| match o.sequencer_only() {
            true => format!(
                "a {} sequence is in progress: its current commit was committed, and the sequencer (sequencer/todo) still holds the next",
                o.operation.name()
            ),
            false => {
                let name = o.operation.name();
                let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
                format!("{article} {name} is in progress ({})", o.shown_by)
            }
        })
        .collect();
    if !tree.conflicted.is_empty() {
        parts.push(format!("{} conflicted: {}", count(tree.conflicted.len(), "path is"), names(&tree.conflicted)));
    }
    let v = Judgement::new(Status::Owed, sentence(&parts.join("; ")), details);
    if tree.conflicted.is_empty() && operations.iter().all(|o| o.operation == Operation::Bisect) {
        return v.command("git bisect reset");
    }
    let remedy = match operations.first().map(|o| o.operation) {
        Some(Operation::Bisect) => "git bisect reset".to_string(),
        Some(op) => format!(
            "resolve any conflicts, then git {0} --continue (or git {0} --abort){1}",
            op.command(),
            if operations.iter().any(|o| o.operation == Operation::Bisect) { "; then git bisect reset" } else { "" }
        ),
        None => "resolve the conflicted paths and git add them".to_string(),
    };
    v.remedy(remedy)
}

pub(crate) fn pushed(r: &Readings) -> Judgement {
    let push = match &r.commit.push {
        Ok(p) => p,
        Err(e) => return Judgement::unread(e),
    };
    let (against, how, commits, total, since_start) = match push {
        Push::NoRemote => {
            return Judgement::new(
                Status::Exempt,
                "The repository has no remote, nor had one at the start, so there is nowhere to push.",
                json!({ "remote": null }),
            )
        }
        // An unborn HEAD (`git checkout --orphan`) has nothing of its own
        // to push, but the work this worktree left on branches, tags and
        // refs is asked of as ever (test/cases/346).
        Push::Unborn if !holds_work(r) => {
            return Judgement::new(
                Status::Exempt,
                "HEAD has no commit yet, so there is nothing to push.",
                json!({ "head": null }),
            )
        }
        Push::Unborn => (&String::new(), &String::new(), &Vec::new(), 0, &Some((Vec::new(), 0))),
        Push::Measured { against, how, commits, count, since_start } => (against, how, commits, *count, since_start),
    };
    let unborn = matches!(push, Push::Unborn);
    let place = match against.as_str() {
        "" => "any remote-tracking ref that counts".to_string(),
        a => short_ref(a).to_string(),
    };
    let Some((new, new_count)) = since_start else {
        return Judgement::unread(&Unread::repository(format!(
            "{} on HEAD {} not on {place}, and the task's start commit is not in this repository to tell which were there at the start",
            count(total, "commit"),
            are(total)
        )));
    };
    let new_count = *new_count;
    let inherited = total - new_count;
    let mut owed: Vec<String> = Vec::new();
    let mut owed_branches: Vec<&str> = Vec::new();
    let mut owed_submodules: Vec<&str> = Vec::new();
    // The advice for each submodule re-pointed in `.gitmodules` whose new
    // URL lacks its commit, or checked out nowhere (its push from the
    // repository git keeps, test/cases/577), and for the first whose URL
    // cannot be read.
    let mut repointed: Vec<String> = Vec::new();
    let mut repointed_unread: Option<(String, String)> = None;
    let mut unread: Vec<Unread> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    let also = if inherited > 0 {
        format!(
            " ({} already unpushed at the start, not counted{})",
            count(inherited, "commit"),
            inherited_commits(commits, new, new_count, inherited)
        )
    } else {
        String::new()
    };
    let held = held_by_trunk(r);
    if unborn {
        parts.push("HEAD has no commit yet".to_string());
    } else if new_count == 0 {
        parts.push(format!("every commit on HEAD is on {place} ({how}){also}"));
    } else if let Some((trunk, paths)) = held {
        // Squash- or rebase-merged on the forge and its branch deleted
        // there: the commits are not on the remote, their content is, on
        // the trunk `integrated` reads; pushing them again would put a
        // merged branch back (test/cases/466).
        parts.push(format!(
            "{} on HEAD {} not on {place} ({how}), but the trunk {} holds all {} HEAD changed, with the same content and modes (a squash or rebase merge), so the work is on the remote{also}",
            count(new_count, "commit"),
            are(new_count),
            short_ref(trunk),
            count(paths, "path")
        ));
    } else {
        let ids: Vec<&str> = new.iter().take(5).map(|c| short(c)).collect();
        owed.push(format!(
            "{} on HEAD {} not on {place} ({how}) nor on any other remote-tracking ref that counts: {}{also}",
            count(new_count, "commit"),
            are(new_count),
            names(&ids)
        ));
    }
    // The work this worktree made on other branches, and the submodules.
    let elsewhere = match &r.commit.elsewhere {
        Ok(e) => Some(e),
        Err(e) => {
            unread.push(e.clone());
            None
        }
    };
    for work in elsewhere.map(|e| e.branches.as_slice()).unwrap_or_default() {
        if let Some((trunk, paths)) = branch_held_by_trunk(r, &work.branch) {
            parts.push(format!(
                "the branch {} holds {} this worktree made since the start that no remote-tracking ref holds, but the trunk {} holds all {} it changed, with the same content and modes (a squash or rebase merge), so its work is on the remote",
                work.branch,
                count(work.count, "commit"),
                short_ref(trunk),
                count(paths, "path")
            ));
            continue;
        }
        owed_branches.push(&work.branch);
        let ids: Vec<&str> = work.commits.iter().take(5).map(|c| short(c)).collect();
        owed.push(format!(
            "the branch {} holds {} this worktree made since the start ({}) that no remote-tracking ref holds: {}",
            work.branch,
            count(work.count, "commit"),
            match work.made {
                Made::BranchMoved => "it existed at the start and moved since",
                Made::HeadReflog => "HEAD's reflog since the start names them",
                Made::RefWritten => "a ref written since the start holds them",
                Made::NotEvidence => "a remote-tracking ref that is not evidence holds them",
                Made::PeerUnproven => {
                    "the reflog of the worktree that has the branch checked out does not show them made there"
                }
            },
            names(&ids)
        ));
    }
    let mut tagged = false;
    for work in elsewhere.map(|e| e.tags.as_slice()).unwrap_or_default() {
        tagged = true;
        let ids: Vec<&str> = work.commits.iter().take(5).map(|c| short(c)).collect();
        let whose = if elsewhere.is_some_and(|e| e.reflog_rewritten) {
            "that no branch held at the start (HEAD's reflog was rewritten since the start, so it cannot say whether this worktree made them)"
        } else {
            "this worktree made since the start (HEAD's reflog since the start names them)"
        };
        owed.push(format!(
            "the tag {} holds {} {whose} that no remote-tracking ref holds: {}",
            work.branch,
            count(work.count, "commit"),
            names(&ids)
        ));
    }
    let mut kept_refs = false;
    let by_name = r.commit.evidence.as_ref().ok().map(|e| e.by_name());
    for work in elsewhere.map(|e| e.kept.as_slice()).unwrap_or_default() {
        kept_refs = true;
        let ids: Vec<&str> = work.commits.iter().take(5).map(|c| short(c)).collect();
        if work.made == Made::NotEvidence {
            let why = by_name.as_ref().and_then(|e| {
                e.set_aside_for(&work.branch)
                    .map(|s| s.why.clone())
                    .or_else(|| e.get(&work.branch).and_then(|t| t.at_start.clone()))
            });
            let why = why.map(|w| format!(": {w}")).unwrap_or_default();
            let whose = if elsewhere.is_some_and(|e| e.reflog_rewritten) {
                "that no branch held at the start (HEAD's reflog was rewritten since the start, so it cannot say whether this worktree made them)"
            } else {
                "this worktree made since the start"
            };
            owed.push(format!(
                "the remote-tracking ref {} is not evidence of its remote{why}; it holds {} {whose} that no remote-tracking ref that counts holds: {}",
                short_ref(&work.branch),
                count(work.count, "commit"),
                names(&ids)
            ));
            continue;
        }
        let how = if elsewhere.is_some_and(|e| e.kept_all_packed) {
            "is packed, and packed-refs changed since the start in what it holds of refs other than branches, so every packed ref is read"
        } else {
            "was written since the start"
        };
        owed.push(format!(
            "the ref {} {how}, and holds {} that no branch held at the start and no remote-tracking ref holds: {}",
            work.branch,
            count(work.count, "commit"),
            names(&ids)
        ));
    }
    if elsewhere.is_some_and(|e| e.truncated) {
        parts.push(format!(
            "the branches that moved since the start were walked for {} commits only",
            majordomus_readings::refs::attribution::WALKED
        ));
    }
    match &r.commit.submodules {
        Ok(subs) => {
            for sub in subs {
                // Where it was read, where no longer checked out at its
                // path (test/cases/577): what it is called, and the git
                // that runs in it.
                let (label, git_in) = where_read(sub);
                match &sub.on_remote {
                    OnRemote::Held(refname) => parts.push(format!(
                        "the submodule {label} points at {}, which its {} holds",
                        short(&sub.commit),
                        short_ref(refname)
                    )),
                    OnRemote::Missing => owed.push({
                        match push_from(sub, &git_in) {
                            Ok(p) => owed_submodules.push(p),
                            Err(advice) => repointed.push(advice),
                        }
                        format!(
                        "the submodule {label} points at {0}, which none of {1}'s remote-tracking refs holds{2}",
                        short(&sub.commit),
                        sub.path,
                        // Checked out nowhere, no branch is pushed there:
                        // the advice names the commit.
                        if matches!(sub.at, Some(Place::GitDir(_))) { String::new() } else { format!(" ({git_in} push)") }
                    )
                    }),
                    OnRemote::NotNamed { refname, named } => owed.push({
                        match push_from(sub, &git_in) {
                            Ok(p) => owed_submodules.push(p),
                            Err(advice) => repointed.push(advice),
                        }
                        let named = match named {
                            Some(url) => format!("the remote .gitmodules names for it ({url}), which is where everyone else fetches it from"),
                            None => "a remote .gitmodules names (it names none for it, so nobody else can fetch it)".to_string(),
                        };
                        format!(
                            "the submodule {label} points at {0}, which only {1}'s {2} holds, not {3}",
                            short(&sub.commit),
                            sub.path,
                            short_ref(refname),
                            named
                        )
                    }),
                    OnRemote::Unheld { refname, why } => owed.push({
                        match push_from(sub, &git_in) {
                            Ok(p) => owed_submodules.push(p),
                            Err(advice) => repointed.push(advice),
                        }
                        format!(
                            "the submodule {label} points at {0}, which {1}'s {2} says its remote holds, but {why} ({git_in} push {3} HEAD:BRANCH, to the remote itself)",
                            short(&sub.commit),
                            sub.path,
                            short_ref(refname),
                            refname.strip_prefix("refs/remotes/").and_then(|r| r.split('/').next()).unwrap_or("REMOTE")
                        )
                    }),
                    OnRemote::Unread(why) => unread.push(Unread::repository(format!(
                        "whether the submodule {label}'s remote holds {} cannot be read: {why}",
                        short(&sub.commit)
                    ))),
                    OnRemote::Repointed { was, url, there } => {
                        let named = match url {
                            Some(url) => format!(".gitmodules names {url} for it now, not {was} as at the start, and a clone fetches it from there"),
                            None => format!(".gitmodules names no URL for it now ({was} at the start)"),
                        };
                        let line = format!("the submodule {label} points at {}, but {named}", short(&sub.commit));
                        match there {
                            There::Held(by) => parts.push(format!("{line}: {by} holds it")),
                            There::Lacks(why) => {
                                owed_submodules.push(&sub.path);
                                repointed.push(repoint_advice(&sub.path, url.as_deref(), was));
                                owed.push(format!("{line}: {why}"));
                            }
                            There::Unread(why) => {
                                let u = Unread::repository(format!("{line}, and whether it holds it cannot be read: {why}"));
                                repointed_unread.get_or_insert_with(|| (u.reason.clone(), repoint_advice(&sub.path, url.as_deref(), was)));
                                unread.push(u);
                            }
                        }
                    }
                    OnRemote::Gone { url, name, there } => {
                        // With no URL named, what is left here does not
                        // matter: a clone cannot fetch it.
                        let line = match url {
                            Some(_) => format!(
                                "the submodule {} points at {}, and nothing of it is left on this machine (checked out nowhere, its repository gone)",
                                sub.path,
                                short(&sub.commit)
                            ),
                            None => format!("the gitlink {} points at {}", sub.path, short(&sub.commit)),
                        };
                        match (there, url) {
                            (There::Held(by), _) => parts.push(format!("{line}: {by} holds it")),
                            (There::Lacks(why), url) => {
                                if let Some(url) = url {
                                    repointed.push(format!(
                                        "push {} to {url} from a repository that holds it (git -C PATH push {} {}:refs/heads/BRANCH)",
                                        short(&sub.commit),
                                        shell_word(url),
                                        sub.commit
                                    ));
                                }
                                owed.push(format!("{line}: {why}"));
                            }
                            (There::Unread(why), url) => {
                                let u = Unread::repository(format!("{line}, and whether {} holds it cannot be read: {why}", url.as_deref().unwrap_or("its URL")));
                                let advice = clone_back(name.as_deref().unwrap_or(&sub.path), url.as_deref().unwrap_or("URL"));
                                repointed_unread.get_or_insert_with(|| (u.reason.clone(), advice));
                                unread.push(u);
                            }
                        }
                    }
                }
            }
        }
        Err(e) => unread.push(e.clone()),
    }
    // The work left inside the submodules' own repositories: their
    // branches and refs made or moved since the start.
    let mut sub_work: Vec<(&Left, &Unpushed)> = Vec::new();
    match &r.commit.in_submodules {
        Ok(all) => {
            for left in all {
                if let Some(why) = &left.unread {
                    unread.push(Unread::repository(format!(
                        "what the submodule {} holds cannot be read: {why}",
                        left.path
                    )));
                    continue;
                }
                for work in &left.unpushed {
                    let line = submodule_work(left, work);
                    if left.basis == Basis::NoSnapshot {
                        unread.push(Unread::record(format!(
                            "{line}, and the task record holds no snapshot of {}'s branches at the start to tell whether {} there then (start the task again)",
                            left.path,
                            if work.count == 1 { "it was" } else { "they were" }
                        )));
                    } else {
                        owed.push(line);
                        sub_work.push((left, work));
                    }
                }
                if left.truncated {
                    parts.push(format!(
                        "the branches of the submodule {} were walked for {} commits only",
                        left.path,
                        majordomus_readings::refs::in_submodules::WALKED
                    ));
                }
            }
        }
        Err(e) => unread.push(e.clone()),
    }
    let not_counted = not_evidence(&r.commit.evidence);
    let details = json!({
        "against": against,
        "how": how,
        "held_by_trunk": held.filter(|_| new_count > 0 && !unborn).map(|(trunk, paths)| json!({ "trunk": trunk, "paths": paths })),
        "unpushed": new,
        "count": new_count,
        "inherited": inherited,
        "all_unpushed": commits,
        "elsewhere": elsewhere.map(|e| e.branches.iter().map(|w| json!({ "branch": w.branch, "commits": w.commits, "count": w.count })).collect::<Vec<_>>()),
        "tags": elsewhere.map(|e| e.tags.iter().map(|w| json!({ "tag": w.branch, "commits": w.commits, "count": w.count })).collect::<Vec<_>>()),
        "refs": elsewhere.map(|e| e.kept.iter().map(|w| json!({ "ref": w.branch, "commits": w.commits, "count": w.count })).collect::<Vec<_>>()),
        "submodules": r.commit.submodules.as_ref().ok().map(|s| s.iter().map(|m| json!({ "path": m.path, "commit": m.commit, "on_remote": match &m.on_remote { OnRemote::Missing | OnRemote::NotNamed { .. } | OnRemote::Unheld { .. } => false, OnRemote::Repointed { there, .. } | OnRemote::Gone { there, .. } => matches!(there, There::Held(_)), _ => true } })).collect::<Vec<_>>()),
        "in_submodules": sub_work.iter().map(|(l, w)| json!({ "submodule": l.path, "ref": w.name, "branch": w.branch, "commits": w.commits, "count": w.count })).collect::<Vec<_>>(),
        "not_evidence": not_counted,
    });
    let noted = match not_counted.as_slice() {
        [] => String::new(),
        all => {
            const SHOWN: usize = 4;
            let more = all.len().saturating_sub(SHOWN);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!(". Not counted as evidence of a remote: {}{more}", all[..all.len().min(SHOWN)].join("; "))
        }
    };
    if !owed.is_empty() {
        let unread_too: String = unread.iter().map(|u| format!("; {}", u.reason)).collect();
        let v = Judgement::new(
            Status::Owed,
            format!("{}{unread_too}{noted}.", sentence(&owed.join("; ")).trim_end_matches('.')),
            details,
        );
        // The submodules' branches are pushed from there, to the remote
        // the superproject names for each.
        let in_subs = remedy::push_in_submodules(&sub_work);
        if owed.len() == sub_work.len() {
            return match in_subs {
                Ok(line) => v.command(line),
                Err(advice) => v.remedy(advice),
            };
        }
        let also = |advice: String| match (&in_subs, sub_work.is_empty()) {
            (_, true) => advice,
            (Ok(line), false) | (Err(line), false) => format!("{advice}; in each submodule named: {line}"),
        };
        // A pushed tag moves no remote-tracking ref, so no push of it
        // settles the question: where the work goes is the task's choice.
        if kept_refs {
            return v.remedy(also(
                "put the commits the refs named keep on a branch and push it (git push REMOTE REF^{commit}:refs/heads/BRANCH), or, where they are not work to keep, delete the ref (git update-ref -d REF; another worktree's, named worktrees/NAME/REF or main-worktree/REF, from that worktree: git -C PATH update-ref -d REF)".to_string(),
            ));
        }
        if tagged {
            return v.remedy(also(
                "put the tagged commits on a branch and push it (git push REMOTE TAG^{commit}:refs/heads/BRANCH), or, where they are not work to keep, delete the tag (git tag -d TAG)".to_string(),
            ));
        }
        let pushes = remedy::push(r, against, new_count > 0, &owed_branches, &owed_submodules);
        if !repointed.is_empty() {
            let line = pushes.unwrap_or_else(|advice| advice);
            return v.remedy(also(format!("{}; {line}", repointed.join("; "))));
        }
        return match (pushes, &in_subs) {
            (Ok(line), _) if sub_work.is_empty() => v.command(line),
            (Ok(line), Ok(subs)) => v.command(format!("{line} && {subs}")),
            (Ok(line), Err(_)) | (Err(line), _) => v.remedy(also(line)),
        };
    }
    if let Some(first) = unread.first() {
        return match repointed_unread {
            Some((reason, advice)) if reason == first.reason => Judgement::unread(first).remedy(advice),
            _ => Judgement::unread(first),
        };
    }
    Judgement::new(Status::Pass, format!("{}{noted}.", sentence(&parts.join("; ")).trim_end_matches('.')), details)
}

/// A submodule as named in a line, with where it was read where not at
/// its path, and the git that runs in its repository there.
fn where_read(sub: &Submodule) -> (String, String) {
    match &sub.at {
        None => (sub.path.clone(), format!("git -C {}", shell_word(&sub.path))),
        Some(Place::Checkout(p)) => {
            (format!("{} (checked out now at {p})", sub.path), format!("git -C {}", shell_word(p)))
        }
        Some(Place::GitDir(d)) => (
            format!("{} (checked out nowhere now, its repository kept at {d})", sub.path),
            format!("git --git-dir={0} --work-tree={0}", shell_word(d)),
        ),
    }
}

/// What brings back the reading of a submodule nothing of which is left
/// here: a clone of `url`, its repository where git keeps a submodule's
/// by its `name` (`modules/NAME` under the git directory), checked out in a
/// directory of its own outside the working tree, read there then
/// (test/cases/577).
fn clone_back(name: &str, url: &str) -> String {
    let parent = name.rsplit_once('/').map_or(String::new(), |(p, _)| format!("/{p}"));
    let git_dir = "\"$(git rev-parse --absolute-git-dir)\"";
    format!(
        "clone it back where git keeps it, and its remote is read there: mkdir -p {git_dir}/{} && git clone -q --no-checkout --separate-git-dir {git_dir}/{} {} \"$(mktemp -d)/checkout\"",
        shell_word(&format!("modules{parent}")),
        shell_word(&format!("modules/{name}")),
        shell_word(url)
    )
}

/// Where a submodule's commit is pushed from: `Ok` the path of its
/// checkout (`git -C PATH`), `Err` the advice for its repository checked
/// out nowhere (`git_in` the git that runs there).
fn push_from<'a>(sub: &'a Submodule, git_in: &str) -> Result<&'a str, String> {
    match &sub.at {
        None => Ok(&sub.path),
        Some(Place::Checkout(p)) => Ok(p),
        Some(Place::GitDir(_)) => Err(format!(
            "push {}'s commit {} from its repository, on a branch ({git_in} push REMOTE {}:refs/heads/BRANCH)",
            shell_word(&sub.path),
            short(&sub.commit),
            sub.commit
        )),
    }
}

/// What settles a submodule re-pointed in `.gitmodules` whose new URL
/// (`url`; `None`: none named) does not hold its commit: the commit
/// pushed there, from the submodule with its remote pointed where the
/// superproject now names it, or the URL named as at the start (`was`).
fn repoint_advice(path: &str, url: Option<&str>, was: &str) -> String {
    let path = shell_word(path);
    match url {
        Some(url) => format!(
            "push {path}'s commit where .gitmodules now names it, {url}, from a branch in {path} (git submodule sync -- {path} && git -C {path} push origin HEAD:refs/heads/BRANCH), or name {was} for it in .gitmodules again and commit that"
        ),
        None => format!(
            "name a URL for {path} in .gitmodules again (git config -f .gitmodules submodule.NAME.url {}) and commit it", shell_word(was)
        ),
    }
}

/// The trunk's remote-tracking ref and how many paths HEAD changed, where
/// the trunk does not reach HEAD but holds every path HEAD changed since
/// their merge base with HEAD's content (`integrated`'s squash or rebase
/// merge): the work on HEAD is on the remote, as content. Only a trunk
/// that is a remote-tracking ref counts (the trunk in force is one its
/// remote's evidence counts, at the value it counts), and only where HEAD
/// changed something: commits that change nothing on the whole hold no
/// work the trunk could have taken.
fn held_by_trunk(r: &Readings) -> Option<(&str, usize)> {
    use crate::family::integration::Integrated;
    use majordomus_readings::refs::Integration;
    match &r.integration.integrated {
        Ok(Integrated::Measured { trunk, integration: Integration::Holds { paths, .. } })
            if *paths > 0 && trunk.refname.starts_with("refs/remotes/") =>
        {
            Some((trunk.refname.as_str(), *paths))
        }
        _ => None,
    }
}

/// [`held_by_trunk`] for a local branch other than HEAD's, at the tip it
/// holds now (`integration`'s `branches_landed`).
fn branch_held_by_trunk<'a>(r: &'a Readings, branch: &str) -> Option<(&'a str, usize)> {
    use crate::family::integration::Integrated;
    let Ok(Integrated::Measured { trunk, .. }) = &r.integration.integrated else { return None };
    if !trunk.refname.starts_with("refs/remotes/") {
        return None;
    }
    let tip = r.branches.as_ref().ok()?.iter().find(|b| b.name == branch)?;
    let landed = r.integration.branches_landed.as_ref().ok()?;
    let paths = landed.iter().find(|l| l.name == branch && l.commit == tip.commit)?.held_paths?;
    (paths > 0).then_some((trunk.refname.as_str(), paths))
}

/// A submodule's branch or ref holding commits its remote lacks, as the
/// evidence names it: `the submodule lib: branch helper holds 1 commit no
/// remote of lib holds (made since the start): f7a5229`.
fn submodule_work(left: &Left, work: &Unpushed) -> String {
    let what = match work.branch {
        true => format!("branch {}", work.name),
        false => format!("the ref {}", work.name),
    };
    let mut notes = Vec::new();
    match (left.basis, work.moved) {
        (_, true) => notes.push("it moved since the start".to_string()),
        (Basis::Recorded, false) => notes.push("made since the start".to_string()),
        (Basis::NotThen, false) => notes.push(format!("{} was not checked out at the start", left.path)),
        (Basis::NoSnapshot, false) => {}
    }
    match (&left.named, left.checked_out) {
        (None, _) => notes.push(format!(".gitmodules names no remote for {}, so nobody else can fetch it", left.path)),
        (Some(_), false) => notes
            .push(format!("{} is no longer checked out here; its repository is kept in the git directory", left.path)),
        (Some(_), true) => {}
    }
    let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) };
    let ids: Vec<&str> = work.commits.iter().take(5).map(|c| short(c)).collect();
    format!(
        "the submodule {0}: {what} holds {1} no remote of {0} holds{notes}: {2}",
        left.path,
        count(work.count, "commit"),
        names(&ids)
    )
}

/// Whether the work this worktree left elsewhere (branches, tags, refs
/// written since the start, the submodules' own branches and refs) holds
/// anything, or cannot be read: what an unborn HEAD still owes.
fn holds_work(r: &Readings) -> bool {
    let in_submodules = match &r.commit.in_submodules {
        Ok(all) => all.iter().any(|l| l.unread.is_some() || !l.unpushed.is_empty()),
        Err(_) => true,
    };
    in_submodules
        || match &r.commit.elsewhere {
            Ok(e) => !(e.branches.is_empty() && e.tags.is_empty() && e.kept.is_empty()),
            Err(_) => true,
        }
}

/// What was seen of the remotes and not counted: each set-aside ref or
/// remote, and each ref read at its start value, with why (said once: a
/// ref read at its start value because of its remote is the remote's).
fn not_evidence(evidence: &majordomus_readings::Reading<RemoteEvidence>) -> Vec<String> {
    let Ok(evidence) = evidence else { return Vec::new() };
    let remotes: Vec<&str> = evidence.set_aside.iter().map(|s| s.why.as_str()).collect();
    evidence
        .set_aside
        .iter()
        .map(|s| s.why.clone())
        .chain(evidence.refs.iter().filter_map(|t| {
            let why = t.at_start.as_deref().filter(|w| !remotes.contains(w))?;
            Some(format!("{why}, so it is read at its start value"))
        }))
        .collect()
}

/// `: abc, def and 3 more`, naming the listed commits that are not among
/// the new ones; empty when the listing cannot tell them apart (more new
/// commits than were listed).
fn inherited_commits(all: &[String], new: &[String], new_count: usize, inherited: usize) -> String {
    if new.len() < new_count {
        return String::new();
    }
    const SHOWN: usize = 5;
    let ids: Vec<&str> = all.iter().filter(|c| !new.contains(c)).take(SHOWN).map(|c| short(c)).collect();
    if ids.is_empty() {
        return String::new();
    }
    let more = inherited.saturating_sub(ids.len());
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!(": {}{more}", ids.join(", "))
}

fn inherited_clause<S: std::fmt::Display>(kept: &[S], what: &str) -> String {
    if kept.is_empty() {
        String::new()
    } else {
        format!(" ({} already {what} at the start, not counted: {})", count(kept.len(), "path"), names(kept))
            .replace("path already in the stash", "entry already in the stash")
    }
}

#[cfg(test)]
mod tests;
