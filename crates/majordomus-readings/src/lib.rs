//! What majordomus measures of a repository: git through `git2`, debt
//! baselines, markers. Each reading returns its evidence or an [`Unread`]
//! saying why it could not be taken. Readings never judge: deciding what a
//! reading means for a question is the work of each question family in
//! `majordomus-invariant` (`src/family/<stage>/judge.rs`).
//!
//! Nothing here executes code the repository controls. libgit2 runs no
//! hooks, ignores `core.fsmonitor`, and applies only its built-in filters
//! (never a configured `filter.<driver>` command); `tests/hostile.rs` proves it.

pub mod baselines;
pub mod changes;
pub mod config;
pub mod file;
pub mod fingerprint;
mod git_files;
pub mod ignore;
pub mod index_file;
pub mod inputs;
pub mod large_files;
pub mod markers;
pub mod process;
pub mod reflog;
pub mod refs;
pub mod renames;
pub mod repo;
pub mod sparse_file;
pub mod stash;
pub mod state;
pub mod status;
pub mod trees;
mod unread;
pub mod worktrees;

pub use repo::{open, open_with_spare, OpenError, Repo};
pub use unread::{Reading, Unread, UnreadKind, NO_TASK};

#[cfg(test)]
#[test]
fn an_id_is_written_as_git_writes_it() {
    let id = git2::Oid::from_str("0123456789abcdef0123456789abcdef01234567").expect("id");
    assert_eq!(hex(id), id.to_string());
    assert_eq!(hex(git2::Oid::zero()), "0".repeat(40));
    let every_byte: Vec<u8> = (0..=255u8).step_by(14).chain([0xff]).collect();
    let id = git2::Oid::from_bytes(&every_byte).expect("twenty bytes");
    assert_eq!(hex(id), id.to_string());
}

#[cfg(test)]
#[test]
fn a_blobs_id_is_the_one_libgit2_gives_it() {
    let long: Vec<u8> = (0..200_003u32).map(|i| (i * 31 % 251) as u8).collect();
    for bytes in [&b""[..], b"a", b"hello\n", &[0u8; 55], &[0xffu8; 56], &[7u8; 64], &long] {
        let libgit2 = git2::Oid::hash_object(git2::ObjectType::Blob, bytes).expect("libgit2's hash");
        assert_eq!(blob_oid(bytes), libgit2, "{} bytes", bytes.len());
    }
}

#[cfg(test)]
#[test]
fn a_word_the_shell_reads_is_quoted_and_a_plain_one_is_not() {
    assert_eq!(shell_word("origin"), "origin");
    assert_eq!(shell_word("feat/x-1.2"), "feat/x-1.2");
    assert_eq!(shell_word("up stream"), "'up stream'");
    assert_eq!(shell_word("it's"), "'it'\\''s'");
    assert_eq!(shell_word("$(rm -rf ~)"), "'$(rm -rf ~)'");
    assert_eq!(shell_word(""), "''");
}

/// A path or name as one shell word: quoted when it holds anything the
/// shell reads, so a remedy given as a command runs as written.
pub fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./+@%:,".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The id git gives a blob of `bytes` (`git hash-object`): what
/// `Oid::hash_object` answers, hashed here by the `sha1` crate that
/// [`file::blob_id`] hashes files with rather than by libgit2's SHA-1 with
/// collision detection, which costs three times as much a byte (an input
/// manifest over 5,000 files took 15 M instructions). The ids are the
/// same (a unit test holds them so); a collision crafted against SHA-1 is
/// nothing an ordinary command writes.
pub fn blob_oid(bytes: &[u8]) -> git2::Oid {
    use sha1::Digest as _;
    let mut hasher = sha1::Sha1::new();
    hasher.update(format!("blob {}\0", bytes.len()));
    hasher.update(bytes);
    git2::Oid::from_bytes(&hasher.finalize()).unwrap_or_else(|_| git2::Oid::zero())
}

/// The full hexadecimal id of an object (as `Oid`'s `Display` writes it,
/// without its formatting machinery: thousands are written per check).
pub fn hex(oid: git2::Oid) -> String {
    let bytes = oid.as_bytes();
    // Two digits per byte through one table, into a buffer of the right
    // size, which becomes the string: pushed byte by byte, ten thousand
    // ids cost 7 M instructions; through a stack buffer copied after, 5 M.
    let mut digits = Vec::with_capacity(2 * bytes.len());
    for &b in bytes {
        digits.extend_from_slice(&HEX_PAIRS[usize::from(b)]);
    }
    String::from_utf8(digits).unwrap_or_default()
}

/// Each byte's two lowercase hexadecimal digits.
const HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut table = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = [DIGITS[b >> 4], DIGITS[b & 0xf]];
        b += 1;
    }
    table
};
