//! The integration family judged: `integrated` from the trunk's reading,
//! `upstream-alive` from the local branches.

use serde_json::json;

use majordomus_readings::refs::Integration;

use super::Integrated;
use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::prose::{count, count_verb, names, short_ref};
use crate::readings::Readings;

pub(crate) fn integrated(r: &Readings) -> Judgement {
    let integrated = match &r.integration.integrated {
        Ok(i) => i,
        Err(e) => return Judgement::unread(e),
    };
    let Integrated::Measured { trunk, integration } = integrated else {
        return Judgement::new(
            Status::Exempt,
            "HEAD has no commit yet, so there is nothing to integrate.",
            json!({ "head": null }),
        );
    };
    let short = short_ref(&trunk.refname);
    let base = json!({ "trunk": trunk.refname, "trunk_commit": trunk.commit, "chosen_by": trunk.chosen_by });
    match integration {
        Integration::Reached => Judgement::new(Status::Pass, format!("The trunk {short} ({}) reaches HEAD.", trunk.chosen_by), base),
        Integration::Holds { paths, behind_tip: 0, .. } => Judgement::new(
            Status::Pass,
            format!("The trunk {short} does not reach HEAD but holds all {} HEAD changed, with the same content (a squash or rebase merge).", count(*paths, "path")),
            with(base, json!({ "squash_merged": true, "paths": paths, "holding_commit": trunk.commit })),
        ),
        Integration::Holds { paths, commit, behind_tip } => Judgement::new(
            Status::Pass,
            format!(
                "The trunk {short} does not reach HEAD, but its commit {} ({} before its tip) held all {} HEAD changed, with the same content (a squash or rebase merge, edited on the trunk since).",
                &commit[..12.min(commit.len())],
                count(*behind_tip, "commit"),
                count(*paths, "path")
            ),
            with(base, json!({ "squash_merged": true, "paths": paths, "holding_commit": commit, "behind_tip": behind_tip })),
        ),
        Integration::Missing { paths, ahead, ahead_count, searched_only } => Judgement::new(
            Status::Owed,
            format!(
                "The trunk {short} ({}) does not reach HEAD, which is {} ahead, and does not hold {} HEAD changed: {}{}.",
                trunk.chosen_by,
                count(*ahead_count, "commit"),
                count(paths.len(), "path"),
                names(paths),
                match searched_only {
                    Some(n) => format!("; no squash merge of them was found in the trunk's {n} newest first-parent commits, and the older ones back to the merge base were not searched"),
                    None => String::new(),
                }
            ),
            with(base, json!({ "missing": paths, "ahead": ahead, "ahead_count": ahead_count, "squash_search_stopped_after": searched_only })),
        ),
    }
}

pub(crate) fn upstream_alive(r: &Readings) -> Judgement {
    let branches = match &r.branches {
        Ok(b) => b,
        Err(e) => return Judgement::unread(e),
    };
    let gone: Vec<String> = branches
        .iter()
        .filter_map(|b| {
            b.upstream.as_ref().filter(|u| !u.exists).map(|u| format!("{} (tracks {})", b.name, short_ref(&u.refname)))
        })
        .collect();
    let tracking = branches.iter().filter(|b| b.upstream.is_some()).count();
    let details = json!({ "branches": branches.len(), "tracking": tracking, "gone": gone });
    if gone.is_empty() {
        Judgement::new(
            Status::Pass,
            format!(
                "Of {} now, {} an upstream and none is gone.",
                count(branches.len(), "local branch"),
                count_verb(tracking, "tracks", "track")
            ),
            details,
        )
    } else {
        Judgement::new(
            Status::Owed,
            format!(
                "{} {} an upstream that is gone: {}.",
                count(gone.len(), "local branch"),
                if gone.len() == 1 { "tracks" } else { "track" },
                names(&gone)
            ),
            details,
        )
    }
}

#[cfg(test)]
mod tests;
