//! What governed the reading of the working tree when a task started: the
//! part of the start snapshot that lets `check` read the working tree as
//! the start would have, so that nothing set since (a bit on an index
//! entry, an ignore rule, a configuration value) hides the task's change.
//!
//! Which keys and files count, and how each is read against its start
//! value, is the working-tree reading's business
//! (`majordomus-readings/src/status/since.rs`); this is only their record.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
    pub info_exclude: Option<Content>,
    /// The excludes file git read (`core.excludesFile`, else its default
    /// place), `None`: there was none.
    #[serde(default)]
    pub excludes_file: Option<FileAtStart>,
    /// The working tree's ignore files whose content HEAD did not hold at
    /// their path (untracked, or changed and not committed), by path.
    #[serde(default)]
    pub ignore_files: BTreeMap<RepoPath, Content>,
    /// The attributes files outside the working tree that git reads
    /// (`info/attributes`, `core.attributesFile` or its default place), by
    /// path on disk, with the blob id of their content; absent: no file.
    #[serde(default)]
    pub attributes: BTreeMap<String, String>,
    /// Tracked paths git looked away from because of a bit on their index
    /// entry, and the bit.
    #[serde(default)]
    pub bits: BTreeMap<RepoPath, Bit>,
}

/// A file outside the working tree and its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileAtStart {
    pub path: String,
    pub content: Content,
}

/// A bit on an index entry that makes git look away from its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bit {
    AssumeUnchanged,
    SkipWorktree,
}

/// A file's bytes, written in JSON as a string when they are UTF-8, else
/// as `{"hex": "..."}`: lossless either way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Content(pub Vec<u8>);

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum ContentForm {
    Text(String),
    Hex { hex: String },
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(&self.0) {
            Ok(text) => ContentForm::Text(text.to_string()),
            Err(_) => ContentForm::Hex { hex: self.0.iter().map(|b| format!("{b:02x}")).collect() },
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Content, D::Error> {
        match ContentForm::deserialize(d)? {
            ContentForm::Text(text) => Ok(Content(text.into_bytes())),
            ContentForm::Hex { hex } => {
                let digits = hex.as_bytes();
                if digits.len() % 2 != 0 {
                    return Err(serde::de::Error::custom("an odd number of hex digits"));
                }
                digits
                    .chunks(2)
                    .map(|pair| {
                        std::str::from_utf8(pair)
                            .ok()
                            .and_then(|p| u8::from_str_radix(p, 16).ok())
                            .ok_or_else(|| serde::de::Error::custom("a byte that is not two hex digits"))
                    })
                    .collect::<Result<Vec<u8>, _>>()
                    .map(Content)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_is_text_when_it_is_utf8_and_hex_otherwise_both_lossless() {
        for (bytes, json) in [(b"*.log\n".to_vec(), r#""*.log\n""#), (b"caf\xe9\n".to_vec(), r#"{"hex":"636166e90a"}"#)]
        {
            let c = Content(bytes);
            assert_eq!(serde_json::to_string(&c).expect("encode"), json);
            assert_eq!(serde_json::from_str::<Content>(json).expect("decode"), c);
        }
        assert!(serde_json::from_str::<Content>(r#"{"hex":"abc"}"#).is_err());
        assert!(serde_json::from_str::<Content>(r#"{"hex":"zz"}"#).is_err());
    }

    #[test]
    fn a_record_of_the_start_round_trips_with_paths_that_are_not_utf8() {
        let mut r = ReadingAtStart::default();
        r.config.insert("core.filemode".into(), "true".into());
        r.bits.insert(RepoPath::from_bytes(b"caf\xe9.rs".to_vec()), Bit::AssumeUnchanged);
        r.ignore_files.insert(RepoPath::from(".pytest_cache/.gitignore"), Content(b"*\n".to_vec()));
        r.excludes_file = Some(FileAtStart { path: "/home/u/.config/git/ignore".into(), content: Content(vec![0xff]) });
        let json = serde_json::to_string(&r).expect("encode");
        assert!(json.contains(r#""\"caf\\351.rs\"":"assume-unchanged""#), "{json}");
        assert_eq!(serde_json::from_str::<ReadingAtStart>(&json).expect("decode"), r);
    }
}
