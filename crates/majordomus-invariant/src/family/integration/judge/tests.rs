//! The integration family judged over readings handed in directly.

use majordomus_readings::refs::{Branch, Integration, Upstream};

use crate::answer::Status;
use crate::family::integration::{Integrated, UpstreamsSeen};
use crate::fixtures::{all_well, answer, trunk_at};

#[test]
fn a_squash_merged_head_is_integrated_and_a_missing_one_owed() {
    let mut r = all_well();
    let trunk = trunk_at("refs/remotes/origin/main", 'f');
    let tip = Integration::Holds { paths: 3, commit: trunk.commit.clone(), behind_tip: 0 };
    r.integration.integrated = Ok(Integrated::Measured { trunk: trunk.clone(), integration: tip });
    assert_eq!(answer(&r, "integrated").status, Status::Pass);
    r.integration.integrated = Ok(Integrated::Measured {
        trunk: trunk.clone(),
        integration: Integration::Missing {
            paths: vec!["a".into()],
            mode_only: vec![],
            reverted: None,
            ahead: vec![],
            ahead_count: 1,
            searched_only: None,
        },
    });
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Owed);
    assert!(!a.evidence.contains("not searched"), "{}", a.evidence);
    r.integration.integrated = Ok(Integrated::Measured {
        trunk,
        integration: Integration::Missing {
            paths: vec!["a".into()],
            mode_only: vec![],
            reverted: None,
            ahead: vec![],
            ahead_count: 1,
            searched_only: Some(2000),
        },
    });
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("trunk's 2000 newest first-parent commits"), "{}", a.evidence);
    assert_eq!(a.details["squash_search_stopped_after"], 2000);
}

#[test]
fn a_squash_merge_held_by_an_earlier_trunk_commit_is_integrated_and_names_that_commit() {
    let mut r = all_well();
    let trunk = trunk_at("refs/remotes/origin/main", 'f');
    let earlier = Integration::Holds { paths: 2, commit: "c".repeat(40), behind_tip: 3 };
    r.integration.integrated = Ok(Integrated::Measured { trunk, integration: earlier });
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Pass);
    assert!(
        a.evidence.contains("its commit cccccccccccc (3 commits before its tip) held all 2 paths"),
        "{}",
        a.evidence
    );
    assert_eq!(a.details["holding_commit"], "c".repeat(40));
}

#[test]
fn a_branch_tracking_a_gone_upstream_is_owed_and_named() {
    let mut r = all_well();
    r.branches = Ok(vec![Branch {
        name: "feature".into(),
        commit: "b".repeat(40),
        upstream: Some(Upstream { refname: "refs/remotes/origin/feature".into(), exists: false }),
        at_start: false,
    }]);
    let a = answer(&r, "upstream-alive");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("feature (tracks origin/feature)"), "{}", a.evidence);
}

#[test]
fn a_mode_the_trunk_lacks_and_a_squash_merge_it_reverted_are_owed_and_say_so() {
    let mut r = all_well();
    let trunk = trunk_at("refs/remotes/origin/main", 'f');
    r.integration.integrated = Ok(Integrated::Measured {
        trunk: trunk.clone(),
        integration: Integration::Missing {
            paths: vec!["run.sh".into(), "src/lib.rs".into()],
            mode_only: vec!["run.sh".into()],
            reverted: Some(("c".repeat(40), "d".repeat(40))),
            ahead: vec![],
            ahead_count: 1,
            searched_only: None,
        },
    });
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("the content of run.sh with another mode"), "{}", a.evidence);
    assert!(a.evidence.contains("its later commit dddddddddddd put them back"), "{}", a.evidence);
    assert_eq!(a.details["reverted"]["squash_merge"], "c".repeat(40));
}

#[test]
fn a_trunk_read_at_its_start_value_says_so() {
    let mut r = all_well();
    let mut trunk = trunk_at("refs/remotes/origin/main", 'f');
    trunk.at_start = Some("origin/main moved since the start by git update-ref".into());
    r.integration.integrated = Ok(Integrated::Measured { trunk, integration: Integration::Reached });
    let a = answer(&r, "integrated");
    assert!(a.evidence.contains("origin/main is read at its start value: origin/main moved"), "{}", a.evidence);
}

#[test]
fn an_upstream_on_a_remote_that_cannot_be_read_is_unknown_and_a_gone_one_still_owed() {
    let mut r = all_well();
    let tracking = |name: &str| Branch {
        name: name.into(),
        commit: "b".repeat(40),
        upstream: Some(Upstream { refname: format!("refs/remotes/origin/{name}"), exists: true }),
        at_start: false,
    };
    r.branches = Ok(vec![tracking("main")]);
    r.integration.upstreams = Ok(UpstreamsSeen {
        unreadable: [("refs/remotes/origin/main".to_string(), "origin is in the reftable format".to_string())].into(),
        ..UpstreamsSeen::default()
    });
    let a = answer(&r, "upstream-alive");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("cannot read") && a.evidence.contains("reftable format"), "{}", a.evidence);
    r.branches = Ok(vec![tracking("main"), tracking("forged")]);
    r.integration.upstreams = Ok(UpstreamsSeen {
        appeared: [("refs/remotes/origin/forged".to_string(), "it appeared by git update-ref".to_string())].into(),
        unreadable: [("refs/remotes/origin/main".to_string(), "origin is in the reftable format".to_string())].into(),
        ..UpstreamsSeen::default()
    });
    assert_eq!(answer(&r, "upstream-alive").status, Status::Owed);
}

#[test]
fn an_upstream_gone_at_the_start_is_named_not_counted_and_one_made_by_hand_is_gone() {
    let mut r = all_well();
    let tracking = |name: &str, exists| Branch {
        name: name.into(),
        commit: "b".repeat(40),
        upstream: Some(Upstream { refname: format!("refs/remotes/origin/{name}"), exists }),
        at_start: false,
    };
    r.branches = Ok(vec![tracking("old", false), tracking("forged", true)]);
    r.integration.upstreams = Ok(UpstreamsSeen {
        appeared: [("refs/remotes/origin/forged".to_string(), "it appeared by git update-ref".to_string())].into(),
        gone_at_start: Some([("old".to_string(), "refs/remotes/origin/old".to_string())].into()),
        ..UpstreamsSeen::default()
    });
    let a = answer(&r, "upstream-alive");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.starts_with("1 local branch tracks an upstream that is gone: forged"), "{}", a.evidence);
    assert!(a.evidence.contains("1 upstream already gone at the start, not counted: old"), "{}", a.evidence);
    r.branches = Ok(vec![tracking("old", false)]);
    let a = answer(&r, "upstream-alive");
    assert_eq!(a.status, Status::Pass);
    assert!(a.evidence.contains("none went since the start"), "{}", a.evidence);
}

#[test]
fn a_trunk_not_guessed_between_main_and_master_is_unknown_with_set_head_as_the_way_out() {
    let mut r = all_well();
    let u = majordomus_readings::refs::Undecided {
        remote: "origin".into(),
        candidates: vec!["origin/main".into(), "origin/master".into()],
        named_since: None,
    };
    r.integration.integrated = Ok(Integrated::Undecided(u));
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("origin/main and origin/master both exist"), "{}", a.evidence);
    assert!(a.remedy.starts_with("git remote set-head origin --auto"), "{}", a.remedy);
}
