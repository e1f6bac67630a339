//! The one way a JSON record of majordomus's own is loaded: read at most a
//! bound of bytes, parse, check the schema string, check every field's
//! bounds (the record's [`Record::check`]), and say what is wrong in a
//! sentence of bounded length.
//!
//! The task record, the hook's record and the carry record each used to do
//! this by hand; a record that is read differently from the others is where
//! a damaged file slips through. Whatever is wrong, the answer is an error
//! with the reason, never a record with a field quietly defaulted: the
//! caller decides what an unreadable record means (for the invariant, an
//! `unknown`; for the stop hook, a block; for a run's budget, a stop).

use std::io::Read;
use std::path::Path;

use serde::de::DeserializeOwned;

/// How long the reason in an error may be: a parser's message quotes what
/// it met, and what it met may be megabytes.
pub const MAX_REASON: usize = 300;

/// A record kept as JSON, with a schema string of its own.
pub trait Record: DeserializeOwned {
    /// The schema string a record of this kind carries.
    const SCHEMA: &'static str;
    /// The largest file that may hold one.
    const MAX_BYTES: u64;
    /// The record's schema string, as read.
    fn schema(&self) -> &str;
    /// Every field within its bounds; the reason when one is not.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Why a record could not be loaded.
#[derive(Debug)]
pub enum Failure {
    Io(std::io::Error),
    /// It was read, and it is not such a record: the reason, bounded.
    Malformed(String),
}

/// Parses a record from its bytes: JSON, the schema, the bounds.
pub fn parse<R: Record>(bytes: &[u8]) -> Result<R, String> {
    // Checked as UTF-8 once, whole: read from bytes, serde_json checks
    // every string again as it meets it, a tenth of a `check` whose task
    // record holds ten thousand branches. Bytes that are not UTF-8 are
    // read as bytes, for the error serde_json gives them.
    let read = match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(bytes),
    };
    let record: R = read.map_err(|e| bounded(&e.to_string()))?;
    if record.schema() != R::SCHEMA {
        return Err(format!("its schema is {:?}, expected {:?}", crate::text::clamp(record.schema(), 80), R::SCHEMA));
    }
    record.check().map_err(|e| bounded(&e))?;
    Ok(record)
}

/// Loads the record at `path`; `Ok(None)` when there is no file.
pub fn load<R: Record>(path: &Path) -> Result<Option<R>, Failure> {
    match read::<R>(path)? {
        Some(bytes) => parse(&bytes).map(Some).map_err(Failure::Malformed),
        None => Ok(None),
    }
}

/// The bytes of the record at `path`, unparsed, for a caller that also
/// compares them (the task record with its copy): at most the bound of
/// such a record, larger is malformed. `Ok(None)` when there is no file.
pub fn read<R: Record>(path: &Path) -> Result<Option<Vec<u8>>, Failure> {
    let file = match crate::regular::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Failure::Io(e)),
    };
    // Room for the whole file from the start (and the byte that tells a
    // file over the bound): read in one call, not in doubling pieces.
    let size = file.metadata().map_or(0, |m| m.len()).min(R::MAX_BYTES);
    let mut bytes = Vec::with_capacity(usize::try_from(size + 1).unwrap_or(0));
    file.take(R::MAX_BYTES + 1).read_to_end(&mut bytes).map_err(Failure::Io)?;
    if bytes.len() as u64 > R::MAX_BYTES {
        return Err(Failure::Malformed(format!("it is larger than the {} bytes such a record may be", R::MAX_BYTES)));
    }
    Ok(Some(bytes))
}

/// `reason`, escaped and cut to [`MAX_REASON`] bytes.
pub fn bounded(reason: &str) -> String {
    crate::text::clamp(&crate::text::escape(reason), MAX_REASON).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Note {
        schema: String,
        text: String,
    }

    impl Record for Note {
        const SCHEMA: &'static str = "test/note/v1";
        const MAX_BYTES: u64 = 1000;
        fn schema(&self) -> &str {
            &self.schema
        }
        fn check(&self) -> Result<(), String> {
            crate::text::check_len("text", &self.text, 10)
        }
    }

    #[test]
    fn a_record_is_refused_for_its_schema_its_bounds_its_size_and_never_echoes_a_huge_field() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("n.json");
        assert!(matches!(load::<Note>(&path), Ok(None)));
        std::fs::write(&path, r#"{"schema": "test/note/v1", "text": "fine"}"#).expect("write");
        assert_eq!(load::<Note>(&path).ok().flatten().map(|n| n.text), Some("fine".into()));
        let reason = |text: &str| match (std::fs::write(&path, text), load::<Note>(&path)) {
            (Ok(()), Err(Failure::Malformed(r))) => r,
            other => panic!("expected malformed, got {other:?}"),
        };
        assert!(reason(r#"{"schema": "other", "text": ""}"#).contains("expected \"test/note/v1\""));
        assert!(reason(r#"{"schema": "test/note/v1", "text": "much too long"}"#).contains("more than the 10"));
        assert!(reason(&format!(r#"{{"schema": "{}"}}"#, "x".repeat(2000))).contains("larger than the 1000 bytes"));
        let huge = format!(r#"{{"schema": "test/note/v1", "text": 5, "x": "{}"}}"#, "\u{1b}".repeat(900));
        let said = reason(&huge);
        assert!(said.len() <= MAX_REASON + 40 && !said.contains('\u{1b}'), "{said}");
    }
}
