//! The integration family judged: `integrated` from the trunk's reading,
//! `upstream-alive` from the local branches.

use serde_json::json;

use majordomus_readings::refs::Integration;

use super::Integrated;
use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::prose::{count, count_verb, names, shell_word, short, short_ref};
use crate::readings::Readings;

pub(crate) fn integrated(r: &Readings) -> Judgement {
    let of_head = integrated_head(r);
    let aside = match &r.integration.aside {
        Ok(a) if !a.is_empty() => a,
        Ok(_) => return of_head,
        Err(e) if matches!(of_head.status, Status::Pass | Status::Exempt) => return Judgement::unread(e),
        Err(_) => return of_head,
    };
    // Work pushed to a branch and left there while HEAD went back is the
    // task's work too: the trunk must hold it (test/cases/305).
    let refs: Vec<String> = aside.iter().map(|a| format!("{} ({})", short_ref(&a.refname), short(&a.commit))).collect();
    let clause = format!(
        "{} {} work this worktree made since the start that HEAD does not reach and the trunk does not hold: {}",
        count(aside.len(), "remote-tracking ref"),
        if aside.len() == 1 { "holds" } else { "hold" },
        names(&refs)
    );
    let details = with(
        of_head.details.clone(),
        json!({ "aside": aside.iter().map(|a| json!({ "ref": a.refname, "commit": a.commit })).collect::<Vec<_>>() }),
    );
    let evidence = format!("{}; and {clause}.", of_head.evidence.trim_end_matches('.'));
    // An unborn HEAD's exemption (nothing of its own to integrate) does
    // not cover work it left on the remote (test/cases/346).
    if !matches!(of_head.status, Status::Pass | Status::Exempt) {
        return Judgement { evidence, details, ..of_head };
    }
    Judgement::new(Status::Owed, evidence, details).remedy(
        "merge that work into the trunk, or delete the branch on the remote (git push REMOTE --delete BRANCH) if it is not to land",
    )
}

/// The trunk not guessed between two conventional names the remote's HEAD
/// does not choose from: unknown, naming both and what sets the remote's
/// HEAD (test/cases/544).
fn undecided(u: &majordomus_readings::refs::Undecided) -> Judgement {
    Judgement::new(
        Status::Unknown,
        crate::prose::sentence(&u.reason()),
        json!({ "trunk": null, "trunk_candidates": u.candidates, "unread_kind": "repository" }),
    )
    .remedy(u.remedy())
}

fn integrated_head(r: &Readings) -> Judgement {
    let integrated = match &r.integration.integrated {
        Ok(i) => i,
        Err(e) => return Judgement::unread(e),
    };
    let (trunk, integration) = match integrated {
        Integrated::Measured { trunk, integration } => (trunk, integration),
        Integrated::Undecided(u) => return undecided(u),
        Integrated::Unborn => {
            return Judgement::new(
                Status::Exempt,
                "HEAD has no commit yet, so there is nothing to integrate.",
                json!({ "head": null }),
            )
        }
    };
    let name = short_ref(&trunk.refname);
    let base = json!({
        "trunk": trunk.refname,
        "trunk_commit": trunk.commit,
        "chosen_by": trunk.chosen_by,
        "trunk_read_at_start": trunk.at_start,
    });
    // The trunk's ref moved since the start by something else than a fetch
    // or push of its remote: it was read at its start value, and said so.
    let at_start = match &trunk.at_start {
        Some(why) => format!(" ({name} is read at its start value: {why})"),
        None => String::new(),
    };
    match integration {
        Integration::Reached => Judgement::new(
            Status::Pass,
            format!("The trunk {name} ({}) reaches HEAD{at_start}.", trunk.chosen_by),
            base,
        ),
        Integration::Holds { paths, behind_tip: 0, .. } => Judgement::new(
            Status::Pass,
            format!("The trunk {name} does not reach HEAD but holds all {} HEAD changed, with the same content and modes (a squash or rebase merge){at_start}.", count(*paths, "path")),
            with(base, json!({ "squash_merged": true, "paths": paths, "holding_commit": trunk.commit })),
        ),
        Integration::Holds { paths, commit, behind_tip } => Judgement::new(
            Status::Pass,
            format!(
                "The trunk {name} does not reach HEAD, but its commit {} ({} before its tip) held all {} HEAD changed, with the same content and modes (a squash or rebase merge, edited on the trunk since and not undone){at_start}.",
                &commit[..12.min(commit.len())],
                count(*behind_tip, "commit"),
                count(*paths, "path")
            ),
            with(base, json!({ "squash_merged": true, "paths": paths, "holding_commit": commit, "behind_tip": behind_tip })),
        ),
        Integration::Undone { paths, tip, dropped: None, .. } => Judgement::new(
            Status::Owed,
            format!(
                "The trunk {name} ({}) reaches HEAD, but its tip {} holds {} HEAD changed since the start as the start had {}: {} (the work was reverted on the trunk since, or merged without its changes){at_start}.",
                trunk.chosen_by,
                short(tip),
                count(paths.len(), "path"),
                if paths.len() == 1 { "it" } else { "them" },
                names(paths),
            ),
            with(base, json!({ "undone": paths, "undone_at": tip })),
        )
        .remedy("land the work on the trunk again (revert its revert, or merge it with its changes), then fetch; or, if undoing it was right, say so: the task's change is not on the trunk"),
        // A commit made here that a fetch took off the trunk (pushed back
        // over by another), and that a rebase then dropped from HEAD as
        // already upstream (test/cases/615).
        // Or off a branch whose work since the trunk reaches (the task's
        // upstream, merged without it: test/cases/627).
        Integration::Undone { paths, tip, dropped: Some(commit), dropped_from } => Judgement::new(
            Status::Owed,
            format!(
                "The trunk {name} ({}) reaches HEAD, but its tip {} holds {} the task changed since the start as the start had {}: {}. The commit {} made here held the change and was on {}, until a fetch took it off (the remote's branch was pushed back over it){}; HEAD does not hold it either (a `git pull --rebase` after such a push drops it as already upstream){at_start}.",
                trunk.chosen_by,
                short(tip),
                count(paths.len(), "path"),
                if paths.len() == 1 { "it" } else { "them" },
                names(paths),
                short(commit),
                dropped_from.as_deref().map_or(name, short_ref),
                if dropped_from.is_some() { ", and that branch's work since is on the trunk without it" } else { "" },
            ),
            with(
                base,
                match dropped_from {
                    Some(from) => json!({ "undone": paths, "undone_at": tip, "dropped": commit, "dropped_from": from }),
                    None => json!({ "undone": paths, "undone_at": tip, "dropped": commit }),
                },
            ),
        )
        .remedy(format!("put the dropped commit back and land it: git cherry-pick {commit}, then push; or, if dropping it was right, say so: the task's change is not on the trunk")),
        Integration::Missing { paths, mode_only, reverted, ahead, ahead_count, searched_only } => {
            let mut notes = Vec::new();
            if !mode_only.is_empty() {
                notes.push(format!(
                    "of those, the trunk holds the content of {} with another mode (a chmod it lacks)",
                    names(mode_only)
                ));
            }
            if let Some((squash, revert)) = reverted {
                notes.push(format!(
                    "the trunk's commit {} held them (a squash merge), and its later commit {} put them back as they were before the change (a revert)",
                    short(squash),
                    short(revert)
                ));
            }
            if let Some(n) = searched_only {
                notes.push(format!("no squash merge of them was found in the trunk's {n} newest first-parent commits, and the older ones back to the merge base were not searched"));
            }
            let notes: String = notes.iter().map(|n| format!("; {n}")).collect();
            let judgement = Judgement::new(
                Status::Owed,
                format!(
                    "The trunk {name} ({}) does not reach HEAD, which is {} ahead, and does not hold {} HEAD changed: {}{notes}{at_start}.",
                    trunk.chosen_by,
                    count(*ahead_count, "commit"),
                    count(paths.len(), "path"),
                    names(paths),
                ),
                with(base, json!({
                    "missing": paths,
                    "mode_only": mode_only,
                    "reverted": reverted.as_ref().map(|(squash, revert)| json!({ "squash_merge": squash, "revert": revert })),
                    "ahead": ahead,
                    "ahead_count": ahead_count,
                    "squash_search_stopped_after": searched_only,
                })),
            );
            match &trunk.fetch_reads {
                Some(remote) => judgement.remedy(format!("land HEAD's work on the trunk (merge, or merge its pull request), then fetch it (git fetch {remote}): {name} is read at its start value until a fetch says what {remote} holds")),
                None => judgement,
            }
        }
    }
}

pub(crate) fn upstream_alive(r: &Readings) -> Judgement {
    let (branches, seen) = match (&r.branches, &r.integration.upstreams) {
        (Ok(b), Ok(s)) => (b, s),
        (Err(e), _) | (_, Err(e)) => return Judgement::unread(e),
    };
    // Each branch whose upstream is gone: its ref missing, or made since
    // the start by something else than a fetch or push.
    let mut gone = Vec::new();
    let mut gone_branches = Vec::new();
    let mut inherited = Vec::new();
    let mut unread = Vec::new();
    for b in branches {
        let Some(u) = &b.upstream else { continue };
        if let Some(why) = seen.unreadable.get(&u.refname) {
            unread.push(format!("{} (tracks {}: {why})", b.name, short_ref(&u.refname)));
            continue;
        }
        let made = seen.appeared.get(&u.refname);
        if u.exists && made.is_none() {
            continue;
        }
        let label = match made {
            Some(why) => format!("{} (tracks {}: {why})", b.name, short_ref(&u.refname)),
            None => format!("{} (tracks {})", b.name, short_ref(&u.refname)),
        };
        let then = seen.gone_at_start.as_ref().and_then(|g| g.get(&b.name));
        match then == Some(&u.refname) {
            true => inherited.push(label),
            false => {
                gone.push(label);
                gone_branches.push(format!("git branch --unset-upstream {}", shell_word(&b.name)));
            }
        }
    }
    let tracking = branches.iter().filter(|b| b.upstream.is_some()).count();
    let details = json!({ "branches": branches.len(), "tracking": tracking, "gone": gone, "inherited": inherited, "unread": unread });
    let also = match inherited.len() {
        0 => String::new(),
        n => format!(" ({} already gone at the start, not counted: {})", count(n, "upstream"), names(&inherited)),
    };
    if gone.is_empty() && !unread.is_empty() {
        // Its remote cannot be read: neither alive nor gone (test/cases/612).
        Judgement::new(
            Status::Unknown,
            format!(
                "{} {} an upstream on a remote majordomus cannot read, so whether it is still there is unknown: {}{also}.",
                count(unread.len(), "local branch"),
                if unread.len() == 1 { "tracks" } else { "track" },
                names(&unread)
            ),
            details,
        )
        .remedy("make the remote one majordomus can read (its refs stored as files: git refs migrate --ref-format=files there), or unset the upstream: git branch --unset-upstream BRANCH")
    } else if gone.is_empty() {
        Judgement::new(
            Status::Pass,
            format!(
                "Of {} now, {} an upstream and none {}{also}.{rests}",
                count(branches.len(), "local branch"),
                count_verb(tracking, "tracks", "track"),
                if inherited.is_empty() { "is gone" } else { "went since the start" },
                // What the answer rests on (test/cases/578).
                rests = if tracking == 0 {
                    ""
                } else {
                    " Each is read from its remote-tracking ref here and the newest FETCH_HEAD of its remote: a branch deleted on a remote across a network is seen gone once a fetch of that remote's branches, or a prune, says so."
                }
            ),
            details,
        )
    } else {
        Judgement::new(
            Status::Owed,
            format!(
                "{} {} an upstream that is gone: {}{also}.",
                count(gone.len(), "local branch"),
                if gone.len() == 1 { "tracks" } else { "track" },
                names(&gone)
            ),
            details,
        )
        // Once the upstream is unset, pushed measures the branch against
        // the trunk: its next honest state.
        .command(gone_branches.join(" && "))
    }
}

#[cfg(test)]
mod tests;
