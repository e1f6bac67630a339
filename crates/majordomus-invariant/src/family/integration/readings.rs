//! Taking the integration family's readings, on the thread of the ref
//! readings (`src/measure.rs`).

use majordomus_readings::refs::{self, Branch, Head, NoTrunk, RemoteEvidence, Trunk};
use majordomus_readings::{Reading, Repo, Unread, UnreadKind};
use majordomus_records::policy::Policy;
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

use super::{Integrated, UpstreamsSeen};

/// The trunk, as the policy's `[trunk]` names it or as it is found.
pub fn trunk(repo: &Repo, policy: &Policy) -> Reading<Result<Trunk, NoTrunk>> {
    let t = policy.trunk.clone().unwrap_or_default();
    refs::trunk(repo, t.remote.as_deref(), t.branch.as_deref())
}

/// The trunk in force: the one recorded at the task's start, if any, else
/// the one found now; read at the value the evidence counts it at.
pub fn trunk_in_force(
    repo: &Repo,
    policy: &Policy,
    task: &TaskState,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Result<Trunk, NoTrunk>> {
    let recorded = task.record().and_then(|r| r.snapshot.trunk.as_deref());
    refs::in_force(repo, trunk(repo, policy), recorded, evidence)
}

/// Whether the trunk holds HEAD's work. A grafts file makes it unread.
/// The answer for the same HEAD and trunk is kept between checks
/// (`cache.rs`).
pub fn integrated(
    repo: &Repo,
    paths: &StatePaths,
    head: &Reading<Head>,
    head_commit: Option<&str>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Integrated> {
    if let Some(reason) = evidence.as_ref().ok().and_then(RemoteEvidence::grafts_reason) {
        return Err(Unread::repository(reason));
    }
    match (head_commit, trunk) {
        (None, _) if head.is_ok() => Ok(Integrated::Unborn),
        (None, _) => Err(head.clone().err().unwrap_or_else(|| Unread::new(UnreadKind::Git, "HEAD could not be read"))),
        (Some(_), Err(e)) => Err(e.clone()),
        (Some(_), Ok(Err(none))) => Err(Unread::repository(none.reason())),
        (Some(h), Ok(Ok(t))) => super::cache::integration(repo, paths, h, &t.commit)
            .map(|integration| Integrated::Measured { trunk: t.clone(), integration }),
    }
}

/// What `upstream-alive` needs beside the branches: the upstreams that
/// exist only by a ref moved by hand since the start, and those gone at
/// the start.
pub fn upstreams(
    branches: &Reading<Vec<Branch>>,
    evidence: &Reading<RemoteEvidence>,
    task: &TaskState,
) -> Reading<UpstreamsSeen> {
    let branches = branches.as_ref().map_err(Clone::clone)?;
    let evidence = evidence.as_ref().map_err(Clone::clone)?;
    // A ref its remote's standing leaves at its start value (a remote
    // re-pointed since) is still the remote's; one moved since by something
    // else than a fetch or push of it (a fetch that wrote another branch
    // into it, test/cases/280) may stand where a pruned upstream was, so it
    // proves nothing alive either.
    let remote_wide: Vec<&str> = evidence.set_aside.iter().map(|s| s.why.as_str()).collect();
    let appeared = branches
        .iter()
        .filter_map(|b| b.upstream.as_ref())
        .filter_map(|u| {
            if let Some(aside) = evidence.set_aside_for(&u.refname).filter(|s| s.appeared) {
                return Some((u.refname.clone(), aside.why.clone()));
            }
            let why = evidence.get(&u.refname)?.at_start.as_deref().filter(|w| !remote_wide.contains(w))?;
            Some((u.refname.clone(), why.to_string()))
        })
        .collect();
    let gone_at_start = task.record().and_then(|r| r.snapshot.gone_upstreams.clone());
    Ok(UpstreamsSeen { appeared, gone_at_start })
}
