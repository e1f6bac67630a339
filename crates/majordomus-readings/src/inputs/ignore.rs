//! The ignore rules a gate's inputs were taken under, where the repository
//! does not hold them.
//!
//! The inputs are the files the globs match that git does not ignore, so an
//! ignore rule added after a gate ran narrows its inputs: a file it hides
//! (an input the run saw, or one added since) drops out of the hash, and an
//! old pass looks current. Rules the repository holds in `.gitignore` files
//! it tracks, unchanged, are part of its content; the others are not: the
//! rules of `.git/info/exclude` and of `core.excludesFile`, and every
//! `.gitignore` the working tree holds changed or untracked. So the hash
//! covers those rules too, and any change to them after a run makes its
//! verdict stale. (Which rules may hide a file at all, those of the start,
//! is the working-tree reading's to say; this only keeps a verdict from
//! outliving the rules it was taken under.)
//!
//! A rule majordomus writes itself (`start` adds `/.ai/local/` to
//! `info/exclude`, its own state) is no part of it.

use git2::{ObjectType, Oid};

use majordomus_records::RepoPath;

use super::Matcher;
use crate::status::{content_id, WorkingTree};
use crate::{Reading, Repo, Unread};

/// The line `start` adds to `info/exclude` (see the CLI's `start`).
const OWN_RULE: &str = "/.ai/local/";

/// One line for each ignore source the repository does not hold that has a
/// rule: its name and the blob id of its rules.
pub(super) fn context(repo: &Repo, tree: &WorkingTree, matcher: &Matcher) -> Reading<Vec<String>> {
    let mut lines = Vec::new();
    let exclude = repo.common_dir().join("info").join("exclude");
    if let Some(id) = rules_id(&exclude)? {
        lines.push(format!("ignore info/exclude {id}"));
    }
    if let Some(path) = excludes_file(repo) {
        if let Some(id) = rules_id(&path)? {
            lines.push(format!("ignore core.excludesFile {} {id}", path.display()));
        }
    }
    let changed = tree.dirty.iter().filter(|d| !d.deleted).map(|d| &d.path).chain(&tree.untracked);
    let mut gitignores: Vec<&RepoPath> = changed
        .filter(|p| p.as_bytes().rsplit(|b| *b == b'/').next() == Some(b".gitignore") && !matcher.is_match_path(p))
        .collect();
    gitignores.sort();
    for path in gitignores {
        if let Some(id) = content_id(repo, path) {
            lines.push(format!("ignore {path} {id}"));
        }
    }
    Ok(lines)
}

/// The blob id of the rules in the file at `path` (its lines that are
/// neither blank nor comments, but majordomus's own), `None` when it holds
/// none or is not there.
fn rules_id(path: &std::path::Path) -> Reading<Option<String>> {
    let bytes = match crate::file::read(path) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(Unread::io(format!("the ignore rules in {}: {e}", path.display()))),
    };
    let rules: Vec<&[u8]> = bytes
        .split(|b| *b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.trim_ascii().is_empty() && !l.starts_with(b"#") && l.trim_ascii() != OWN_RULE.as_bytes())
        .collect();
    if rules.is_empty() {
        return Ok(None);
    }
    Oid::hash_object(ObjectType::Blob, &rules.join(&b'\n'))
        .map(|o| Some(o.to_string()))
        .map_err(|e| Unread::git("the hash of the ignore rules", &e))
}

/// The file `core.excludesFile` names, or git's default for it
/// (`$XDG_CONFIG_HOME/git/ignore`, else `$HOME/.config/git/ignore`).
fn excludes_file(repo: &Repo) -> Option<std::path::PathBuf> {
    let config = repo.git.config().ok()?;
    match config.get_path("core.excludesfile") {
        Ok(p) if p.is_relative() => Some(repo.root().join(p)),
        Ok(p) => Some(p),
        Err(_) => {
            let xdg = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty());
            let base = match xdg {
                Some(x) => std::path::PathBuf::from(x),
                None => std::path::PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?).join(".config"),
            };
            Some(base.join("git").join("ignore"))
        }
    }
}
