//! The local branches' tips, kept between checks.
//!
//! `check` needs every local branch's tip at every stop; reading each ref
//! file costs the same whether or not it changed, and a repository can hold
//! thousands. [`majordomus_readings::refs::local`] reads only the files
//! whose stamp (inode, size, change and modification times) differs from
//! the one kept for them, and says what to keep: this module keeps it.
//!
//! Kept in `.ai/local/state/branches.cache.json`, written atomically through
//! the state directory's confined writer, only when what is kept changed,
//! and only where the state directory already exists. As the integration
//! cache ([`crate::family::integration::cache`]): a file that cannot be
//! read or is damaged is ignored as a whole (every ref file is read), so
//! the cache can cost time, never an answer; a lost one is rebuilt.

use majordomus_readings::refs::local::Known;
use majordomus_readings::refs::{self, Branch};
use majordomus_readings::{Reading, Repo};
use majordomus_records::confined::Perm;
use majordomus_records::json::{self, Record};
use majordomus_records::StatePaths;
use serde::{Deserialize, Serialize};

/// The cache file's name in the state directory.
pub const FILE: &str = "branches.cache.json";

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cache {
    schema: String,
    known: Known,
}

impl Record for Cache {
    const SCHEMA: &'static str = "majordomus.branches-cache/1";
    const MAX_BYTES: u64 = 64 << 20;

    fn schema(&self) -> &str {
        &self.schema
    }

    fn check(&self) -> Result<(), String> {
        match self.known.files.keys().find(|name| !name.starts_with("refs/heads/")) {
            Some(name) => Err(format!("it keeps {name:?}, which is not a local branch")),
            None => Ok(()),
        }
    }
}

/// Every local branch ([`refs::branches_known`]), through what the last
/// check kept; beside them, the newest modification time under
/// `refs/heads` (for the document's fingerprint, `None` where it was not
/// read).
pub fn branches(repo: &Repo, paths: &StatePaths) -> Reading<(Vec<Branch>, Option<u64>)> {
    let known = match json::load::<Cache>(&paths.state_dir().join(FILE)) {
        Ok(Some(cache)) => cache.known,
        Ok(None) | Err(_) => Known::default(),
    };
    let (branches, read) = refs::branches_known(repo, &known)?;
    if read.kept != known {
        store(paths, read.kept);
    }
    Ok((branches, read.newest_mtime_ns))
}

fn store(paths: &StatePaths, known: Known) {
    let Ok(dir) = paths.open_state(false) else { return };
    let cache = Cache { schema: Cache::SCHEMA.to_string(), known };
    if let Ok(bytes) = serde_json::to_vec(&cache) {
        let _ = dir.replace_derived(FILE, &bytes, Perm::Private);
    }
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    use super::*;

    #[test]
    fn a_damaged_or_foreign_cache_is_ignored_and_every_branch_read() {
        let t = TestRepo::with_commit();
        t.git(&["branch", "side"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        std::fs::create_dir_all(paths.state_dir()).expect("state dir");
        let expected = refs::branches(&repo).expect("branches");
        for damaged in [
            "{".to_string(),
            r#"{"schema":"majordomus.branches-cache/0","known":{"files":{}}}"#.to_string(),
            r#"{"schema":"majordomus.branches-cache/1","known":{"files":{"refs/remotes/x":{"stamp":{"ino":1,"size":41,"mtime_ns":0,"ctime_ns":0},"id":null}}}}"#.to_string(),
        ] {
            std::fs::write(paths.state_dir().join(FILE), &damaged).expect("write");
            assert_eq!(branches(&repo, &paths).expect("read").0, expected, "{damaged}");
        }
    }
}
