//! Whether a tracked file's content on disk is what git records for it.
//!
//! git tells a file changed by its stat data first, and so does the status
//! pass: a file whose stat data the index recorded beside other content (a
//! clean filter given to one `git add`, `git -c filter.x.clean=... add`,
//! stores what the filter wrote and keeps the file's own stat) reads clean
//! to `git status`, while a gate's command reads the disk. A verdict over
//! that file is then not the commit's (test/cases/522). So where a verdict
//! must be the committed work's, the file is read and compared with what
//! checking its blob out would write there, as git's own conversions make
//! it (end of line, `ident`, `working-tree-encoding`): a file `text
//! eol=crlf` holds CRLF on disk and LF in its blob, and a checkout writes
//! it CRLF again, honestly; a CRLF file `text=auto` stored as LF is not
//! what a checkout gives on this platform, though it cleans to its blob
//! (test/cases/527). An external filter driver is never run (it is code
//! the repository or the user names): a file under one whose content
//! differs is said to differ, naming the driver, never taken as the same.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use git2::{AttrCheckFlags, AttrValue, Oid};
use majordomus_records::RepoPath;

use crate::status::encoding::{self, Conversion, Eol};
use crate::status::{content_id, WorkingTree};
use crate::Repo;

/// A tracked file whose content on disk is not the blob git records for it,
/// though git reads it clean.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct OffIndex {
    pub path: String,
    /// The external filter driver its attributes name (`filter=lfs`), which
    /// majordomus does not run, where one is named.
    pub filter: Option<String>,
}

/// What a file on disk holds against its recorded blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OnDisk {
    /// The recorded blob, as read or as git's conversions clean it.
    Recorded,
    /// Other content, with its id as read and the filter driver named for it.
    Differs { id: String, filter: Option<String> },
    /// Gone or unreadable: a status pass or the stamps answer for it.
    Unread,
}

/// Compares the file at `rel` with the blob `recorded`: its id as read
/// first (one read, the common case), then, where that differs, with what
/// checking the blob out would write there (`checkout`). Cleaning the disk
/// bytes into the blob is not enough: `* text=auto` stores a CRLF file as
/// LF and a checkout on this platform writes LF back, so a gate that read
/// the CRLF file did not read what the commit gives (test/cases/527).
pub(crate) fn against(repo: &Repo, rel: &RepoPath, recorded: Oid) -> OnDisk {
    let Some(id) = content_id(repo, rel) else { return OnDisk::Unread };
    if id == recorded.to_string() {
        return OnDisk::Recorded;
    }
    let path = Path::new(OsStr::from_bytes(rel.as_bytes()));
    let filter = repo
        .git
        .get_attr(path, "filter", AttrCheckFlags::FILE_THEN_INDEX)
        .ok()
        .flatten()
        .map(ToString::to_string)
        .filter(|name| matches!(AttrValue::from_string(Some(name)), AttrValue::String(_)));
    if filter.as_deref() == Some("lfs") && holds_lfs_object(repo, rel, recorded) {
        return OnDisk::Recorded;
    }
    let config = repo.git.config().ok();
    let setting = |name: &str| config.as_ref().and_then(|c| crate::config::setting(c, name));
    let conversion = encoding::conversion(
        &repo.git,
        rel.as_bytes(),
        setting("core.autocrlf").as_deref(),
        setting("core.eol").as_deref(),
    );
    let converts = conversion.encoding.is_some() || conversion.ident || conversion.crlf_out;
    if converts && filter.is_none() {
        let disk = crate::file::in_tree(repo.root(), rel).and_then(|full| crate::file::read(&full).ok());
        let blob = repo.git.find_blob(recorded).ok();
        if let (Some(disk), Some(blob)) = (disk, blob) {
            if checkout(blob.content(), recorded, &conversion).is_some_and(|out| written(&disk, &conversion, &out)) {
                return OnDisk::Recorded;
            }
        }
    }
    OnDisk::Differs { id, filter }
}

/// Whether `disk` is what a checkout writes for the text `out`: `out`
/// itself, or, kept in a `working-tree-encoding`, `out` in that encoding,
/// told by decoding `disk` as the status pass does (`status::encoding`), so
/// that one conversion serves both.
fn written(disk: &[u8], conversion: &Conversion, out: &[u8]) -> bool {
    match &conversion.encoding {
        None => disk == out,
        Some(name) => encoding::decode(disk, name).is_ok_and(|text| text.as_bytes() == out),
    }
}

/// The text a checkout writes for the blob `content` (`recorded`), before
/// any `working-tree-encoding`, as git's `convert_to_working_tree` makes it:
/// each `$Id$` expanded to the blob's id where `ident`, then each LF not
/// after a CR written CRLF where the checkout writes CRLF; `text=auto` (or
/// `core.autocrlf`) leaves a blob alone that holds a CR or that it takes
/// for binary. `None` where a `working-tree-encoding` is named with
/// `ident`, a pair the status pass does not convert either.
fn checkout(content: &[u8], recorded: Oid, conversion: &Conversion) -> Option<Vec<u8>> {
    if conversion.encoding.is_some() && conversion.ident {
        return None;
    }
    let mut out = if conversion.ident { expand_ident(content, recorded) } else { content.to_vec() };
    let lone_lf = out.iter().enumerate().any(|(i, b)| *b == b'\n' && (i == 0 || out[i - 1] != b'\r'));
    let auto_leaves = conversion.eol != Eol::Text && (out.contains(&b'\r') || encoding::binary(&out));
    if conversion.crlf_out && conversion.eol != Eol::None && lone_lf && !auto_leaves {
        let mut crlf = Vec::with_capacity(out.len() + out.len() / 16);
        for (i, b) in out.iter().enumerate() {
            if *b == b'\n' && (i == 0 || out[i - 1] != b'\r') {
                crlf.push(b'\r');
            }
            crlf.push(*b);
        }
        out = crlf;
    }
    Some(out)
}

/// Whether the file at `rel` is the object the Git LFS pointer `recorded`
/// names: its SHA-256 and its size are the pointer's. That is what LFS's
/// clean filter would commit for it, checked without running the filter
/// (a pointer is the whole blob; the object is pushed beside the commit).
/// Anything that is not a pointer in LFS's format is not taken for one.
pub(crate) fn holds_lfs_object(repo: &Repo, rel: &RepoPath, recorded: Oid) -> bool {
    let Some((oid, size)) = repo.git.find_blob(recorded).ok().and_then(|b| lfs_pointer(b.content())) else {
        return false;
    };
    let Some(full) = crate::file::in_tree(repo.root(), rel) else { return false };
    crate::file::sha256(&full).is_ok_and(|(digest, read)| read == size && digest == oid)
}

/// The object id and size a Git LFS pointer names (its spec: a `version`
/// line first, then keys in order, `oid sha256:<64 hex digits>` and
/// `size <bytes>` among them), `None` for any other content.
pub(crate) fn lfs_pointer(blob: &[u8]) -> Option<([u8; 32], u64)> {
    if blob.len() > 1024 {
        return None;
    }
    let text = std::str::from_utf8(blob).ok()?;
    let mut lines = text.strip_suffix('\n')?.split('\n');
    let version = lines.next()?.strip_prefix("version ")?;
    if version != "https://git-lfs.github.com/spec/v1" && version != "https://hawser.github.com/spec/v1" {
        return None;
    }
    let (mut oid, mut size) = (None, None);
    for line in lines {
        if let Some(hex) = line.strip_prefix("oid sha256:") {
            let hex = hex.as_bytes();
            if hex.len() != 64 || !hex.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')) {
                return None;
            }
            let mut raw = [0u8; 32];
            for (byte, pair) in raw.iter_mut().zip(hex.chunks_exact(2)) {
                *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
            }
            oid = Some(raw);
        } else if let Some(n) = line.strip_prefix("size ") {
            size = Some(n.parse::<u64>().ok()?);
        }
    }
    Some((oid?, size?))
}

/// Each `$Id$`, and each `$Id: ...$` git would take for its own (no
/// newline in it, no space but the last before its closing dollar), as
/// `$Id: <the blob's id> $`, as git's `ident_to_worktree` writes it.
fn expand_ident(bytes: &[u8], recorded: Oid) -> Vec<u8> {
    let expanded = format!("$Id: {recorded} $");
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"$Id$") {
            out.extend_from_slice(expanded.as_bytes());
            i += 4;
            continue;
        }
        if bytes[i..].starts_with(b"$Id:") {
            let rest = &bytes[i + 4..];
            if let Some(end) = rest.iter().position(|c| *c == b'$' || *c == b'\n') {
                let foreign = rest[..end]
                    .iter()
                    .skip(1)
                    .position(|c| *c == b' ')
                    .is_some_and(|at| at + 1 < end.saturating_sub(1));
                if rest[end] == b'$' && !foreign {
                    out.extend_from_slice(expanded.as_bytes());
                    i += 4 + end + 1;
                    continue;
                }
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// Of `paths` (changed since the start, say), the tracked files the status
/// pass `tree` read clean whose content on disk is not the index's blob:
/// each read once, only these.
pub fn off_index(repo: &Repo, tree: &WorkingTree, paths: &[String]) -> Vec<OffIndex> {
    let Ok(index) = repo.index_file() else { return Vec::new() };
    let changed = |p: &RepoPath| {
        tree.dirty.iter().any(|d| &d.path == p)
            || tree.conflicted.contains(p)
            || tree.hidden.iter().any(|h| &h.path == p && (h.changed || h.deleted))
    };
    let mut out = Vec::new();
    for path in paths {
        let rel = RepoPath::parse(path);
        let bytes = rel.as_bytes();
        let first = index.entries.partition_point(|e| e.path(&index.paths) < bytes);
        let Some(entry) = index.entries[first..].iter().take_while(|e| e.path(&index.paths) == bytes).next() else {
            continue;
        };
        let regular = matches!(entry.mode, 0o100644 | 0o100755 | 0o120000);
        if !regular || entry.skip_worktree || changed(&rel) {
            continue;
        }
        if let OnDisk::Differs { filter, .. } = against(repo, &rel, entry.id) {
            out.push(OffIndex { path: path.clone(), filter });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conversion(eol: Eol, crlf_out: bool, ident: bool) -> Conversion {
        Conversion { encoding: None, eol, ident, crlf_out }
    }

    /// A checkout writes CRLF only where it converts to CRLF, and
    /// `text=auto` leaves a blob holding a CR, or binary, as it is.
    #[test]
    fn a_checkout_writes_crlf_only_where_it_converts_and_expands_ident() {
        let id = Oid::from_str("0123456789012345678901234567890123456789").expect("oid");
        let lf = b"a\nb\n";
        assert_eq!(checkout(lf, id, &conversion(Eol::Text, true, false)).as_deref(), Some(&b"a\r\nb\r\n"[..]));
        assert_eq!(checkout(lf, id, &conversion(Eol::Auto, false, false)).as_deref(), Some(&lf[..]), "text=auto on LF");
        assert_eq!(checkout(lf, id, &conversion(Eol::Auto, true, false)).as_deref(), Some(&b"a\r\nb\r\n"[..]));
        let lone = b"a\rb\n";
        assert_eq!(checkout(lone, id, &conversion(Eol::Auto, true, false)).as_deref(), Some(&lone[..]));
        assert_eq!(checkout(lone, id, &conversion(Eol::Text, true, false)).as_deref(), Some(&b"a\rb\r\n"[..]));
        assert_eq!(checkout(b"a\n\0", id, &conversion(Eol::Auto, true, false)).as_deref(), Some(&b"a\n\0"[..]));
        let expanded = format!("x $Id: {id} $ y\n");
        assert_eq!(
            checkout(b"x $Id$ y\n", id, &conversion(Eol::None, false, true)),
            Some(expanded.clone().into_bytes())
        );
        assert_eq!(expand_ident(b"x $Id: old $ y\n", id), expanded.as_bytes());
        assert_eq!(expand_ident(b"x $Id: a b c $ y\n", id), b"x $Id: a b c $ y\n", "another system's id");
        assert_eq!(expand_ident(b"x $Id: open\n$", id), b"x $Id: open\n$");
    }

    /// A Git LFS file holds its object on disk and a pointer in its blob:
    /// the object the pointer names is the recorded content, any other is
    /// not, of the same size too; and a pointer is only one in LFS's form.
    #[test]
    fn an_lfs_object_is_the_pointer_it_was_committed_as() {
        use sha1::Digest as _;
        let t = majordomus_testkit::TestRepo::with_commit();
        let object = b"a large binary, in a small test\n";
        let hex: String = sha2::Sha256::digest(object).iter().map(|b| format!("{b:02x}")).collect();
        let pointer = format!("version https://git-lfs.github.com/spec/v1\noid sha256:{hex}\nsize {}\n", object.len());
        t.write("big.bin", &pointer);
        t.write(".gitattributes", "*.bin filter=lfs diff=lfs merge=lfs -text\n");
        t.commit_all("a pointer committed as LFS's clean filter writes it");
        std::fs::write(t.path().join("big.bin"), object).expect("write");
        let repo = crate::open(t.path()).expect("open");
        let recorded = repo
            .git
            .head()
            .and_then(|h| h.peel_to_tree())
            .and_then(|tree| tree.get_path(Path::new("big.bin")).map(|e| e.id()))
            .expect("blob");
        let rel = RepoPath::parse("big.bin");
        assert_eq!(against(&repo, &rel, recorded), OnDisk::Recorded);
        let mut other = object.to_vec();
        other[0] = b'A';
        std::fs::write(t.path().join("big.bin"), &other).expect("write");
        assert!(matches!(against(&repo, &rel, recorded), OnDisk::Differs { filter: Some(f), .. } if f == "lfs"));
        assert_eq!(lfs_pointer(pointer.as_bytes()).map(|(_, size)| size), Some(object.len() as u64));
        for bad in [
            pointer.replace("version https://git-lfs.github.com/spec/v1", "version https://example.com/v1"),
            pointer.replace(&hex, &hex[..60]),
            pointer.replace(&hex, &hex.to_uppercase()),
            pointer.trim_end().to_string(),
            pointer.replace("size ", "size -"),
        ] {
            assert_eq!(lfs_pointer(bad.as_bytes()), None, "{bad}");
        }
    }
}
