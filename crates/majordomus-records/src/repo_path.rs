//! A path inside the repository as git holds it: bytes, not text.
//!
//! git's paths are byte strings (a file named in Latin-1, or with a control
//! character in its name, is as much a file as any other), so a reading
//! that refused or mangled them could never answer for a repository that
//! holds one. [`RepoPath`] carries the bytes unchanged from the index and
//! the file system to the judging, and is shown as git shows a path
//! (`git status` with `core.quotePath = false`): as it is, unless it holds
//! a control character, a double quote or a backslash, or bytes that are
//! not UTF-8; then in double quotes, C-style, with `\t`, `\n`, `\"`, `\\`
//! and friends, and every other control character or byte that is not
//! UTF-8 as a three-digit octal escape (`"caf\351.txt"`). UTF-8 beyond
//! ASCII is shown as itself.
//!
//! That shown form is also how a path is written in JSON (the task record,
//! the completion document), and it is lossless: a path that does not need
//! quoting never begins with a double quote (one that does begin with one
//! needs quoting), so a string that begins with `"` and is a well-formed
//! quoted path is unquoted, and any other string is the path's own UTF-8.
//! Records written before paths were bytes held UTF-8 paths as themselves,
//! which read back unchanged (only a path that both begins and ends with a
//! double quote and reads as a quoted path would be taken otherwise).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A repository-relative path, `/`-separated, as bytes.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct RepoPath(Vec<u8>);

impl RepoPath {
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> RepoPath {
        RepoPath(bytes.into())
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// The path as text when it is UTF-8.
    pub fn to_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The path under the directory `root` on disk.
    pub fn under(&self, root: &std::path::Path) -> std::path::PathBuf {
        use std::os::unix::ffi::OsStrExt;
        root.join(std::ffi::OsStr::from_bytes(&self.0))
    }

    /// Whether the path lies under majordomus's own local state
    /// (`.ai/local/...`): an untracked file there is no reading's; one the
    /// index or a commit holds is the user's content, as anywhere else.
    pub fn is_own_state(&self) -> bool {
        let local = crate::paths::LOCAL_DIR.as_bytes();
        self.0.starts_with(local) && (self.0.len() == local.len() || self.0[local.len()] == b'/')
    }

    /// Whether `shown` must be quoted to be read back as these bytes.
    fn needs_quoting(&self) -> bool {
        unquoted(&self.0).is_none()
    }

    /// What [`fmt::Display`] shows for the path `bytes`, without copying
    /// them into a `RepoPath` first: the text itself where it needs no
    /// quoting (a reading that shows every path of the index pays one
    /// copy each, not two and the formatter's).
    pub fn show(bytes: &[u8]) -> String {
        match unquoted(bytes) {
            Some(text) => text.to_owned(),
            None => RepoPath(bytes.to_vec()).to_string(),
        }
    }

    /// Reads a path as [`fmt::Display`] shows it.
    pub fn parse(shown: &str) -> RepoPath {
        match unquote(shown) {
            Some(bytes) => RepoPath(bytes),
            None => RepoPath(shown.as_bytes().to_vec()),
        }
    }
}

/// A C1 control character (U+0080 to U+009F): a terminal may act on it
/// as on an escape sequence, so it is never shown as itself.
/// `bytes` as text where they are shown as they are: UTF-8 holding no
/// control character (C0, C1, DEL), double quote or backslash, and not
/// beginning with a quote.
fn unquoted(bytes: &[u8]) -> Option<&str> {
    if bytes.first() == Some(&b'"') || bytes.iter().any(|b| *b < 0x20 || *b == 0x7f || *b == b'"' || *b == b'\\') {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    (text.is_ascii() || !text.chars().any(is_c1)).then_some(text)
}

fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9f}').contains(&c)
}

/// The bytes of a C-quoted path, `None` when `s` is not one.
fn unquote(s: &str) -> Option<Vec<u8>> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::with_capacity(inner.len());
    let mut bytes = inner.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'"' => return None,
            b'\\' => {
                let c = bytes.next()?;
                out.push(match c {
                    b'a' => 0x07,
                    b'b' => 0x08,
                    b't' => b'\t',
                    b'n' => b'\n',
                    b'v' => 0x0b,
                    b'f' => 0x0c,
                    b'r' => b'\r',
                    b'"' => b'"',
                    b'\\' => b'\\',
                    b'0'..=b'3' => {
                        let (d2, d3) = (bytes.next()?, bytes.next()?);
                        if !(b'0'..=b'7').contains(&d2) || !(b'0'..=b'7').contains(&d3) {
                            return None;
                        }
                        (c - b'0') * 64 + (d2 - b'0') * 8 + (d3 - b'0')
                    }
                    _ => return None,
                });
            }
            b => out.push(b),
        }
    }
    Some(out)
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.needs_quoting() {
            // Checked UTF-8 by needs_quoting.
            return f.write_str(std::str::from_utf8(&self.0).map_err(|_| fmt::Error)?);
        }
        f.write_str("\"")?;
        for chunk in self.0.utf8_chunks() {
            for c in chunk.valid().chars() {
                match c {
                    '\x07' => f.write_str("\\a")?,
                    '\x08' => f.write_str("\\b")?,
                    '\t' => f.write_str("\\t")?,
                    '\n' => f.write_str("\\n")?,
                    '\x0b' => f.write_str("\\v")?,
                    '\x0c' => f.write_str("\\f")?,
                    '\r' => f.write_str("\\r")?,
                    '"' => f.write_str("\\\"")?,
                    '\\' => f.write_str("\\\\")?,
                    c if (c as u32) < 0x20 || c == '\x7f' => write!(f, "\\{:03o}", c as u32)?,
                    c if is_c1(c) => {
                        for b in c.to_string().bytes() {
                            write!(f, "\\{b:03o}")?;
                        }
                    }
                    c => write!(f, "{c}")?,
                }
            }
            for b in chunk.invalid() {
                write!(f, "\\{b:03o}")?;
            }
        }
        f.write_str("\"")
    }
}

impl fmt::Debug for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl From<&str> for RepoPath {
    fn from(s: &str) -> RepoPath {
        RepoPath(s.as_bytes().to_vec())
    }
}

impl From<String> for RepoPath {
    fn from(s: String) -> RepoPath {
        RepoPath(s.into_bytes())
    }
}

impl From<&[u8]> for RepoPath {
    fn from(b: &[u8]) -> RepoPath {
        RepoPath(b.to_vec())
    }
}

impl PartialEq<str> for RepoPath {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for RepoPath {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<String> for RepoPath {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<RepoPath> for &str {
    fn eq(&self, other: &RepoPath) -> bool {
        self.as_bytes() == other.0
    }
}

impl std::borrow::Borrow<[u8]> for RepoPath {
    fn borrow(&self) -> &[u8] {
        &self.0
    }
}

impl Serialize for RepoPath {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RepoPath {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RepoPath, D::Error> {
        let s = String::deserialize(d)?;
        Ok(RepoPath::parse(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_shown_from_its_bytes_as_display_shows_it() {
        for bytes in [
            &b"src/lib.rs"[..],
            b"",
            b"\"q",
            b"a\"b",
            b"a\\b",
            b"tab\there",
            b"\x7f",
            b"caf\xc3\xa9",
            b"c1\xc2\x85",
            b"\xff\xfe",
            b"sp ace",
        ] {
            assert_eq!(RepoPath::show(bytes), RepoPath::from_bytes(bytes).to_string(), "{bytes:?}");
        }
    }

    fn round_trip(bytes: &[u8]) -> String {
        let p = RepoPath::from_bytes(bytes);
        let shown = p.to_string();
        assert_eq!(RepoPath::parse(&shown), p, "{shown}");
        let json = serde_json::to_string(&p).expect("encode");
        assert_eq!(serde_json::from_str::<RepoPath>(&json).expect("decode"), p, "{json}");
        shown
    }

    #[test]
    fn a_plain_path_is_shown_as_itself_utf8_beyond_ascii_too() {
        assert_eq!(round_trip(b"src/lib.rs"), "src/lib.rs");
        assert_eq!(round_trip("docs/café notes.md".as_bytes()), "docs/café notes.md");
    }

    #[test]
    fn bytes_that_are_not_utf8_and_control_characters_are_quoted_as_git_quotes_them() {
        assert_eq!(round_trip(b"caf\xe9.txt"), r#""caf\351.txt""#);
        assert_eq!(round_trip(b"a\tb\nc"), r#""a\tb\nc""#);
        assert_eq!(round_trip(b"say \"hi\""), r#""say \"hi\"""#);
        assert_eq!(round_trip(b"back\\slash"), r#""back\\slash""#);
        assert_eq!(round_trip(b"\x1b[31mred"), r#""\033[31mred""#);
        assert_eq!(round_trip(b"\xff\xfe"), r#""\377\376""#);
        assert_eq!(round_trip("csi\u{9b}".as_bytes()), r#""csi\302\233""#);
    }

    #[test]
    fn a_path_that_begins_with_a_quote_is_quoted_so_it_reads_back_as_itself() {
        assert_eq!(round_trip(b"\"x\""), r#""\"x\"""#);
        assert_eq!(round_trip(b"\""), r#""\"""#);
    }

    #[test]
    fn a_string_that_is_not_a_well_formed_quoted_path_is_taken_as_it_is() {
        for s in [r#""unterminated"#, r#""bad \q escape""#, r#""\9""#, r#""inner " quote""#] {
            assert_eq!(RepoPath::parse(s).as_bytes(), s.as_bytes(), "{s}");
        }
    }

    #[test]
    fn only_paths_under_the_local_directory_are_own_state() {
        assert!(RepoPath::from(".ai/local").is_own_state());
        assert!(RepoPath::from_bytes(b".ai/local/\xff".to_vec()).is_own_state());
        assert!(!RepoPath::from(".ai/localish").is_own_state());
    }
}
