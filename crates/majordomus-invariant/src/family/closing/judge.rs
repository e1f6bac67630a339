//! The closing family judged: `no-new-debt`, `nothing-accumulated`,
//! `backlog-not-grown`, from the readings `readings.rs` takes. No I/O.
//!
//! What the readings cannot see is not reconstructed: what was removed since
//! the start left no record, so these name what was added and remains and
//! state the totals now, never the difference of two totals.

use chrono::{DateTime, Utc};
use serde_json::json;

use majordomus_readings::reflog::Dating;
use majordomus_readings::refs::in_submodules::{Basis, Left};
use majordomus_readings::refs::Push;
use majordomus_readings::Unread;
use majordomus_records::forge::PullRequest;
use majordomus_records::names::Names;
use majordomus_records::policy::Provider;
use majordomus_records::task::TaskRecord;

use super::readings::Made;
use crate::answer::Status;
use crate::family::integration::Integrated;
use crate::judgement::{with, Judgement};
use crate::prose::{are, count, names, sentence, shell_word};
use crate::readings::Readings;

/// The trunk's branch name, `main` for `refs/remotes/origin/main` or
/// `refs/heads/main`, and the local branches that track the trunk's ref (a
/// local main tracking `origin/trunk`, which stands for it: test/cases/409);
/// `None` when the trunk could not be read.
struct TrunkBranches<'a> {
    name: &'a str,
    tracking: Vec<&'a str>,
}

fn trunk_branch(r: &Readings) -> Option<TrunkBranches<'_>> {
    let Ok(Integrated::Measured { trunk, .. }) = &r.integration.integrated else { return None };
    let tracking = match &r.branches {
        Ok(branches) => branches
            .iter()
            .filter(|b| b.upstream.as_ref().is_some_and(|u| u.refname == trunk.refname))
            .map(|b| b.name.as_str())
            .collect(),
        Err(_) => Vec::new(),
    };
    Some(TrunkBranches { name: &trunk.branch, tracking })
}

/// The trunk's ref as `git switch --detach` takes it: `origin/main`,
/// `main`; `None` when the trunk could not be read.
fn trunk_ref(r: &Readings) -> Option<String> {
    let Ok(Integrated::Measured { trunk, .. }) = &r.integration.integrated else { return None };
    // In full where a branch or tag of its short name would be read in its
    // place (test/cases/618).
    Some(crate::family::commit::remedy::named(&trunk.refname, r))
}

/// The task's own branch (the one checked out at the start), unless it is
/// the trunk's: the local branch named as the trunk's branch, or, when the
/// trunk could not be read, `main` or `master`.
fn own_branch<'a>(task: &'a TaskRecord, trunk: Option<&TrunkBranches<'_>>) -> Option<&'a str> {
    task.branch.as_deref().filter(|b| !is_trunk_branch(b, trunk))
}

/// Whether a local branch is the trunk's: named as the trunk's branch or
/// tracking its ref, or, when the trunk could not be read, `main` or
/// `master`.
fn is_trunk_branch(branch: &str, trunk: Option<&TrunkBranches<'_>>) -> bool {
    match trunk {
        Some(t) => branch == t.name || t.tracking.contains(&branch),
        None => matches!(branch, "main" | "master"),
    }
}

/// Why a branch or worktree counts as created since the start, or not.
enum Age {
    Created(String),
    Older,
    Undated(String),
}

/// Why the task's own branch counts as created by the task.
const OWN_BRANCH: &str = "the task's own branch (checked out at the start)";

fn age(
    made: &Made,
    at_start: Option<Option<&str>>,
    started: DateTime<Utc>,
    kind: &str,
    own_branch: Option<&str>,
    trunk: Option<&TrunkBranches<'_>>,
) -> Age {
    let later = |t: DateTime<Utc>| {
        format!("its reflog begins at {}, after the start", t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
    };
    // The task's own branch is the task's work whenever it was made: it is
    // owed until the work has landed and the branch is gone.
    if kind == "branch" && own_branch == Some(made.name.as_str()) {
        return Age::Created(OWN_BRANCH.into());
    }
    // The trunk's own local branch is where the work lands, never something
    // the work left behind: not even when the repository had no commit (so
    // no branch) at the start.
    if kind == "branch" && is_trunk_branch(&made.name, trunk) {
        return Age::Older;
    }
    match (at_start, &made.dating) {
        // With a snapshot: what it did not hold was created since; what it
        // held is older, unless it moved and its reflog begins after the
        // start (deleted, made again elsewhere).
        (Some(None), _) => Age::Created("not there at the start".into()),
        (Some(Some(then)), _) if kind == "worktree" && then != made.at => {
            Age::Created(format!("at {then} at the start, at another path now"))
        }
        // Removed and added again at the same path (`git worktree remove`,
        // `git worktree add --detach`), its reflog then emptied or never
        // written (`core.logAllRefUpdates` off): not the start's worktree,
        // whose making `git worktree add` dates (test/cases/653).
        (Some(Some(_)), _) if made.written.is_some_and(|t| t > started) => Age::Created(format!(
            "made again at the same path since the start: git worktree add wrote it at {}",
            made.written.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)).unwrap_or_default()
        )),
        // At the very commit it held then, it holds what it held: the
        // start's branch, even if deleted and made again (its reflog is
        // then not read: `readings::accumulated`).
        (Some(Some(then)), _) if kind == "branch" && then == made.at => Age::Older,
        (Some(Some(_)), Dating::FirstLogged(t)) if *t > started => Age::Created(later(*t)),
        (Some(Some(_)), _) => Age::Older,
        // Without one, its reflog's first line is the reading; the record's
        // start has whole seconds, so the very second of the start counts.
        (None, Dating::FirstLogged(t)) if *t >= started => Age::Created(later(*t)),
        (None, Dating::FirstLogged(_)) => Age::Older,
        (None, Dating::Undated(reason)) => Age::Undated((*reason).to_string()),
    }
}

pub(crate) fn nothing_accumulated(task: &TaskRecord, r: &Readings) -> Judgement {
    let acc = match &r.closing.accumulated {
        Ok(a) => a,
        Err(e) => return Judgement::unread(e),
    };
    let started = match task.started_at() {
        Ok(t) => t,
        Err(reason) => return Judgement::unread(&Unread::record(reason)),
    };
    let checked_out = r.head.as_ref().ok().and_then(|h| h.branch.as_deref());
    let trunk = trunk_branch(r);
    let own = own_branch(task, trunk.as_ref());
    let snap = &task.snapshot;
    let mut created: Vec<(String, serde_json::Value, Option<String>)> = Vec::new();
    let mut undated: Vec<String> = Vec::new();
    let mut undated_rows = Vec::new();
    let families =
        [("worktree", &acc.worktrees, snap.worktrees.as_ref()), ("branch", &acc.branches, snap.branches.as_ref())];
    for (kind, all, then) in families {
        let mut then = then.map(Names::in_order);
        for made in all {
            let at_start = then.as_mut().map(|m| m.get(&made.name));
            match age(made, at_start, started, kind, own, trunk.as_ref()) {
                Age::Older => {}
                Age::Created(why) => {
                    let label = match kind {
                        "worktree" if made.missing => {
                            format!("worktree {} at {} (its directory is gone; git still lists it)", made.name, made.at)
                        }
                        // The start's name at the start's path: made again since.
                        "worktree" if at_start.is_some_and(|t| t == Some(&made.at)) => {
                            format!("worktree {} at {} (made again there since the start)", made.name, made.at)
                        }
                        "worktree" => format!("worktree {} at {}", made.name, made.at),
                        _ => {
                            let mut marks = Vec::new();
                            if Some(made.name.as_str()) == own {
                                marks.push("the task's own branch");
                            }
                            if Some(made.name.as_str()) == checked_out {
                                marks.push("checked out here");
                            }
                            if marks.is_empty() {
                                format!("branch {}", made.name)
                            } else {
                                format!("branch {} ({})", made.name, marks.join(", "))
                            }
                        }
                    };
                    let remedy = match kind {
                        // Its commits may be kept by nothing but its HEAD:
                        // removing or pruning it would lose them, so no
                        // command is given (the advice says to land first).
                        "worktree" if made.detached => None,
                        "worktree" if made.missing => Some("git worktree prune".to_string()),
                        "worktree" => Some(format!("git worktree remove {}", shell_word(&made.at))),
                        // A branch checked out here cannot be deleted from
                        // here: HEAD leaves it for the trunk's commit,
                        // detached, which works in a linked worktree too
                        // (the trunk's own branch may be checked out in
                        // another one).
                        _ if Some(made.name.as_str()) == checked_out => trunk_ref(r).map(|t| {
                            format!(
                                "git switch --detach {} && git branch {} {}",
                                shell_word(&t),
                                delete_flag(r, &made.name, &made.at, true),
                                shell_word(&made.name)
                            )
                        }),
                        _ => Some(format!(
                            "git branch {} {}",
                            delete_flag(r, &made.name, &made.at, false),
                            shell_word(&made.name)
                        )),
                    };
                    // The task's own branch, there at the start: owed, never
                    // said to be created since.
                    let there_at_start =
                        kind == "branch" && Some(made.name.as_str()) == own && matches!(at_start, Some(Some(_)));
                    let row = json!({
                        "kind": kind, "name": made.name, "at": made.at, "why": why, "there_at_start": there_at_start,
                        "first_logged": made.dating.first_logged().map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
                    });
                    created.push((label, row, remedy));
                }
                Age::Undated(reason) => {
                    undated.push(format!("{kind} {} ({reason})", made.name));
                    undated_rows.push(json!({ "kind": kind, "name": made.name, "at": made.at, "reason": reason }));
                }
            }
        }
    }
    // A branch a push from here made on a remote since the start: the
    // remote keeps it after the local one is gone. A command only where the
    // trunk holds its work: `git push --delete` does not ask.
    let mut pushed: Vec<(String, serde_json::Value, Option<String>)> = Vec::new();
    for p in &acc.remote_branches {
        let row = json!({
            "kind": "remote branch", "name": format!("{}/{}", p.remote, p.branch), "at": p.commit,
            "why": "pushed from here since the start", "there_at_start": false, "landed": p.landed,
            "first_logged": p.made_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        });
        // A push mirror refuses `--delete`; pushing it deletes there what
        // is gone here. A forge that deletes a branch as it merges it
        // leaves the ref here until a fetch prunes it (git does not prune
        // by default), and `git push --delete` of a branch already gone
        // fails, deleting nothing: the prune is the way out then, and
        // leaves a branch the remote still has where it is
        // (test/cases/572).
        let remedy = p.landed.then(|| {
            if p.mirror {
                format!("git push {}", shell_word(&p.remote))
            } else {
                delete_or_prune(&p.remote, &p.branch)
            }
        });
        pushed.push((format!("{}'s branch {}", p.remote, p.branch), row, remedy));
    }
    // A symbolic branch (`git symbolic-ref refs/heads/alias
    // refs/heads/main`, listed by `git branch` as `alias -> main`): a name
    // for another branch, holding no commit of its own, made since the
    // start where its file was written since (it keeps no reflog).
    for alias in &acc.aliases {
        match alias.dating.first_logged() {
            Some(t) if t >= started => {
                let target = alias.at.strip_prefix("refs/heads/").unwrap_or(&alias.at);
                let row = json!({
                    "kind": "branch", "name": alias.name, "at": alias.at, "symbolic": true,
                    "why": "a symbolic ref written since the start", "there_at_start": false,
                    "first_logged": t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                });
                let remedy = format!("git symbolic-ref --delete {}", shell_word(&format!("refs/heads/{}", alias.name)));
                created.push((format!("branch {} (a symbolic ref to {target})", alias.name), row, Some(remedy)));
            }
            Some(_) => {}
            None => {
                undated.push(format!("branch {} (a symbolic ref whose file cannot be dated)", alias.name));
                undated_rows.push(json!({ "kind": "branch", "name": alias.name, "at": alias.at, "reason": "a symbolic ref whose file cannot be dated" }));
            }
        }
    }
    // The branches and worktrees made inside the submodules' own
    // repositories (read with the commit family's readings).
    match &r.commit.in_submodules {
        Ok(all) => {
            for left in all {
                in_submodule(left, snap, started, &mut created, &mut undated, &mut undated_rows);
            }
        }
        Err(e) => {
            undated.push(format!("the submodules' branches and worktrees ({})", e.reason));
            undated_rows.push(json!({ "kind": "submodule", "name": null, "reason": e.reason }));
        }
    }
    let basis = match (snap.branches.is_some(), snap.worktrees.is_some()) {
        (true, true) => "compared with the start snapshot".to_string(),
        (false, false) => "dated by the first line of their reflogs, as the task record holds no snapshot of them; an expired reflog reads younger than its ref".to_string(),
        (true, false) => "branches compared with the start snapshot, worktrees dated by their reflogs".to_string(),
        (false, true) => "worktrees compared with the start snapshot, branches dated by their reflogs".to_string(),
    };
    let totals = format!(
        "{} and {} now",
        count(acc.branches.len() + acc.unchanged_branches, "local branch"),
        count(acc.worktrees.len(), "linked worktree")
    );
    let details = json!({
        "basis": if snap.branches.is_some() && snap.worktrees.is_some() { "snapshot" } else { "reflogs" },
        "started_at": task.started_at,
        "own_branch": own,
        "trunk_branch": trunk.as_ref().map(|t| t.name),
        "created": created.iter().map(|(_, row, _)| row).collect::<Vec<_>>(),
        "pushed_to_remotes": pushed.iter().map(|(_, row, _)| row).collect::<Vec<_>>(),
        "undated": undated_rows,
        "branches_now": acc.branches.len() + acc.unchanged_branches,
        "worktrees_now": acc.worktrees.len(),
    });
    let undated_what = kinds(&undated_rows);
    let totals = sentence(&totals);
    if !created.is_empty() || !pushed.is_empty() {
        let remedies: Option<Vec<&str>> = created.iter().chain(&pushed).map(|(_, _, r)| r.as_deref()).collect();
        let (older, new): (Vec<_>, Vec<_>) = created.iter().partition(|(_, row, _)| row["there_at_start"] == true);
        let mut said = Vec::new();
        if !new.is_empty() {
            let labels: Vec<&str> = new.iter().map(|(l, _, _)| l.as_str()).collect();
            said.push(format!(
                "{} created since the start {} still there ({basis}): {}.",
                kinds(&new.iter().map(|(_, row, _)| row.clone()).collect::<Vec<_>>()),
                are(new.len()),
                names(&labels),
            ));
        }
        if !pushed.is_empty() {
            let labels: Vec<&str> = pushed.iter().map(|(l, _, _)| l.as_str()).collect();
            said.push(format!(
                "{} pushed from here since the start {} still on {}: {}.",
                count(pushed.len(), "remote branch"),
                are(pushed.len()),
                if pushed.len() == 1 { "its remote" } else { "their remotes" },
                names(&labels),
            ));
        }
        for (label, _, _) in &older {
            said.push(format!(
                "The {label} was there at the start and is still there: it is owed until its work has landed and it is gone."
            ));
        }
        let undated_clause = if undated.is_empty() {
            String::new()
        } else {
            format!(
                " {undated_what} cannot be dated and {} counted on neither side: {}.",
                are(undated.len()),
                names(&undated)
            )
        };
        let v = Judgement::new(Status::Owed, format!("{} {totals}{undated_clause}", said.join(" ")), details);
        match remedies {
            // git branch -d refuses a branch whose work has not landed, and
            // git worktree remove a worktree with changes not committed (one
            // whose HEAD is detached gives no command at all: its commits
            // are on no branch): the line removes only what is safe to
            // remove.
            Some(lines) => v.command(joined(&lines)),
            None => v.remedy(
                "once their work has landed, remove each: git branch -d BRANCH from a worktree where it is not checked out, git worktree remove PATH, git push REMOTE --delete BRANCH; a submodule's from the submodule once its remote holds the branch's commits (git -C PATH push -u REMOTE BRANCH, then git -C PATH switch --detach where it is checked out there and git -C PATH branch -D BRANCH; git submodule update --init PATH first where it is no longer checked out)",
            ),
        }
    } else if !undated.is_empty() {
        Judgement::new(
            Status::Unknown,
            format!(
                "No branch or worktree is known to be created since the start ({basis}), but {undated_what} cannot be dated, so whether {} is not known: {}. {totals}",
                if undated.len() == 1 { "it was" } else { "they were" },
                names(&undated)
            ),
            details,
        )
        .remedy("date them by hand (git reflog, git worktree list), or start the task again so its record holds a snapshot")
    } else {
        Judgement::new(
            Status::Pass,
            format!("No branch or linked worktree created since the start is still there ({basis}). {totals}"),
            details,
        )
    }
}

/// The line that takes a branch pushed from here off its remote: `git push
/// REMOTE --delete refs/heads/BRANCH`, or, where git refuses that because
/// the remote has no such branch any more (a forge deletes a branch as it
/// merges it, and a fetch does not prune by default), a prune of the
/// remote's refs here, which leaves a branch the remote still has where it
/// is. The branch is named in full: a short name the remote also holds as
/// a tag (`v2`, `hotfix`) matches both there, git refuses the delete
/// ("dst refspec matches more than one") and the prune took its place,
/// exiting 0 with the branch still there (test/cases/603).
fn delete_or_prune(remote: &str, branch: &str) -> String {
    let remote = shell_word(remote);
    format!("git push {remote} --delete {} || git fetch --prune {remote}", shell_word(&format!("refs/heads/{branch}")))
}

/// The remedies joined into one line: `&&` between them, a line that is
/// itself a choice (`A || B`) braced so that it stays one step.
fn joined(lines: &[&str]) -> String {
    if lines.len() < 2 {
        return lines.concat();
    }
    let step = |l: &&str| if l.contains(" || ") { format!("{{ {l}; }}") } else { l.to_string() };
    lines.iter().map(step).collect::<Vec<_>>().join(" && ")
}

/// The flag that deletes a local branch at `tip`: `-D` where its work is
/// proven on the trunk (the trunk reaches it, or holds every path it
/// changed with its content: a squash or rebase merge, which no ancestry
/// shows, so `git branch -d` refuses it as "not fully merged":
/// test/cases/466), else `-d`, which refuses work that has not landed.
/// HEAD's branch (`checked_out`) is read from `integrated`'s answer for
/// HEAD; another from `integration`'s `branches_landed`.
fn delete_flag(r: &Readings, name: &str, tip: &str, checked_out: bool) -> &'static str {
    use majordomus_readings::refs::Integration;
    let landed = if checked_out {
        matches!(
            &r.integration.integrated,
            Ok(Integrated::Measured { integration: Integration::Holds { paths, .. }, .. }) if *paths > 0
        )
    } else {
        r.integration.branches_landed.as_ref().is_ok_and(|all| {
            all.iter().any(|l| l.name == name && l.commit == tip && l.held_paths.map_or(true, |p| p > 0))
        })
    };
    if landed {
        "-D"
    } else {
        "-d"
    }
}

/// What a row of `nothing-accumulated` is: its label, its details, its
/// command (none where only advice fits).
type Row = (String, serde_json::Value, Option<String>);

/// The branches and linked worktrees of one submodule's own repository
/// made since the start, into `created`, and those that cannot be dated,
/// into `undated`. Compared with the start snapshot where it holds the
/// submodule; else dated by their reflogs (the branch its clone made is
/// not listed by the reading). Its `main` or `master` is where its work
/// lands, never counted, as the trunk's branch is not here.
fn in_submodule(
    left: &Left,
    snap: &majordomus_records::task::Snapshot,
    started: DateTime<Utc>,
    created: &mut Vec<Row>,
    undated: &mut Vec<String>,
    undated_rows: &mut Vec<serde_json::Value>,
) {
    let sub = shell_word(&left.path);
    if let Some(why) = &left.unread {
        undated.push(format!("the branches and worktrees of the submodule {} ({why})", left.path));
        undated_rows.push(json!({ "kind": "submodule", "submodule": left.path, "reason": why }));
        return;
    }
    // As the reading found it: held by the snapshot, or dated.
    let then = snap.submodules.as_ref().and_then(|m| m.get(&left.path)).filter(|_| left.basis == Basis::Recorded);
    for (kind, all) in [("worktree", &left.worktrees), ("branch", &left.branches)] {
        for dated in all {
            let made = Made {
                name: dated.name.clone(),
                at: dated.at.clone(),
                dating: dated.dating.clone(),
                missing: dated.missing,
                detached: dated.detached,
                written: None,
            };
            let at_start = then.map(|t| match kind {
                "worktree" => t.worktrees.get(&made.name),
                _ => t.branches.get(&made.name),
            });
            match age(&made, at_start, started, kind, None, None) {
                Age::Older => {}
                Age::Created(why) => {
                    let (label, remedy) = match kind {
                        "worktree" if made.missing => (
                            format!(
                                "worktree {} at {} of the submodule {} (its directory is gone; git still lists it)",
                                made.name, made.at, left.path
                            ),
                            Some(format!("git -C {sub} worktree prune")),
                        ),
                        "worktree" => (
                            format!("worktree {} at {} of the submodule {}", made.name, made.at, left.path),
                            (!made.detached).then(|| format!("git -C {sub} worktree remove {}", shell_word(&made.at))),
                        ),
                        _ if left.head_branch.as_deref() == Some(made.name.as_str()) => (
                            format!("branch {} in the submodule {} (checked out there)", made.name, left.path),
                            on_remote(dated).then(|| {
                                format!(
                                    "git -C {sub} switch --detach && git -C {sub} branch -D {}",
                                    shell_word(&made.name)
                                )
                            }),
                        ),
                        _ => (
                            format!("branch {} in the submodule {}", made.name, left.path),
                            on_remote(dated).then(|| format!("git -C {sub} branch -D {}", shell_word(&made.name))),
                        ),
                    };
                    // `git -C` of a submodule's empty directory is the
                    // superproject's: no command where it is not checked out.
                    let remedy = remedy.filter(|_| left.checked_out);
                    let row = json!({
                        "kind": kind, "submodule": left.path, "name": made.name, "at": made.at, "why": why,
                        "there_at_start": false,
                        "first_logged": made.dating.first_logged().map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
                    });
                    created.push((label, row, remedy));
                }
                Age::Undated(reason) => {
                    undated.push(format!("{kind} {} of the submodule {} ({reason})", made.name, left.path));
                    undated_rows.push(
                        json!({ "kind": kind, "submodule": left.path, "name": made.name, "at": made.at, "reason": reason }),
                    );
                }
            }
        }
    }
}

/// Whether a submodule's branch may be deleted by a command: only where a
/// remote-tracking ref of the remote named holds its commit. `git branch
/// -d` is no guard there: HEAD, detached where the branch was so that the
/// submodule stays at the commit the superproject records, holds the
/// branch's work, and a detach at the submodule's trunk would move it off
/// that commit. So a branch whose work is on no remote gets advice (push
/// it, or decide it is not work to keep), never a line that deletes it
/// (test/cases/542).
fn on_remote(dated: &majordomus_readings::refs::in_submodules::Dated) -> bool {
    dated.on_remote
}

/// `2 branches`, `1 worktree`, `1 worktree and 2 branches`, from rows
/// carrying their `kind`.
fn kinds(rows: &[serde_json::Value]) -> String {
    let n = |kind: &str| rows.iter().filter(|r| r["kind"] == kind).count();
    let said = match (n("worktree"), n("branch")) {
        (0, 0) => None,
        (0, b) => Some(count(b, "branch")),
        (w, 0) => Some(count(w, "worktree")),
        (w, b) => Some(format!("{} and {}", count(w, "worktree"), count(b, "branch"))),
    };
    // A submodule that cannot be read: its branches and worktrees at once.
    match (said, n("submodule")) {
        (Some(said), 0) => said,
        (None, 0) => count(0, "branch"),
        (None, s) => format!("the branches and worktrees of {}", count(s, "submodule")),
        (Some(said), s) => format!("{said}, and the branches and worktrees of {}", count(s, "submodule")),
    }
}

pub(crate) fn backlog_not_grown(task: &TaskRecord, r: &Readings) -> Judgement {
    let backlog = match &r.closing.backlog {
        Ok(b) => b,
        Err(e) => return Judgement::unread(e),
    };
    if backlog.provider == Some(Provider::None) {
        return Judgement::new(
            Status::Exempt,
            "The policy declares no forge ([forge] provider = \"none\"), so no pull request can be open on one.",
            json!({ "forge_provider": "none" }),
        );
    }
    let refresh = "majordomus forge refresh";
    let Some(obs) = &backlog.observation else {
        // The default forge where no remote names a repository on one, and
        // nothing was ever observed: there is nothing it could observe. An
        // observation recorded all the same (a gh that answered) is judged
        // as ever.
        if backlog.provider.is_none() && backlog.remotes_on_this_machine {
            return Judgement::new(
                Status::Exempt,
                "No [forge] provider is set, and every remote is a directory on this machine, now and at the task's \
                 start, not a forge: nothing holds pull requests for this repository. Set [forge] provider in \
                 .ai/repo/majordomus.toml to name a forge.",
                json!({ "forge_provider": null, "remotes": "on this machine" }),
            );
        }
        // A repository with no remote may have no forge at all: then the
        // policy says so once, rather than a refresh that has nothing to
        // observe.
        let no_remote = matches!(r.commit.push, Ok(Push::NoRemote));
        let never = "The forge was never observed: no observation is recorded for this repository \
                     (majordomus/forge.json in its common git directory)";
        let (evidence, remedy) = if no_remote {
            (
                format!("{never}, and the repository has no remote, so nothing says which pull requests are open."),
                "majordomus forge refresh where the repository has a forge; where it has none, say so in \
                 .ai/repo/majordomus.toml: [forge] provider = \"none\"",
            )
        } else {
            (format!("{never}, so nothing says which pull requests are open."), refresh)
        };
        return Judgement::new(Status::Unknown, evidence, json!({ "observation": null, "remote": !no_remote }))
            .remedy(remedy);
    };
    let started = match task.started_at() {
        Ok(t) => t,
        Err(reason) => return Judgement::unread(&Unread::record(reason)),
    };
    let stamp = |t: DateTime<Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let base = json!({ "repository": obs.repository, "observed_at": obs.observed_at, "started_at": task.started_at });
    let Some(observed) = obs.observed_at() else {
        return Judgement::unread(&Unread::record(format!(
            "the forge observation's time {:?} cannot be read",
            obs.observed_at
        )))
        .remedy(refresh);
    };
    if observed < started {
        return Judgement::new(
            Status::Unknown,
            format!(
                "The forge was last observed at {}, before the task started at {}: an observation from before the task cannot say what its hours brought.",
                stamp(observed),
                stamp(started)
            ),
            with(base, json!({ "unread": "observed before the task started" })),
        )
        .remedy(refresh);
    }
    if let Some(max) = backlog.max_age_minutes {
        let age = (backlog.read_at - observed).num_minutes();
        if age > i64::try_from(max).unwrap_or(i64::MAX) {
            return Judgement::new(
                Status::Unknown,
                format!(
                    "The forge was last observed at {}, {age} minutes ago, older than the policy's [forge] max_age_minutes = {max}.",
                    stamp(observed)
                ),
                with(base, json!({ "unread": "older than the policy's maximum age", "age_minutes": age, "max_age_minutes": max })),
            )
            .remedy(refresh);
        }
    }
    let open: Vec<&PullRequest> = obs.pull_requests.iter().filter(|p| p.state.eq_ignore_ascii_case("open")).collect();
    let created = |p: &PullRequest| {
        p.created_at.as_deref().and_then(|t| DateTime::parse_from_rfc3339(t).ok()).map(|t| t.with_timezone(&Utc))
    };
    let undated: Vec<String> = open.iter().filter(|p| created(p).is_none()).map(|p| format!("#{}", p.number)).collect();
    if !undated.is_empty() {
        return Judgement::new(
            Status::Unknown,
            format!(
                "The observation of {} holds no creation time for {}, so whether {} opened since the start cannot be said: {}.",
                obs.repository,
                count(undated.len(), "open pull request"),
                if undated.len() == 1 { "it was" } else { "they were" },
                names(&undated)
            ),
            with(base, json!({ "undated": undated })),
        )
        .remedy(refresh);
    }
    // Created in the very second the task started counts: the record's
    // start has whole seconds, and the doubt goes towards asking again.
    // Made before the start, and not open in the observation the start
    // kept (made after that observation was taken, it could not be in it):
    // reopened since (`gh pr reopen`), which grows the backlog as a pull
    // request opened does.
    let at_start = task.snapshot.open_pull_requests.as_ref().filter(|o| o.repository == obs.repository);
    let start_observed = at_start.and_then(|o| DateTime::parse_from_rfc3339(&o.observed_at).ok());
    let reopened = |p: &PullRequest| match (at_start, start_observed, created(p)) {
        (Some(o), Some(then), Some(t)) => t < then && !o.numbers.contains(&p.number),
        _ => false,
    };
    let since: Vec<&&PullRequest> =
        open.iter().filter(|p| created(p).is_some_and(|t| t >= started) || reopened(p)).collect();
    let details = with(
        base,
        json!({
            "open_now": open.len(),
            "opened_since": since.iter().map(|p| json!({
                "number": p.number, "title": p.title, "author": p.author, "head": p.head, "created_at": p.created_at,
                "reopened": reopened(p),
            })).collect::<Vec<_>>(),
            "open_at_start": at_start.map(|o| json!({ "observed_at": o.observed_at, "numbers": o.numbers })),
        }),
    );
    let how = match obs.provenance.as_ref().map(|p| p.by.as_str()) {
        Some("recorded") => {
            " (typed in with majordomus forge record, as the policy's [forge] provider = \"recorded\" allows)"
        }
        Some("glab") => " through glab",
        _ => "",
    };
    let now = format!(
        "{} open on {} now, observed at {}{how}",
        count(open.len(), "pull request"),
        obs.repository,
        stamp(observed)
    );
    if since.is_empty() {
        Judgement::new(Status::Pass, format!("No pull request opened since the start is open; {now}."), details)
    } else {
        let labels: Vec<String> = since
            .iter()
            .map(|p| {
                let by = p.author.as_deref().map(|a| format!(" by {a}")).unwrap_or_default();
                let again = match at_start.filter(|_| reopened(p)) {
                    Some(o) => format!(
                        " (made before the start, and not open when the forge was observed at {}, before it: reopened)",
                        o.observed_at
                    ),
                    None => String::new(),
                };
                format!("#{} {:?}{by}{again}", p.number, p.title)
            })
            .collect();
        Judgement::new(
            Status::Owed,
            format!(
                "{} opened since the start {} still open: {}. {}.",
                count(since.len(), "pull request"),
                if since.len() == 1 { "is" } else { "are" },
                names(&labels),
                sentence(&now).trim_end_matches('.')
            ),
            details,
        )
    }
}

mod debt;
pub(crate) use debt::no_new_debt;

#[cfg(test)]
mod tests;
