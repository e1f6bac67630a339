//! The integration family judged over readings handed in directly.

use majordomus_readings::refs::{Branch, Integration, Upstream};

use crate::answer::Status;
use crate::family::integration::Integrated;
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
    }]);
    let a = answer(&r, "upstream-alive");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("feature (tracks origin/feature)"), "{}", a.evidence);
}
