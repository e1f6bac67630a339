//! The integration answer, kept between checks.
//!
//! Whether the trunk holds HEAD's work
//! ([`majordomus_readings::refs::integration`]) is a function of two commit
//! ids and nothing else: HEAD's and the trunk tip's. Everything it reads
//! from them (the merge base, the trees, the trunk's first-parent history
//! searched for a squash merge, the commits ahead) is reached through
//! object ids, and an object never changes under its id. So the answer
//! worked out once holds for as long as neither id moves; the squash
//! search, which may read up to [`SQUASH_SEARCH`] trunk commits, is then
//! paid by the first `check` after a commit or a fetch, not by every one.
//!
//! Kept in `.ai/local/state/integration.cache.json` by the rules every
//! id-keyed cache keeps ([`crate::id_cache`]), as each entry's key (HEAD's
//! id, the trunk's id and the search's bound) and answer; the newest
//! [`KEPT`].

use majordomus_readings::refs::{self, Integration, SQUASH_SEARCH};
use majordomus_readings::{Reading, Repo};
use majordomus_records::StatePaths;
use serde::{Deserialize, Serialize};

use crate::id_cache::{self, is_id};

/// The cache file's name in the state directory.
pub const FILE: &str = "integration.cache.json";

/// How many answers are kept, newest first.
pub const KEPT: usize = 8;

/// One answer and the ids it was worked out from.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Kept {
    head: String,
    trunk: String,
    /// The task's start commit, whose changes a trunk reaching HEAD must
    /// still hold ([`refs::integration_since`]); `None`: no task.
    start: Option<String>,
    bound: usize,
    answer: Integration,
}

impl id_cache::Entry for Kept {
    const FILE: &'static str = FILE;
    // 2: with no merge base, the paths only the trunk holds are changes
    // too (test/cases/348); 3: keyed by the start too, a trunk reaching
    // HEAD that undid its work since is missing (test/cases/437); 4: a
    // commit the merge base descends from holds no squash merge
    // (test/cases/606). An answer kept under an older schema is worked
    // out again.
    const SCHEMA: &'static str = "majordomus.integration-cache/4";
    const KEPT: usize = KEPT;

    fn check(&self) -> Result<(), String> {
        match is_id(&self.head) && is_id(&self.trunk) && self.start.as_deref().map_or(true, is_id) {
            true => Ok(()),
            false => {
                Err(format!("an entry's key is not commit ids ({:?}, {:?}, {:?})", self.head, self.trunk, self.start))
            }
        }
    }
}

/// Whether the trunk holds HEAD's work: the kept answer for these two ids
/// when there is one, else worked out ([`refs::integration`]) and kept.
pub fn integration(repo: &Repo, paths: &StatePaths, head: &str, trunk: &str) -> Reading<Integration> {
    integration_since(repo, paths, head, trunk, None)
}

/// [`integration`] for the work since `start` ([`refs::integration_since`]).
pub fn integration_since(
    repo: &Repo,
    paths: &StatePaths,
    head: &str,
    trunk: &str,
    start: Option<&str>,
) -> Reading<Integration> {
    integration_with(repo, paths, head, trunk, start, || refs::integration_since(repo, head, trunk, start))
}

/// [`integration_since`], working the answer out with `work` on a miss.
fn integration_with(
    repo: &Repo,
    paths: &StatePaths,
    head: &str,
    trunk: &str,
    start: Option<&str>,
    work: impl FnOnce() -> Reading<Integration>,
) -> Reading<Integration> {
    let mut kept = id_cache::Kept::<Kept>::load(repo, paths);
    if let Some(k) =
        kept.find(|e| e.head == head && e.trunk == trunk && e.start.as_deref() == start && e.bound == SQUASH_SEARCH)
    {
        return Ok(k.answer.clone());
    }
    let answer = work()?;
    kept.keep(Kept {
        head: head.to_string(),
        trunk: trunk.to_string(),
        start: start.map(str::to_string),
        bound: SQUASH_SEARCH,
        answer: answer.clone(),
    });
    kept.store(paths);
    Ok(answer)
}

#[cfg(test)]
mod tests;
