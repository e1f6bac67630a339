//! What governed the reading of the working tree when a task started: the
//! part of the start snapshot that lets `check` read the working tree as
//! the start would have, so that nothing set since (a bit on an index
//! entry, an ignore rule, a configuration value) hides the task's change.
//!
//! Which keys and files count, and how each is read against its start
//! value, is the working-tree reading's business
//! (`majordomus-readings/src/status/since.rs`); this is only their record.
//! Paths are written as [`RepoPath`] writes them, file contents as
//! [`Bytes`]: both lossless for bytes that are not UTF-8.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::task::Bytes;
use crate::RepoPath;

/// The start's conditions of the working-tree reading.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadingAtStart {
    /// The configuration keys the reading obeys, by their lowercase names,
    /// with their values at the start; a key that was unset is absent.
    #[serde(default)]
    pub config: BTreeMap<String, String>,
    /// `info/exclude` of the common git directory (`None`: no such file).
    #[serde(default)]
    pub info_exclude: Option<Bytes>,
    /// The excludes file git read (`core.excludesFile`, else its default
    /// place), `None`: there was none.
    #[serde(default)]
    pub excludes_file: Option<FileAtStart>,
    /// The working tree's ignore files whose content HEAD did not hold at
    /// their path (untracked, or changed and not committed), by path.
    #[serde(default)]
    pub ignore_files: BTreeMap<RepoPath, Bytes>,
    /// The attributes files outside the working tree that git reads
    /// (`info/attributes`, `core.attributesFile` or its default place), by
    /// path on disk, with the blob id of their content; absent: no file.
    #[serde(default)]
    pub attributes: BTreeMap<String, String>,
    /// Tracked paths git looked away from because of a bit on their index
    /// entry, and the bit.
    #[serde(default)]
    pub bits: BTreeMap<RepoPath, Bit>,
    /// Of those, the ones whose file differed from their index entry at
    /// the start, with the blob id of its content then (`None`: absent):
    /// under a bit set before the start, content changed since is the
    /// task's, and content as it was then the user's. `None`: a record
    /// written before this was kept (git's answer then stands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_changed: Option<BTreeMap<RepoPath, Option<String>>>,
    /// Untracked files that `core.ignoreCase` hid at the start because
    /// their name differs from a tracked path's only by case (on a file
    /// system that tells them apart), with the blob id of their content
    /// then: the setting, held since, hides those as they were and no
    /// other. `None`: there was no such file (kept only where there was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_folded: Option<BTreeMap<RepoPath, Option<String>>>,
    /// The index file's modification time at the start, in whole seconds
    /// (the start's own time when there was no index): an index entry whose
    /// file time is not older was refreshed since, so its stat data is not
    /// the start's and does not vouch for its content. `None`: a record
    /// written before this was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_mtime: Option<i64>,
    /// The stamps of the files the start read by content and found to be
    /// their index entry's blob (each 16 hex digits, sorted, one after the
    /// other): a later reading takes a file whose stamp is among them as
    /// that blob without reading it (`majordomus-readings/src/status/verified.rs`).
    /// `None`: none was kept (a record written before this, or none to keep).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<String>,
    /// The digest of the working tree's attributes files at the start (16
    /// hex digits), under which the stamps of files libgit2 found clean
    /// through the eol and ident conversions vouch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified_attributes: Option<String>,
}

/// The most stamps [`ReadingAtStart::verified`] holds.
pub const MAX_STAMPS: usize = 200_000;

/// A file outside the working tree and its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileAtStart {
    pub path: String,
    pub content: Bytes,
}

/// A bit on an index entry that makes git look away from its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bit {
    AssumeUnchanged,
    SkipWorktree,
}

/// The most bytes of the rules of one ignore file a record keeps.
pub const MAX_RULES: usize = 1 << 20;

/// `Err` naming the first field past its bound (a record is refused whole,
/// as the task record's other fields are: `task.rs`).
pub fn check(r: &ReadingAtStart) -> Result<(), String> {
    use crate::text::{check_len, MAX_FIELD};
    for (key, value) in &r.config {
        check_len("configuration key", key, MAX_FIELD)?;
        check_len("configuration value", value, MAX_FIELD)?;
    }
    let rules = r.info_exclude.iter().chain(r.excludes_file.iter().map(|f| &f.content)).chain(r.ignore_files.values());
    if let Some(b) = rules.into_iter().find(|b| b.0.len() > MAX_RULES) {
        return Err(format!("its ignore rules are {} bytes long, more than the {MAX_RULES} they may be", b.0.len()));
    }
    if let Some(f) = &r.excludes_file {
        check_len("excludes file", &f.path, MAX_FIELD)?;
    }
    for path in r.ignore_files.keys().chain(r.bits.keys()) {
        check_len("path", &path.to_string(), MAX_FIELD)?;
    }
    for (path, id) in r.hidden_changed.iter().flatten().chain(r.case_folded.iter().flatten()) {
        check_len("path", &path.to_string(), MAX_FIELD)?;
        id.iter().try_for_each(|id| crate::text::check_object_id("hidden file's blob", id))?;
    }
    if r.verified_attributes.as_ref().is_some_and(|d| d.len() != 16) {
        return Err("its digest of the attributes files is not 16 digits".into());
    }
    if let Some(v) = &r.verified {
        if v.len() > MAX_STAMPS * 16 {
            return Err(format!(
                "its stamps of files read are {} bytes long, more than the {} they may be",
                v.len(),
                MAX_STAMPS * 16
            ));
        }
    }
    for (path, id) in &r.attributes {
        check_len("attributes file", path, MAX_FIELD)?;
        crate::text::check_object_id("attributes file's blob", id)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_of_the_start_round_trips_with_paths_that_are_not_utf8() {
        let mut r = ReadingAtStart::default();
        r.config.insert("core.filemode".into(), "true".into());
        r.bits.insert(RepoPath::from_bytes(b"caf\xe9.rs".to_vec()), Bit::AssumeUnchanged);
        r.ignore_files.insert(RepoPath::from(".pytest_cache/.gitignore"), Bytes(b"*\n".to_vec()));
        r.excludes_file = Some(FileAtStart { path: "/home/u/.config/git/ignore".into(), content: Bytes(vec![0xff]) });
        let json = serde_json::to_string(&r).expect("encode");
        assert!(json.contains(r#""\"caf\\351.rs\"":"assume-unchanged""#), "{json}");
        assert_eq!(serde_json::from_str::<ReadingAtStart>(&json).expect("decode"), r);
    }
}
