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
//! Kept in `.ai/local/state/integration.cache.json`, written atomically
//! through the state directory's confined writer (never through a link,
//! never outside it; not flushed to the disk, since a lost cache is only
//! worked out again), as each entry's key and answer:
//!
//! - the key is HEAD's id, the trunk's id and the search's bound. An entry
//!   is used only when all three equal this check's; any other is only
//!   kept (the newest [`KEPT`], for the branches an agent switches between).
//! - what can change the history reached from an id without changing the
//!   id is not cached around: a grafts file makes the reading unread before
//!   it gets here (`readings.rs`), and a shallow repository (whose
//!   `shallow` file cuts parents off, and moves with a fetch) is read anew
//!   every time.
//! - a reading that failed is never kept: the next check tries again.
//! - a cache file that cannot be read, is damaged, or holds an entry out
//!   of its bounds is ignored as a whole and the answer worked out again: it
//!   can cost time, never an answer.
//! - the cache is written only where the state directory already exists
//!   (`check` makes it when it writes its document), and a write that fails
//!   changes nothing but the next check's time.

use majordomus_readings::refs::{self, Integration, SQUASH_SEARCH};
use majordomus_readings::{Reading, Repo};
use majordomus_records::confined::Perm;
use majordomus_records::json::{self, Record};
use majordomus_records::StatePaths;
use serde::{Deserialize, Serialize};

/// The cache file's name in the state directory.
pub const FILE: &str = "integration.cache.json";

/// How many answers are kept, newest first.
pub const KEPT: usize = 8;

/// The cache file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cache {
    schema: String,
    entries: Vec<Kept>,
}

/// One answer and the ids it was worked out from.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Kept {
    head: String,
    trunk: String,
    bound: usize,
    answer: Integration,
}

impl Record for Cache {
    // 2: with no merge base, the paths only the trunk holds are changes
    // too (test/cases/348); an answer kept under 1 is worked out again.
    const SCHEMA: &'static str = "majordomus.integration-cache/2";
    const MAX_BYTES: u64 = 1 << 20;

    fn schema(&self) -> &str {
        &self.schema
    }

    fn check(&self) -> Result<(), String> {
        if self.entries.len() > KEPT {
            return Err(format!("it keeps {} answers, more than {KEPT}", self.entries.len()));
        }
        let id = |s: &str| s.len() == 40 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        match self.entries.iter().find(|e| !id(&e.head) || !id(&e.trunk)) {
            Some(e) => Err(format!("an entry's key is not two commit ids ({:?}, {:?})", e.head, e.trunk)),
            None => Ok(()),
        }
    }
}

/// Whether the trunk holds HEAD's work: the kept answer for these two ids
/// when there is one, else worked out ([`refs::integration`]) and kept.
pub fn integration(repo: &Repo, paths: &StatePaths, head: &str, trunk: &str) -> Reading<Integration> {
    integration_with(repo, paths, head, trunk, || refs::integration(repo, head, trunk))
}

/// [`integration`], working the answer out with `work` on a miss.
fn integration_with(
    repo: &Repo,
    paths: &StatePaths,
    head: &str,
    trunk: &str,
    work: impl FnOnce() -> Reading<Integration>,
) -> Reading<Integration> {
    if repo.git.is_shallow() {
        return work();
    }
    let mut entries = load(paths);
    let key = |e: &Kept| e.head == head && e.trunk == trunk && e.bound == SQUASH_SEARCH;
    if let Some(kept) = entries.iter().find(|e| key(e)) {
        return Ok(kept.answer.clone());
    }
    let answer = work()?;
    entries.insert(
        0,
        Kept { head: head.to_string(), trunk: trunk.to_string(), bound: SQUASH_SEARCH, answer: answer.clone() },
    );
    entries.truncate(KEPT);
    store(paths, entries);
    Ok(answer)
}

/// The kept answers; none when the file is missing, unreadable or damaged.
fn load(paths: &StatePaths) -> Vec<Kept> {
    match json::load::<Cache>(&paths.state_dir().join(FILE)) {
        Ok(Some(cache)) => cache.entries,
        Ok(None) | Err(_) => Vec::new(),
    }
}

/// Writes the answers, where the state directory exists; a failure is
/// ignored (see the module's essay).
fn store(paths: &StatePaths, entries: Vec<Kept>) {
    let Ok(dir) = paths.open_state(false) else { return };
    let cache = Cache { schema: Cache::SCHEMA.to_string(), entries };
    if let Ok(bytes) = serde_json::to_vec(&cache) {
        let _ = dir.replace_derived(FILE, &bytes, Perm::Private);
    }
}

#[cfg(test)]
mod tests;
