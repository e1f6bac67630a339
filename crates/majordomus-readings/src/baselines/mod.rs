//! Debt baselines: every `*-baseline.txt` under `.ai/repo/`, at any depth,
//! found by suffix. An entry is a line that is neither blank nor a `#`
//! comment, kept as its bytes: two entries are the same only when their
//! bytes are (a baseline is not obliged to be UTF-8, and decoding one
//! lossily would make different entries equal). [`shown`] writes one for
//! a sentence.
//!
//! A symbolic link among them is read through when it leads inside the
//! working tree, on both sides alike (the start snapshot is taken by the
//! same reader), and refused by name when it leads outside it or nowhere
//! (`walk.rs`); the start commit's tree, read only for a record without a
//! snapshot, refuses a link it would have to follow (`commit.rs`).

use std::collections::{BTreeMap, HashMap};

mod commit;
mod walk;

pub use commit::read_commit;
pub use walk::{read_file, read_worktree};

/// The suffix that makes a file a debt baseline.
pub const SUFFIX: &str = "-baseline.txt";

/// One entry: a line's bytes, trimmed.
pub type Entry = Vec<u8>;

/// Baselines by repository-relative path, each with its entries in order.
pub type Baselines = BTreeMap<String, Vec<Entry>>;

/// The baselines a reading found, and the symbolic links it read them
/// through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub baselines: Baselines,
    pub links: Vec<Link>,
    /// Where each baseline's entries were read from: the repository-relative
    /// path of the file (a link's target where one was read through) and
    /// the blob id of its content as read. A commit's blob at that path is
    /// told from what was read by these ids alone: a clean filter given to
    /// one `git add` stores other content than the file holds, and the
    /// index keeps the file's stat data, so `git status` is clean over it.
    pub read_from: BTreeMap<String, (String, git2::Oid)>,
}

/// The blob id of `content`, as git would store it unfiltered.
pub fn blob_id(content: &[u8]) -> git2::Oid {
    // Hashing bytes in memory fails only where libgit2 cannot start.
    git2::Oid::hash_object(git2::ObjectType::Blob, content).unwrap_or_else(|_| git2::Oid::zero())
}

/// A symbolic link a baseline was read through: a baseline that is one, or
/// a directory of baselines that is one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    /// Where the link is, repository-relative.
    pub path: String,
    /// What it leads to, repository-relative.
    pub target: String,
}

/// The entries of one baseline's content. A byte-order mark some editors
/// put at the start is no part of the first entry: kept, it would make that
/// entry differ invisibly from the same entry saved without one. A line
/// ends where any reader of the list ends one ([`broken`]), and is trimmed
/// of whitespace at both ends (Unicode whitespace where the line is UTF-8,
/// ASCII whitespace where it is not).
pub fn entries(content: &[u8]) -> Vec<Entry> {
    let content = content.strip_prefix("\u{feff}".as_bytes()).unwrap_or(content);
    let mut out = Vec::new();
    let mut take = |line: &[u8]| {
        let line = if line.is_ascii() {
            // What `str::trim` takes off an ASCII line: U+0009 to U+000D
            // and the space (`trim_ascii` keeps U+000B).
            trim_ascii_whitespace(line)
        } else {
            match std::str::from_utf8(line) {
                Ok(text) => text.trim().as_bytes(),
                Err(_) => line.trim_ascii(),
            }
        };
        if !line.is_empty() && !line.starts_with(b"#") {
            out.push(line.to_vec());
        }
    };
    // The common baseline holds no line break but `\n`: three passes of
    // `memchr3` over it tell (a break past ASCII ends in 0x85, 0xa8 or 0xa9).
    let other = memchr::memchr3(b'\r', 0x0b, 0x0c, content).is_some()
        || memchr::memchr3(0x1c, 0x1d, 0x1e, content).is_some()
        || memchr::memchr3(0x85, 0xa8, 0xa9, content).is_some();
    let mut from = 0;
    for end in memchr::memchr_iter(b'\n', content).chain(std::iter::once(content.len())) {
        let line = &content[from..end];
        from = end + 1;
        if other {
            broken(line, &mut take);
        } else {
            take(line);
        }
    }
    out
}

/// Gives `take` the lines of `line` (one `\n` ended) as they end at every
/// other line break a reader of the list may end one at: a lone `\r`
/// (Python's text files, Java's `readLine`), and the vertical tab, form
/// feed, U+001C to U+001E, U+0085, U+2028 and U+2029 (Python's
/// `str.splitlines`). Ended at `\n` alone, `# reviewed\rsrc/b.rs: unwrap`
/// was one comment, no entry, while such a reader reads the entry
/// `src/b.rs: unwrap` in it (test/cases/639). A `\r` before a `\n` ends
/// nothing more: what lies between them is blank.
fn broken(line: &[u8], take: &mut impl FnMut(&[u8])) {
    let mut start = 0;
    let mut i = 0;
    while i < line.len() {
        let width = match &line[i..] {
            [0x0b..=0x0d | 0x1c..=0x1e, ..] => 1,
            [0xc2, 0x85, ..] => 2,
            [0xe2, 0x80, 0xa8 | 0xa9, ..] => 3,
            _ => 0,
        };
        if width == 0 {
            i += 1;
            continue;
        }
        take(&line[start..i]);
        i += width;
        start = i;
    }
    take(&line[start..]);
}

/// Copies of each entry, by its bytes.
pub type Copies<'a> = HashMap<&'a [u8], usize, foldhash::fast::RandomState>;

/// How many copies of each entry `entries` holds. A baseline may list an
/// entry once per occurrence (`src/old.rs: unwrap` twice: two allowed), so
/// entries are compared as multisets: one more copy is one entry added.
pub fn copies<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Copies<'a> {
    let mut out = Copies::default();
    for e in entries {
        *out.entry(e.as_slice()).or_default() += 1;
    }
    out
}

/// The entries of `now` past the copies `then` holds, in `now`'s order: an
/// entry `then` lacks, and each further copy of one it holds fewer times.
pub fn more_copies<'a, 'b>(now: &'a [Entry], then: impl IntoIterator<Item = &'b Entry>) -> Vec<&'a Entry> {
    let mut left = copies(then);
    now.iter()
        .filter(|e| match left.get_mut(e.as_slice()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// `line` without the characters `char::is_whitespace` takes for white
/// space among ASCII's at either end.
fn trim_ascii_whitespace(line: &[u8]) -> &[u8] {
    let white = |b: &u8| matches!(b, b'\t'..=b'\r' | b' ');
    let start = line.iter().position(|b| !white(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !white(b)).map_or(start, |i| i + 1);
    &line[start..end]
}

/// An entry as text for a sentence: its UTF-8 as it is, every other byte
/// as `\xNN`.
pub fn shown(entry: &[u8]) -> String {
    let mut out = String::new();
    for chunk in entry.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The entries of a record written as text (before entries were kept as
/// bytes), as bytes.
pub fn from_text(text: &BTreeMap<String, Vec<String>>) -> Baselines {
    text.iter().map(|(p, e)| (p.clone(), e.iter().map(|e| e.as_bytes().to_vec()).collect())).collect()
}

/// Pairs baselines that are gone with baselines that appeared, by the
/// entries they share. A gone baseline is taken to live on in the appeared
/// one holding most of its entries, when that is at least half of them;
/// then, among those left, in the one appeared baseline it shares any entry
/// with, when that one shares entries with no other gone baseline left (a
/// move rewritten so that fewer than half of its entries remain is still a
/// move, where nothing else could be its former self). Where sharing is
/// ambiguous nothing is paired, and the caller judges what is left.
/// This finds a move git's rename detection cannot see (a file rewritten in
/// the same move, a baseline that was never committed); a gone baseline
/// with no entries cannot be paired this way.
pub fn pair_by_entries(gone: &Baselines, appeared: &Baselines) -> Vec<(String, String)> {
    use std::collections::BTreeSet;
    let mut shares: Vec<(usize, usize, &String, &String)> = Vec::new();
    for (from, old) in gone {
        let old: BTreeSet<&Entry> = old.iter().collect();
        for (to, new) in appeared {
            let shared = new.iter().collect::<BTreeSet<_>>().intersection(&old).count();
            if shared > 0 {
                shares.push((shared, old.len(), from, to));
            }
        }
    }
    let mut candidates: Vec<_> = shares.iter().filter(|(shared, of, _, _)| shared * 2 >= *of).collect();
    // The largest share of the former entries first; each path paired once.
    candidates.sort_by(|a, b| (b.0 * a.1).cmp(&(a.0 * b.1)).then(b.0.cmp(&a.0)).then(a.2.cmp(b.2)).then(a.3.cmp(b.3)));
    let mut pairs = Vec::new();
    let mut used_from = BTreeSet::new();
    let mut used_to = BTreeSet::new();
    for (_, _, from, to) in candidates {
        if used_from.contains(from) || used_to.contains(to) {
            continue;
        }
        used_from.insert(*from);
        used_to.insert(*to);
        pairs.push(((*from).clone(), (*to).clone()));
    }
    // Any share at all, where it is the only one on both sides.
    let left: Vec<_> = shares.iter().filter(|(_, _, f, t)| !used_from.contains(f) && !used_to.contains(t)).collect();
    for (_, _, from, to) in &left {
        let of_from = left.iter().filter(|(_, _, f, _)| f == from).count();
        let of_to = left.iter().filter(|(_, _, _, t)| t == to).count();
        if of_from == 1 && of_to == 1 {
            pairs.push(((*from).clone(), (*to).clone()));
        }
    }
    pairs.sort();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    fn text(content: &str) -> Vec<String> {
        entries(content.as_bytes()).iter().map(|e| shown(e)).collect()
    }

    #[test]
    fn blank_lines_and_comments_are_not_entries() {
        assert_eq!(text("# header\n\n  a  \n#b\nc\n   \n"), ["a", "c"]);
        assert_eq!(text("a\r\n\u{a0}b\u{3000}\r\n"), ["a", "b"], "as str::lines and str::trim read them");
    }

    #[test]
    fn an_ascii_line_is_trimmed_of_what_str_trim_takes_and_no_more() {
        // Every ASCII byte at both ends of an entry: kept or taken off as
        // `str::trim` does (the vertical tab is white space to it, not to
        // `trim_ascii`).
        for b in 0u8..0x80 {
            let c = char::from(b);
            // A line break (tested below) or the comment sign.
            if matches!(b, 0x0a..=0x0d | 0x1c..=0x1e) || c == '#' {
                continue;
            }
            let line = format!("{c}x{c}");
            let want: Vec<String> = [line.trim()].into_iter().filter(|t| !t.is_empty()).map(str::to_string).collect();
            assert_eq!(text(&format!("{line}\n")), want, "byte {b:#04x}");
        }
    }

    #[test]
    fn a_line_ends_wherever_a_reader_of_the_list_ends_one() {
        // A comment does not hide an entry behind a lone `\r` (Python's
        // and Java's text readers end a line there: test/cases/639), nor
        // behind any break `str::splitlines` knows.
        assert_eq!(text("# reviewed\rsrc/b.rs: unwrap\n"), ["src/b.rs: unwrap"]);
        for brk in ["\r", "\u{b}", "\u{c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{85}", "\u{2028}", "\u{2029}"] {
            assert_eq!(text(&format!("# c{brk}a{brk}b\n")), ["a", "b"], "{brk:?}");
        }
        // CRLF, LF and lone CR endings read alike; bytes that are not UTF-8
        // are ended at the same breaks.
        assert_eq!(text("a\r\nb\r\n"), text("a\rb\r"));
        assert_eq!(entries(b"\xff a\r# c\rb\xc2\x85c"), [b"\xff a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
        // A character holding one of those bytes past ASCII ends nothing.
        assert_eq!(text("src/\u{e9}\u{2029}\u{3085}\u{a8}\n"), ["src/\u{e9}", "\u{3085}\u{a8}"]);
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_first_entry() {
        assert_eq!(text("\u{feff}first\nsecond\n"), text("first\nsecond\n"));
        assert_eq!(text("\u{feff}# a comment\nfirst\n"), ["first"], "nor does it hide a comment");
        assert_eq!(text("first\n\u{feff}second\n")[1], "\u{feff}second", "only a leading mark is one");
    }

    #[test]
    fn entries_are_their_bytes_so_two_that_are_not_utf8_stay_two() {
        let two = entries(b"src/a.rs: \xff\nsrc/a.rs: \xfe \n");
        assert_eq!(two, [b"src/a.rs: \xff".to_vec(), b"src/a.rs: \xfe".to_vec()]);
        assert_ne!(two[0], two[1]);
        assert_eq!(shown(&two[0]), "src/a.rs: \\xff");
        assert_eq!(shown("caf\u{e9}".as_bytes()), "caf\u{e9}");
    }

    #[test]
    fn baselines_are_found_by_suffix_at_any_depth_in_the_tree_and_the_commit() {
        let t = TestRepo::with_commit();
        t.write(".ai/repo/clippy-baseline.txt", "one\ntwo\n");
        t.write(".ai/repo/deep/er/todo-baseline.txt", "# c\nthree\n");
        t.write(".ai/repo/not-a-baseline.md", "x\n");
        let commit = t.commit_all("baselines");
        let repo = crate::open(t.path()).expect("open");
        let now = read_worktree(&repo).expect("worktree");
        assert_eq!(
            now.baselines.keys().collect::<Vec<_>>(),
            [".ai/repo/clippy-baseline.txt", ".ai/repo/deep/er/todo-baseline.txt"]
        );
        assert_eq!(now.baselines[".ai/repo/deep/er/todo-baseline.txt"], [b"three".to_vec()]);
        assert!(now.links.is_empty());
        assert_eq!(read_commit(&repo, &commit).expect("commit"), now);
    }

    #[test]
    fn more_copies_are_the_entries_past_the_copies_then_held_in_any_order() {
        let e = |s: &[&str]| s.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
        let then = e(&["a", "b", "b"]);
        assert!(more_copies(&e(&["b", "a", "b"]), then.iter()).is_empty(), "another order adds nothing");
        assert!(more_copies(&e(&["b"]), then.iter()).is_empty(), "copies taken out add nothing");
        assert_eq!(more_copies(&e(&["a", "a", "b", "b"]), then.iter()), [&b"a".to_vec()], "a second copy of a");
        assert_eq!(more_copies(&e(&["c", "b", "b", "b"]), then.iter()).len(), 2);
    }

    fn set(items: &[(&str, &[&str])]) -> Baselines {
        items.iter().map(|(k, v)| (k.to_string(), v.iter().map(|s| s.as_bytes().to_vec()).collect())).collect()
    }

    #[test]
    fn a_gone_baseline_is_paired_with_the_one_holding_most_of_its_entries() {
        let gone = set(&[(".ai/repo/old-baseline.txt", &["a", "b", "c", "d"]), (".ai/repo/empty-baseline.txt", &[])]);
        let appeared = set(&[
            (".ai/repo/x/new-baseline.txt", &["a", "b", "c", "z", "y", "x", "w"]),
            (".ai/repo/other-baseline.txt", &["a", "q"]),
        ]);
        assert_eq!(
            pair_by_entries(&gone, &appeared),
            [(".ai/repo/old-baseline.txt".to_string(), ".ai/repo/x/new-baseline.txt".to_string())]
        );
        let unrelated = set(&[(".ai/repo/n-baseline.txt", &["q", "r"])]);
        assert!(pair_by_entries(&gone, &unrelated).is_empty(), "no shared entry is no move");
    }

    #[test]
    fn a_move_keeping_fewer_than_half_its_entries_is_paired_when_nothing_else_could_be_its_former_self() {
        let gone = set(&[(".ai/repo/lint-baseline.txt", &["a", "b", "c", "d"])]);
        let appeared = set(&[(".ai/repo/clippy-baseline.txt", &["a", "x", "y", "z", "w"])]);
        assert_eq!(
            pair_by_entries(&gone, &appeared),
            [(".ai/repo/lint-baseline.txt".to_string(), ".ai/repo/clippy-baseline.txt".to_string())]
        );
        // Two appeared baselines each holding one of its entries: either
        // could be its former self, so neither is paired here.
        let two = set(&[(".ai/repo/one-baseline.txt", &["a", "q"]), (".ai/repo/two-baseline.txt", &["b", "r"])]);
        assert!(pair_by_entries(&gone, &two).is_empty());
        // A strong pair taken first leaves the weak one unambiguous.
        let gone2 = set(&[
            (".ai/repo/lint-baseline.txt", &["a", "b", "c", "d"]),
            (".ai/repo/todo-baseline.txt", &["t1", "t2", "t3"]),
        ]);
        let appeared2 = set(&[
            (".ai/repo/clippy-baseline.txt", &["a", "x", "t1"]),
            (".ai/repo/later-baseline.txt", &["t1", "t2", "t3", "n"]),
        ]);
        assert_eq!(
            pair_by_entries(&gone2, &appeared2),
            [
                (".ai/repo/lint-baseline.txt".to_string(), ".ai/repo/clippy-baseline.txt".to_string()),
                (".ai/repo/todo-baseline.txt".to_string(), ".ai/repo/later-baseline.txt".to_string()),
            ]
        );
    }
}
