//! Whether a tracked file's content on disk is what git records for it.
//!
//! git tells a file changed by its stat data first, and so does the status
//! pass: a file whose stat data the index recorded beside other content (a
//! clean filter given to one `git add`, `git -c filter.x.clean=... add`,
//! stores what the filter wrote and keeps the file's own stat) reads clean
//! to `git status`, while a gate's command reads the disk. A verdict over
//! that file is then not the commit's (test/cases/522). So where a verdict
//! must be the committed work's, the file is read and its blob id compared
//! with the recorded one, as git's own conversions would clean it (end of
//! line, `ident`): a file `text eol=crlf` holds CRLF on disk and LF in its
//! blob, honestly. An external filter driver is never run (it is code the
//! repository or the user names): a file under one whose content differs
//! is said to differ, naming the driver, never taken as the same.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use git2::{AttrCheckFlags, AttrValue, Oid};
use majordomus_records::RepoPath;

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
/// first (one read, the common case), then, where that differs, as git's
/// end-of-line and `ident` conversions would clean it, where its
/// attributes or the configuration turn them on.
pub(crate) fn against(repo: &Repo, rel: &RepoPath, recorded: Oid) -> OnDisk {
    let Some(id) = content_id(repo, rel) else { return OnDisk::Unread };
    if id == recorded.to_string() {
        return OnDisk::Recorded;
    }
    let path = Path::new(OsStr::from_bytes(rel.as_bytes()));
    let attr = |name: &'static str| -> Option<String> {
        repo.git.get_attr(path, name, AttrCheckFlags::FILE_THEN_INDEX).ok().flatten().map(ToString::to_string)
    };
    let filter = attr("filter").filter(|name| matches!(AttrValue::from_string(Some(name)), AttrValue::String(_)));
    let (text, eol) = (attr("text").or_else(|| attr("crlf")), attr("eol"));
    let autocrlf = repo.git.config().and_then(|c| c.get_string("core.autocrlf")).unwrap_or_default();
    let converts_eol = match AttrValue::from_string(text.as_deref()) {
        AttrValue::False => false,
        AttrValue::True | AttrValue::String(_) => true,
        _ => eol.is_some() || matches!(autocrlf.to_ascii_lowercase().as_str(), "true" | "input" | "yes" | "on" | "1"),
    };
    if filter.as_deref() == Some("lfs") && holds_lfs_object(repo, rel, recorded) {
        return OnDisk::Recorded;
    }
    let ident = matches!(AttrValue::from_string(attr("ident").as_deref()), AttrValue::True);
    if converts_eol || ident {
        let cleaned = crate::file::in_tree(repo.root(), rel)
            .and_then(|full| crate::file::read(&full).ok())
            .map(|bytes| clean(&bytes, converts_eol, ident));
        if cleaned.is_some_and(|c| crate::baselines::blob_id(&c) == recorded) {
            return OnDisk::Recorded;
        }
    }
    OnDisk::Differs { id, filter }
}

/// Whether the file at `rel` is the object the Git LFS pointer `recorded`
/// names: its SHA-256 and its size are the pointer's. That is what LFS's
/// clean filter would commit for it, checked without running the filter
/// (a pointer is the whole blob; the object is pushed beside the commit).
/// Anything that is not a pointer in LFS's format is not taken for one.
fn holds_lfs_object(repo: &Repo, rel: &RepoPath, recorded: Oid) -> bool {
    let Some((oid, size)) = repo.git.find_blob(recorded).ok().and_then(|b| lfs_pointer(b.content())) else {
        return false;
    };
    let Some(full) = crate::file::in_tree(repo.root(), rel) else { return false };
    crate::file::sha256(&full).is_ok_and(|(digest, read)| read == size && digest == oid)
}

/// The object id and size a Git LFS pointer names (its spec: a `version`
/// line first, then keys in order, `oid sha256:<64 hex digits>` and
/// `size <bytes>` among them), `None` for any other content.
fn lfs_pointer(blob: &[u8]) -> Option<([u8; 32], u64)> {
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

/// `bytes` as git's own clean conversions leave them: CRLF taken to LF
/// where `eol` (a file holding a NUL is binary, and left as it is), and
/// each `$Id: ...$` back to `$Id$` where `ident`.
fn clean(bytes: &[u8], eol: bool, ident: bool) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if eol && !bytes.contains(&0) {
        out.clear();
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            out.push(*b);
        }
    }
    if ident {
        out = collapse_ident(&out);
    }
    out
}

/// Each `$Id: anything but a newline or a dollar$` as `$Id$`.
fn collapse_ident(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"$Id:") {
            let rest = &bytes[i + 4..];
            if let Some(end) = rest.iter().position(|c| *c == b'$' || *c == b'\n') {
                if rest[end] == b'$' {
                    out.extend_from_slice(b"$Id$");
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

    #[test]
    fn git_clean_conversions_take_crlf_to_lf_and_collapse_ident() {
        assert_eq!(clean(b"a\r\nb\r\n", true, false), b"a\nb\n");
        assert_eq!(clean(b"a\r\n\0", true, false), b"a\r\n\0", "binary is left as it is");
        assert_eq!(clean(b"x $Id: 1234 $ y\n", false, true), b"x $Id$ y\n");
        assert_eq!(clean(b"x $Id: open\n$", false, true), b"x $Id: open\n$");
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
