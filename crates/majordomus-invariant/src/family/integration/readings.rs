//! Taking the integration family's readings, on the thread of the ref
//! readings (`src/measure.rs`).

use majordomus_readings::refs::{self, Head, NoTrunk, Trunk};
use majordomus_readings::{Reading, Repo, Unread, UnreadKind};
use majordomus_records::policy::Policy;

use super::Integrated;

/// The trunk, as the policy's `[trunk]` names it or as it is found.
pub fn trunk(repo: &Repo, policy: &Policy) -> Reading<Result<Trunk, NoTrunk>> {
    let t = policy.trunk.clone().unwrap_or_default();
    refs::trunk(repo, t.remote.as_deref(), t.branch.as_deref())
}

/// Whether the trunk holds HEAD's work.
pub fn integrated(
    repo: &Repo,
    head: &Reading<Head>,
    head_commit: Option<&str>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
) -> Reading<Integrated> {
    match (head_commit, trunk) {
        (None, _) if head.is_ok() => Ok(Integrated::Unborn),
        (None, _) => Err(head.clone().err().unwrap_or_else(|| Unread::new(UnreadKind::Git, "HEAD could not be read"))),
        (Some(_), Err(e)) => Err(e.clone()),
        (Some(_), Ok(Err(none))) => Err(Unread::repository(none.reason())),
        (Some(h), Ok(Ok(t))) => refs::integration(repo, h, &t.commit)
            .map(|integration| Integrated::Measured { trunk: t.clone(), integration }),
    }
}
