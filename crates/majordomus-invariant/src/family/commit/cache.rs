//! `pushed`'s walks, kept between checks.
//!
//! Which of HEAD's commits no counted remote-tracking ref holds
//! ([`majordomus_readings::refs::push`]) is worked out by walks that are a
//! function of commit ids alone: HEAD's, the tips it is hidden under, the
//! start's. At a thousand remote-tracking refs the walk under all of them
//! reads every tip, two thirds of a `check`; kept, a repeated `check` with
//! the same ids reads none, and a fetch that moves one tip changes the key
//! and pays once.
//!
//! Kept in `.ai/local/state/push.cache.json` by the rules every id-keyed
//! cache keeps ([`crate::id_cache`]), as each walk's key (the tip walked,
//! the hidden tips' digest, the start) and answer; the newest [`KEPT`]
//! (a check makes at most three walks).

use majordomus_readings::refs::{Walked, Walks, LISTED};
use majordomus_readings::Repo;
use majordomus_records::StatePaths;

use crate::id_cache::{self, is_id};

/// The cache file's name in the state directory.
pub const FILE: &str = "push.cache.json";

/// How many walks are kept, newest first.
pub const KEPT: usize = 12;

impl id_cache::Entry for Walked {
    const FILE: &'static str = FILE;
    const SCHEMA: &'static str = "majordomus.push-cache/1";
    const KEPT: usize = KEPT;

    fn check(&self) -> Result<(), String> {
        let key = [Some(&self.tip), Some(&self.hidden), self.also.as_ref()];
        if !key.into_iter().flatten().all(|id| is_id(id)) {
            return Err(format!("a walk's key is not object ids ({:?}, {:?}, {:?})", self.tip, self.hidden, self.also));
        }
        if self.listed.len() > LISTED || self.listed.len() > self.count || !self.listed.iter().all(|id| is_id(id)) {
            return Err(format!(
                "a walk of {} commits lists {} ids, not all of them commit ids",
                self.count,
                self.listed.len()
            ));
        }
        Ok(())
    }
}

/// The walks kept for one check.
#[derive(Debug)]
pub struct KeptWalks(id_cache::Kept<Walked>);

impl KeptWalks {
    /// The walks the last checks kept ([`id_cache::Kept::load`]).
    pub fn load(repo: &Repo, paths: &StatePaths) -> Self {
        KeptWalks(id_cache::Kept::load(repo, paths))
    }

    /// Writes the walks if one was added.
    pub fn store(self, paths: &StatePaths) {
        self.0.store(paths);
    }
}

impl Walks for KeptWalks {
    fn recall(&self, tip: &str, hidden: &str, also: Option<&str>) -> Option<&Walked> {
        self.0.find(|w| w.tip == tip && w.hidden == hidden && w.also.as_deref() == also)
    }

    fn keep(&mut self, walked: Walked) {
        self.0.keep(walked);
    }
}

#[cfg(test)]
mod tests;
