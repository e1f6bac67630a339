//! One ignore file's lines as patterns, and how one pattern matches a path,
//! as `git help gitignore` states it.
//!
//! A line is a pattern unless it is empty or starts with `#`; a UTF-8 byte
//! order mark before the first line and a carriage return before each line
//! end are dropped; trailing spaces are dropped unless escaped with `\`. A
//! leading `!` negates; a trailing `/` makes the pattern match directories
//! only (a symbolic link to a directory is not one). A pattern holding no
//! other `/` matches a path's base name at any depth below the file's
//! directory; one holding a `/` (a leading one included) matches the path
//! relative to that directory, with `*` and `?` stopping at slashes.

use super::wildmatch;

/// What is at a path, as far as the rules care: only a directory is one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Dir,
    /// A file, a symbolic link (to anything), or anything else that is not a directory.
    NotDir,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// Without the leading `!` and the trailing `/`.
    text: Vec<u8>,
    pub negative: bool,
    dir_only: bool,
    /// No `/` in it: matched against the base name.
    base_name: bool,
    /// How many leading bytes hold no wildcard (`*?[\`).
    literal_prefix: usize,
    /// `*` and then no wildcard: a suffix to compare.
    ends_with: bool,
}

/// Every pattern in an ignore file's bytes, in order.
pub fn parse(bytes: &[u8]) -> Vec<Pattern> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut out = Vec::new();
    for line in bytes.split(|c| *c == b'\n') {
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // git reads the file as C strings: a NUL ends the line.
        let line = line.split(|c| *c == 0).next().unwrap_or_default();
        out.push(Pattern::new(trim_trailing_spaces(line)));
    }
    out
}

/// Drops trailing spaces that no backslash escapes.
fn trim_trailing_spaces(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    let mut last_space: Option<usize> = None;
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b' ' => {
                last_space.get_or_insert(i);
            }
            b'\\' => {
                i += 1;
                if i >= line.len() {
                    return line;
                }
                last_space = None;
            }
            _ => last_space = None,
        }
        i += 1;
    }
    if let Some(at) = last_space {
        end = at;
    }
    &line[..end]
}

impl Pattern {
    fn new(line: &[u8]) -> Self {
        let (negative, mut text) = match line.strip_prefix(b"!") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let whole = text;
        let dir_only = text.last() == Some(&b'/');
        if dir_only {
            text = &text[..text.len() - 1];
        }
        let base_name = !text.contains(&b'/');
        let literal_prefix = whole.iter().position(|c| matches!(c, b'*' | b'?' | b'[' | b'\\')).unwrap_or(whole.len());
        let ends_with =
            whole.first() == Some(&b'*') && !whole[1..].iter().any(|c| matches!(c, b'*' | b'?' | b'[' | b'\\'));
        Pattern {
            literal_prefix: literal_prefix.min(text.len()),
            text: text.to_vec(),
            negative,
            dir_only,
            base_name,
            ends_with,
        }
    }

    /// Whether the pattern, from an ignore file in directory `base` (`""`
    /// at the root, else without a trailing slash), matches `path` (from the
    /// root, no trailing slash) of kind `kind`.
    pub fn matches(&self, base: &[u8], path: &[u8], kind: Kind, icase: bool) -> bool {
        if self.dir_only && kind != Kind::Dir {
            return false;
        }
        let eq = |a: &[u8], b: &[u8]| if icase { a.eq_ignore_ascii_case(b) } else { a == b };
        if self.base_name {
            let name = path.rsplit(|c| *c == b'/').next().unwrap_or(path);
            let p = &self.text;
            return if self.literal_prefix == p.len() {
                eq(p, name)
            } else if self.ends_with {
                name.len() >= p.len() - 1 && eq(&p[1..], &name[name.len() - (p.len() - 1)..])
            } else {
                wildmatch::matches(p, name, false, icase)
            };
        }
        // Matched relative to the file's directory, a leading slash aside.
        let (mut p, mut prefix) = (self.text.as_slice(), self.literal_prefix);
        if p.first() == Some(&b'/') {
            p = &p[1..];
            prefix = prefix.saturating_sub(1);
        }
        let name = if base.is_empty() {
            path
        } else {
            if path.len() < base.len() + 1 || path[base.len()] != b'/' || !eq(&path[..base.len()], base) {
                return false;
            }
            &path[base.len() + 1..]
        };
        if prefix > 0 {
            if prefix > name.len() || !eq(&p[..prefix], &name[..prefix]) {
                return false;
            }
            if p.len() == prefix && name.len() == prefix {
                return true;
            }
            return wildmatch::matches(&p[prefix..], &name[prefix..], true, icase);
        }
        wildmatch::matches(p, name, true, icase)
    }

    /// How many slashes a file's path below the pattern's directory must
    /// hold for the pattern to match it, where that is fixed: `None` for
    /// one matched against the base name, or holding a `**` (the only
    /// wildcard that crosses a slash), and for one that matches
    /// directories only, which no file's path is (`Some(usize::MAX)`).
    pub fn file_depth(&self) -> Option<usize> {
        if self.dir_only {
            return Some(usize::MAX);
        }
        if self.base_name || self.text.windows(2).any(|w| w == b"**") {
            return None;
        }
        let text = self.text.strip_prefix(b"/").unwrap_or(&self.text);
        Some(text.iter().filter(|c| **c == b'/').count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Pattern {
        let mut all = parse(line.as_bytes());
        assert_eq!(all.len(), 1, "{line:?}");
        all.remove(0)
    }

    #[test]
    fn a_pattern_matches_files_of_one_depth_unless_by_base_name_or_a_double_star() {
        let depth = |line: &str| one(line).file_depth();
        assert_eq!(depth("/*"), Some(0));
        assert_eq!(depth("/src/*.rs"), Some(1));
        assert_eq!(depth("src/a/b"), Some(2));
        assert_eq!(depth("*.rs"), None);
        assert_eq!(depth("src/**/x"), None);
        assert_eq!(depth("/src/"), Some(usize::MAX));
    }

    #[test]
    fn lines_are_read_as_gits_reads_them() {
        let all = parse(b"\xef\xbb\xbf*.log\r\n# a comment\n\n\\#hash\nkeep\\ \ntrail   \n!neg\nlast");
        let texts: Vec<_> = all.iter().map(|p| (String::from_utf8_lossy(&p.text).into_owned(), p.negative)).collect();
        assert_eq!(
            texts,
            [
                ("*.log".into(), false),
                ("\\#hash".into(), false),
                ("keep\\ ".into(), false),
                ("trail".into(), false),
                ("neg".into(), true),
                ("last".into(), false)
            ]
        );
        assert!(one("\\#hash").matches(b"", b"#hash", Kind::NotDir, false));
        assert!(one("keep\\ ").matches(b"", b"keep ", Kind::NotDir, false));
    }

    #[test]
    fn a_base_name_pattern_matches_at_any_depth_and_a_path_pattern_from_its_directory() {
        let log = one("*.log");
        assert!(log.matches(b"", b"a/b/c.log", Kind::NotDir, false));
        let anchored = one("/build");
        assert!(anchored.matches(b"", b"build", Kind::Dir, false));
        assert!(!anchored.matches(b"", b"sub/build", Kind::Dir, false));
        let nested = one("doc/*.md");
        assert!(nested.matches(b"sub", b"sub/doc/a.md", Kind::NotDir, false));
        assert!(!nested.matches(b"sub", b"doc/a.md", Kind::NotDir, false));
        assert!(!nested.matches(b"sub", b"subx/doc/a.md", Kind::NotDir, false));
        assert!(!nested.matches(b"sub", b"sub/x/doc/a.md", Kind::NotDir, false));
    }

    #[test]
    fn a_directory_only_pattern_never_matches_a_link_or_a_file() {
        let build = one("build/");
        assert!(build.matches(b"", b"x/build", Kind::Dir, false));
        assert!(!build.matches(b"", b"x/build", Kind::NotDir, false));
    }
}
