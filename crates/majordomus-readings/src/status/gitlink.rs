//! A submodule's entry against its working tree, as `git status` judges
//! it: gone when nothing is at its path, clean when its directory holds no
//! repository (not checked out), modified when the repository's HEAD is not
//! the recorded commit or (unless `submodule.<name>.ignore` or
//! `diff.ignoreSubmodules` says otherwise) its own working tree has changes
//! or untracked files. git asks the last of another `git status` run in the
//! submodule; this reading reads the submodule as it reads any repository.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;

use super::nested::head_of;
use super::stat::Found;
use super::tree::WorkingTree;
use crate::index_file::Entry;
use crate::{Reading, Repo};

/// The prefix under which a reading's record keeps the `ignore` settings
/// `.gitmodules` held (`gitmodules.submodule.NAME.ignore`), beside the
/// configuration's own keys.
pub(super) const GITMODULES: &str = "gitmodules.";

/// The `submodule.<name>.ignore` settings `.gitmodules` holds now in
/// `repo`'s working tree, keyed with [`GITMODULES`] in front.
pub(super) fn gitmodules_ignores(repo: &Repo) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(modules) = git2::Config::open(&repo.root().join(".gitmodules")) else { return out };
    if let Ok(entries) = modules.entries(Some(r"^submodule\..*\.ignore$")) {
        let _ = entries.for_each(|e| {
            if let (Some(name), Some(value)) = (e.name(), e.value()) {
                out.insert(format!("{GITMODULES}{name}"), value.to_string());
            }
        });
    }
    out
}

/// How much of a submodule's state counts, from its `ignore` setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ignore {
    None,
    Untracked,
    Dirty,
    All,
}

/// What a gitlink entry's comparison found, and whether a change found is
/// only in the submodule's own working tree (its HEAD is the recorded
/// commit): a commit in the superproject cannot take that change, the
/// submodule's own commit comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Compared {
    pub found: Found,
    pub inside: bool,
}

/// A gitlink entry of `repo` against what is at its path; `read` reads the
/// submodule's own working tree. `given`: the `submodule.<name>.ignore`
/// and `diff.ignoreSubmodules` values to obey instead of `config`'s (those
/// a task's start had: `status/since.rs`).
pub(super) fn compare(
    repo: &Repo,
    e: &Entry,
    path: &[u8],
    config: &git2::Config,
    given: Option<&BTreeMap<String, String>>,
    read: impl Fn(&Repo) -> Reading<WorkingTree>,
) -> Compared {
    let at = |found| Compared { found, inside: false };
    let rel = String::from_utf8_lossy(path).into_owned();
    let dir = repo.root().join(std::ffi::OsStr::from_bytes(path));
    let Ok(meta) = std::fs::symlink_metadata(&dir) else { return at(Found::Deleted) };
    if !meta.is_dir() {
        return at(Found::Modified);
    }
    let Some(head) = head_of(&dir) else {
        // No repository there: not checked out, an empty directory, clean
        // to git. A `.git` there whose repository cannot be opened (its git
        // directory removed: `rm -rf .git/modules/lib`) is no such thing:
        // git stops on it (`fatal: not a git repository`); nor is a
        // directory holding files but no repository (`rm lib/.git`, or
        // files written into a submodule never checked out), whose files
        // git shows nowhere. Neither is clean (test/cases/440): stricter
        // than git, which reads the last as not checked out.
        let broken = std::fs::symlink_metadata(dir.join(".git")).is_ok();
        let holds = std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_some());
        return at(if broken || holds { Found::Modified } else { Found::Clean });
    };
    if head != e.id {
        return at(Found::Modified);
    }
    let ignore = ignore_setting(repo, config, given, &rel);
    if matches!(ignore, Ignore::All | Ignore::Dirty) {
        return at(Found::Clean);
    }
    let Ok(inner) = crate::open(&dir).map(crate::Repo::inside_another) else { return at(Found::Ask) };
    match read(&inner) {
        Ok(tree) => {
            let untracked = ignore == Ignore::None && !tree.untracked.is_empty();
            if tree.dirty.is_empty() && tree.conflicted.is_empty() && !untracked {
                at(Found::Clean)
            } else {
                Compared { found: Found::Modified, inside: true }
            }
        }
        Err(_) => at(Found::Ask),
    }
}

/// `submodule.<name>.ignore` from the configuration, else from
/// `.gitmodules`, else `diff.ignoreSubmodules`, else none. With `given`
/// (a task's start), the `.gitmodules` value obeyed is the one the start
/// read there ([`GITMODULES`]-prefixed keys), not the file's now: a line
/// the task wrote into it and committed hides nothing
/// (test/cases/281).
fn ignore_setting(repo: &Repo, config: &git2::Config, given: Option<&BTreeMap<String, String>>, path: &str) -> Ignore {
    let parse = |v: &str| match v {
        "all" => Some(Ignore::All),
        "dirty" => Some(Ignore::Dirty),
        "untracked" => Some(Ignore::Untracked),
        "none" => Some(Ignore::None),
        _ => None,
    };
    let modules = git2::Config::open(&repo.root().join(".gitmodules")).ok();
    let name = modules.as_ref().and_then(|m| {
        let entries = m.entries(Some(r"^submodule\..*\.path$")).ok()?;
        let mut found = None;
        entries
            .for_each(|entry| {
                if entry.value() == Some(path) {
                    found = entry
                        .name()
                        .and_then(|n| n.strip_prefix("submodule.")?.strip_suffix(".path"))
                        .map(String::from);
                }
            })
            .ok()?;
        found
    });
    let key = name.map(|n| format!("submodule.{n}.ignore"));
    let from = |c: &git2::Config| key.as_deref().and_then(|k| c.get_string(k).ok()).and_then(|v| parse(&v));
    let from_modules = || match given {
        Some(values) => key.as_deref().and_then(|k| values.get(&format!("{GITMODULES}{k}"))).and_then(|v| parse(v)),
        None => modules.as_ref().and_then(from),
    };
    let configured = |k: &str| match given {
        Some(values) => values.get(k).cloned(),
        None => config.get_string(k).ok(),
    };
    key.as_deref()
        .and_then(configured)
        .and_then(|v| parse(&v))
        .or_else(from_modules)
        .or_else(|| configured("diff.ignoresubmodules").and_then(|v| parse(&v)))
        .unwrap_or(Ignore::None)
}
