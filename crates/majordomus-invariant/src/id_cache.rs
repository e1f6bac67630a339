//! Answers kept between checks under the object ids they were worked out
//! from.
//!
//! Some readings are a function of commit ids and nothing else: whether
//! the trunk holds HEAD's work (HEAD's id and the trunk's,
//! [`crate::family::integration::cache`]), which of HEAD's commits no
//! remote-tracking ref holds (HEAD's id and the refs', [`crate::family::commit::cache`]).
//! Everything such a reading reads is reached through ids, and an object
//! never changes under its id, so an answer worked out once holds for as
//! long as none of its ids moves: the walk is paid by the first `check`
//! after a commit or a fetch, not by every one. The rules every such cache
//! keeps:
//!
//! - an entry is used only when its whole key equals this check's; any
//!   other is only kept (the newest few, for the branches an agent
//!   switches between);
//! - what can change the history reached from an id without changing the
//!   id is not cached around: a grafts file makes the readings unread
//!   before they get here, and in a shallow repository (whose `shallow`
//!   file cuts parents off, and moves with a fetch) nothing is recalled or
//!   kept;
//! - a reading that failed is never kept: the next check tries again;
//! - a file that cannot be read, is damaged, or holds an entry out of its
//!   bounds is ignored as a whole and the answers worked out again: a
//!   cache can cost time, never an answer;
//! - written atomically through the state directory's confined writer
//!   (never through a link, never outside it; not flushed to the disk,
//!   since a lost cache is only worked out again), only where the state
//!   directory already exists (`check` makes it when it writes its
//!   document); a write that fails changes nothing but the next check's
//!   time.
//!
//! A file written by hand can claim any answer, as any record can: README,
//! "What a pass is worth".

use majordomus_readings::Repo;
use majordomus_records::confined::Perm;
use majordomus_records::json::{self, Record};
use majordomus_records::StatePaths;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One kept answer with its key.
pub trait Entry: Serialize + DeserializeOwned + Clone {
    /// The file's name in the state directory.
    const FILE: &'static str;
    /// The schema string the file carries; a file of another is ignored.
    const SCHEMA: &'static str;
    /// How many entries are kept, newest first.
    const KEPT: usize;
    /// Its fields within their bounds (its key's ids well formed); the
    /// reason when not.
    fn check(&self) -> Result<(), String>;
}

/// The file: its schema and the entries, newest first.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "E: DeserializeOwned"))]
pub struct File<E> {
    schema: String,
    pub entries: Vec<E>,
}

impl<E: Entry> Record for File<E> {
    const SCHEMA: &'static str = E::SCHEMA;
    const MAX_BYTES: u64 = 1 << 20;

    fn schema(&self) -> &str {
        &self.schema
    }

    fn check(&self) -> Result<(), String> {
        if self.entries.len() > E::KEPT {
            return Err(format!("it keeps {} answers, more than {}", self.entries.len(), E::KEPT));
        }
        self.entries.iter().try_for_each(Entry::check)
    }
}

/// The answers kept, as loaded for one check, with what it adds.
#[derive(Debug)]
pub struct Kept<E> {
    entries: Vec<E>,
    /// Whether answers may be recalled and kept at all (not shallow).
    usable: bool,
    changed: bool,
}

impl<E: Entry> Kept<E> {
    /// The answers kept for `repo`: none when the file is missing,
    /// unreadable or damaged, and none usable in a shallow repository.
    pub fn load(repo: &Repo, paths: &StatePaths) -> Self {
        if repo.git.is_shallow() {
            return Kept { entries: Vec::new(), usable: false, changed: false };
        }
        let entries = match json::load::<File<E>>(&paths.state_dir().join(E::FILE)) {
            Ok(Some(file)) => file.entries,
            Ok(None) | Err(_) => Vec::new(),
        };
        Kept { entries, usable: true, changed: false }
    }

    /// The first kept answer `key` accepts.
    pub fn find(&self, key: impl Fn(&E) -> bool) -> Option<&E> {
        self.entries.iter().find(|e| key(e))
    }

    /// Keeps an answer worked out now, first; the oldest beyond
    /// [`Entry::KEPT`] are dropped.
    pub fn keep(&mut self, entry: E) {
        if !self.usable {
            return;
        }
        self.entries.insert(0, entry);
        self.entries.truncate(E::KEPT);
        self.changed = true;
    }

    /// Writes the answers if any was added, where the state directory
    /// exists; a failure is ignored (see the module's essay).
    pub fn store(self, paths: &StatePaths) {
        if !self.changed {
            return;
        }
        let Ok(dir) = paths.open_state(false) else { return };
        let file = File { schema: E::SCHEMA.to_string(), entries: self.entries };
        if let Ok(bytes) = serde_json::to_vec(&file) {
            let _ = dir.replace_derived(E::FILE, &bytes, Perm::Private);
        }
    }
}

/// Whether `s` is a full commit id as git writes one.
pub fn is_id(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}
