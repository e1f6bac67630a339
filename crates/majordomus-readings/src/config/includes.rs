//! git's conditional includes, followed as git follows them.
//!
//! libgit2 follows `includeIf` otherwise than git does: it knows no
//! `hasconfig:remote.*.url:` condition (git 2.36), so it follows none; it
//! matches `gitdir:` against the git directory's real path only, where git
//! also matches the path as the repository was reached (through a symbolic
//! link, `~/work -> /data/work`); and it follows no condition at all in a
//! file added without the repository (the files `GIT_CONFIG_GLOBAL` and
//! `GIT_CONFIG_SYSTEM` name, [`super::as_git_reads`]). So where the
//! configuration holds a conditional include, its entries are read again as
//! git reads them: an include git follows and libgit2 did not is read and
//! put in its place, and the entries of one libgit2 followed and git does
//! not are taken out. libgit2 lists an included file's entries right after
//! the include, one level deeper, which is how both are found.
//!
//! The list so made is the configuration the readings that go through
//! [`super::Config`] read (remotes, URL rewrites, `user.email`). libgit2's
//! own readings (the status, the ignore rules) still read its own list:
//! [`unlike`] names a key where the two differ.

use std::path::{Path, PathBuf};

use git2::ConfigLevel;

use super::Entry;
use crate::ignore::wildmatch;

/// An entry as libgit2 lists it, with how deep in includes it was read.
pub(super) struct Listed {
    pub entry: Entry,
    pub depth: u32,
}

/// An include git and libgit2 follow differently: its condition as
/// written in the key (`includeif.hasconfig:remote.*.url:**.path`) and the
/// file it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Differing {
    pub key: String,
    pub path: String,
    /// Why libgit2 follows it otherwise.
    pub why: &'static str,
    /// The keys the file sets (with its own includes), that one list
    /// holds and the other does not.
    pub keys: Vec<String>,
}

/// git's limit on nested includes (`MAX_INCLUDE_DEPTH`).
const MAX_DEPTH: usize = 10;

/// What git's conditions are evaluated against.
struct Context {
    /// The git directory's real path: where git matches `gitdir:` first.
    real_git_dir: String,
    /// The git directory as reached, where it differs from its real path:
    /// git is started at the top of the working tree, whose path `$PWD`
    /// names through a symbolic link (git's `strbuf_add_absolute_path`).
    reached_git_dir: Option<String>,
    /// The branch HEAD names, for `onbranch:`.
    branch: Option<String>,
    /// Every `remote.<name>.url` git reads, for `hasconfig:remote.*.url:`;
    /// `None` while they are collected, when git follows every such
    /// include (its `unconditional_remote_url`).
    urls: Option<Vec<String>>,
}

/// The configuration as git reads it, from libgit2's list, with the
/// includes the two follow differently.
pub(super) fn as_git(git: &git2::Repository, listed: &[Listed]) -> (Vec<Entry>, Vec<Differing>) {
    let mut cx = Context::of(git);
    let (collected, _) = levels(git, listed, &cx);
    cx.urls = Some(
        collected
            .iter()
            .filter(|e| e.name.starts_with("remote.") && e.name.ends_with(".url"))
            .filter_map(|e| e.value.clone())
            .collect(),
    );
    levels(git, listed, &cx)
}

/// The first key whose value in force git and libgit2 read differently,
/// among the keys libgit2's own readings may obey, said as a reason with
/// its remedy; `None` where they agree on every such key.
pub(super) fn unlike(libgit2: &[Entry], git: &[Entry], differing: &[Differing]) -> Option<String> {
    let mut keys: Vec<&str> = libgit2.iter().chain(git).map(|e| e.name.as_str()).filter(|k| obeyed(k)).collect();
    keys.sort_unstable();
    keys.dedup();
    let in_force = |list: &[Entry], key: &str| list.iter().rev().find(|e| e.name == key).map(|e| e.value.clone());
    let key = keys.into_iter().find(|k| in_force(libgit2, k) != in_force(git, k))?;
    let said = |v: Option<Option<String>>| match v {
        None => "unset".to_string(),
        Some(None) => "set without a value".to_string(),
        Some(Some(v)) => format!("`{v}`"),
    };
    let includes: Vec<String> = differing
        .iter()
        .filter(|d| d.keys.iter().any(|k| k == key))
        .map(|d| {
            let condition = d.key.strip_prefix("includeif.").and_then(|k| k.strip_suffix(".path")).unwrap_or(&d.key);
            format!("`[includeIf \"{condition}\"] path = {}` ({})", d.path, d.why)
        })
        .collect();
    Some(format!(
        "git reads `{key}` as {} through {}, where libgit2, which reads the working tree here, reads it as {}: \
         the working tree cannot be read as git reads it; set `{key}` where both read it alike (without a \
         condition, or `gitdir:` on the real path) or take the include away",
        said(in_force(git, key)),
        includes.join(" and "),
        said(in_force(libgit2, key)),
    ))
}

/// Whether libgit2's readings of the working tree may obey `key`: any
/// key outside the sections known to set nothing they read (who commits,
/// the remotes and branches majordomus reads from its own list, commands'
/// own settings).
fn obeyed(key: &str) -> bool {
    const NOT_READ: [&str; 27] = [
        "user",
        "author",
        "committer",
        "remote",
        "url",
        "branch",
        "push",
        "pull",
        "fetch",
        "alias",
        "color",
        "commit",
        "gpg",
        "credential",
        "http",
        "init",
        "merge",
        "rebase",
        "tag",
        "log",
        "format",
        "help",
        "pager",
        "include",
        "includeif",
        "gc",
        "maintenance",
    ];
    let section = key.split('.').next().unwrap_or(key);
    !NOT_READ.contains(&section)
}

/// Every level's entries, each level's includes followed as git follows
/// them, and the includes followed differently.
fn levels(git: &git2::Repository, listed: &[Listed], cx: &Context) -> (Vec<Entry>, Vec<Differing>) {
    let mut out = Vec::new();
    let mut differing = Vec::new();
    let mut rest = listed;
    while let Some(first) = rest.first() {
        let level = first.entry.level;
        let end = rest.iter().position(|l| l.entry.level != level).unwrap_or(rest.len());
        walk(&rest[..end], level_file(git, level), level, cx, 0, &mut out, &mut differing);
        rest = &rest[end..];
    }
    (out, differing)
}

/// The entries of one file as libgit2 listed them (its includes' entries
/// among them, deeper), into `out` as git reads them.
fn walk(
    items: &[Listed],
    file: Option<PathBuf>,
    level: ConfigLevel,
    cx: &Context,
    nesting: usize,
    out: &mut Vec<Entry>,
    differing: &mut Vec<Differing>,
) {
    // The file each depth's entries were read from.
    let mut origins: Vec<Option<PathBuf>> = vec![file];
    let mut i = 0;
    while i < items.len() {
        let item = &items[i];
        let depth = item.depth as usize;
        origins.resize(depth + 1, None);
        out.push(Entry { level, ..item.entry.clone() });
        i += 1;
        let from = origins[depth].clone();
        let path = item.entry.value.as_deref().and_then(|v| included(from.as_deref(), v));
        let Some(condition) = condition(&item.entry.name) else {
            if item.entry.name == "include.path" {
                origins.push(path);
            }
            continue;
        };
        let libgit2_follows = items.get(i).is_some_and(|next| next.depth > item.depth);
        let git_follows = cx.follows(condition, from.as_deref());
        let named =
            path.as_ref().map_or_else(|| item.entry.value.clone().unwrap_or_default(), |p| p.display().to_string());
        let keys = match (libgit2_follows, git_follows) {
            (true, true) => {
                origins.push(path);
                continue;
            }
            (false, false) => continue,
            (true, false) => {
                let from = i;
                while items.get(i).is_some_and(|next| next.depth > item.depth) {
                    i += 1;
                }
                items[from..i].iter().map(|l| l.entry.name.clone()).collect()
            }
            (false, true) => {
                let from = out.len();
                if let Some(path) = path.filter(|_| depth + nesting + 1 < MAX_DEPTH) {
                    walk(&read_file(&path), Some(path), level, cx, nesting + depth + 1, out, differing);
                }
                out[from..].iter().map(|e| e.name.clone()).collect()
            }
        };
        differing.push(Differing {
            key: item.entry.name.clone(),
            path: named,
            why: why_otherwise(condition, level),
            keys,
        });
    }
}

/// The entries of one file as libgit2 lists it alone: its plain includes
/// followed, no conditional one (it has no repository), each followed
/// by [`walk`] as git follows it. A file that cannot be read holds
/// nothing, as git reads a missing include.
fn read_file(path: &Path) -> Vec<Listed> {
    let Ok(config) = git2::Config::open(path) else { return Vec::new() };
    let Ok(mut all) = config.entries(None) else { return Vec::new() };
    let mut listed = Vec::new();
    while let Some(Ok(entry)) = all.next() {
        let Some(name) = entry.name() else { continue };
        listed.push(Listed { entry: Entry::of(entry, name), depth: entry.include_depth() });
    }
    listed
}

/// Why libgit2 follows an include under `condition` read at `level`
/// otherwise than git.
fn why_otherwise(condition: &str, level: ConfigLevel) -> &'static str {
    let without_repository = match level {
        ConfigLevel::Global | ConfigLevel::XDG => std::env::var_os("GIT_CONFIG_GLOBAL").is_some(),
        ConfigLevel::System => std::env::var_os("GIT_CONFIG_SYSTEM").is_some(),
        _ => false,
    };
    if condition.starts_with("hasconfig:") {
        "libgit2 does not evaluate `hasconfig:`"
    } else if without_repository {
        "libgit2 follows no condition in the file GIT_CONFIG_GLOBAL or GIT_CONFIG_SYSTEM names"
    } else if condition.starts_with("gitdir") {
        "libgit2 matches `gitdir:` against the real path only, git also against the path as reached"
    } else {
        "libgit2 evaluates the condition otherwise"
    }
}

/// The condition of an `includeIf.<condition>.path` key.
fn condition(name: &str) -> Option<&str> {
    name.strip_prefix("includeif.")?.strip_suffix(".path")
}

/// The file an include names, as git and libgit2 resolve it: `~/` from
/// the home directory, a relative path from the including file's directory.
fn included(from: Option<&Path>, value: &str) -> Option<PathBuf> {
    let value = home_expanded(value);
    let path = Path::new(&value);
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    Some(from?.parent()?.join(path))
}

/// `~` and `~/...` with the home directory (git's `interpolate_path`).
fn home_expanded(value: &str) -> String {
    let home = || std::env::var("HOME").unwrap_or_default();
    if value == "~" {
        home()
    } else if let Some(rest) = value.strip_prefix("~/") {
        format!("{}/{rest}", home().trim_end_matches('/'))
    } else {
        value.to_string()
    }
}

/// The file a level's entries are read from, where one is known: the
/// repository's own, the user's and the system's as git finds them under
/// the environment ([`super::as_git_reads`]).
fn level_file(git: &git2::Repository, level: ConfigLevel) -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    match level {
        ConfigLevel::Local => Some(git.commondir().join("config")),
        ConfigLevel::Worktree => Some(git.path().join("config.worktree")),
        ConfigLevel::Global => var("GIT_CONFIG_GLOBAL").or_else(|| git2::Config::find_global().ok()),
        ConfigLevel::XDG if std::env::var_os("GIT_CONFIG_GLOBAL").is_none() => git2::Config::find_xdg().ok(),
        ConfigLevel::System => var("GIT_CONFIG_SYSTEM").or_else(|| git2::Config::find_system().ok()),
        _ => None,
    }
}

impl Context {
    fn of(git: &git2::Repository) -> Context {
        let real = git.path().canonicalize().unwrap_or_else(|_| git.path().to_path_buf());
        let real_git_dir = real.to_string_lossy().trim_end_matches('/').to_string();
        let reached_git_dir = reached_git_dir(git).filter(|r| *r != real_git_dir);
        // Read without blocking, as every git file here is (`crate::file`).
        let head = crate::file::read(&git.path().join("HEAD"))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let branch = head.trim_end().strip_prefix("ref: refs/heads/").map(str::to_string);
        Context { real_git_dir, reached_git_dir, branch, urls: None }
    }

    /// Whether git follows an include under `condition`, written in `from`.
    fn follows(&self, condition: &str, from: Option<&Path>) -> bool {
        if let Some(pattern) = condition.strip_prefix("gitdir:") {
            self.gitdir(pattern, from, false)
        } else if let Some(pattern) = condition.strip_prefix("gitdir/i:") {
            self.gitdir(pattern, from, true)
        } else if let Some(pattern) = condition.strip_prefix("onbranch:") {
            let mut pattern = pattern.to_string();
            if pattern.ends_with('/') {
                pattern.push_str("**");
            }
            self.branch.as_deref().is_some_and(|b| wildmatch::matches(pattern.as_bytes(), b.as_bytes(), true, false))
        } else if let Some(glob) = condition.strip_prefix("hasconfig:remote.*.url:") {
            match &self.urls {
                None => true,
                Some(urls) => urls.iter().any(|u| wildmatch::matches(glob.as_bytes(), u.as_bytes(), true, false)),
            }
        } else {
            false
        }
    }

    /// git's `include_by_gitdir`: the pattern (`~/` expanded, `./` from the
    /// including file's real directory, a relative one under `**/`, one
    /// ending in `/` taking everything beneath) matched against the git
    /// directory's real path, then against the path as reached.
    fn gitdir(&self, pattern: &str, from: Option<&Path>, icase: bool) -> bool {
        let mut pattern = home_expanded(pattern);
        let mut prefix = 0;
        if let Some(rest) = pattern.strip_prefix("./") {
            let Some(dir) = from.and_then(|f| f.canonicalize().ok()).and_then(|f| f.parent().map(Path::to_path_buf))
            else {
                return false;
            };
            let dir = dir.to_string_lossy().trim_end_matches('/').to_string();
            prefix = dir.len() + 1;
            pattern = format!("{dir}/{rest}");
        } else if !pattern.starts_with('/') {
            pattern = format!("**/{pattern}");
        }
        if pattern.ends_with('/') {
            pattern.push_str("**");
        }
        let matches = |text: &str| {
            let (p, t) = (pattern.as_bytes(), text.as_bytes());
            if t.len() < prefix {
                return false;
            }
            let same = if icase { p[..prefix].eq_ignore_ascii_case(&t[..prefix]) } else { p[..prefix] == t[..prefix] };
            same && wildmatch::matches(&p[prefix..], &t[prefix..], true, icase)
        };
        std::iter::once(&self.real_git_dir).chain(&self.reached_git_dir).any(|text| matches(text))
    }
}

/// The git directory as git reaches it when started at the top of the
/// working tree through a symbolic link: `$PWD/.git`, where `$PWD` names
/// the working directory (the same file) by another path and the git
/// directory is the `.git` directory there. Started anywhere else, git
/// reads the real path, as libgit2 does.
fn reached_git_dir(git: &git2::Repository) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let pwd = PathBuf::from(std::env::var_os("PWD")?);
    let cwd = std::env::current_dir().ok()?;
    let (a, b) = (std::fs::metadata(&pwd).ok()?, std::fs::metadata(&cwd).ok()?);
    if pwd == cwd || a.dev() != b.dev() || a.ino() != b.ino() {
        return None;
    }
    let top = git.workdir()?.canonicalize().ok()?;
    let dot_git = cwd.join(".git");
    let is_dir = std::fs::symlink_metadata(&dot_git).is_ok_and(|m| m.is_dir());
    if top != cwd.canonicalize().ok()? || !is_dir || dot_git.canonicalize().ok()? != git.path().canonicalize().ok()? {
        return None;
    }
    Some(format!("{}/.git", pwd.to_string_lossy().trim_end_matches('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx() -> Context {
        Context {
            real_git_dir: "/data/work/repo/.git".into(),
            reached_git_dir: Some("/home/u/work/repo/.git".into()),
            branch: Some("topic/a".into()),
            urls: Some(vec!["https://example.com/team/repo.git".into()]),
        }
    }

    #[test]
    fn conditions_read_as_git_reads_them() {
        let cx = cx();
        assert!(cx.follows("gitdir:/data/work/", None));
        assert!(cx.follows("gitdir:/home/u/work/", None), "the path as reached");
        assert!(cx.follows("gitdir:repo/", None), "a relative pattern under **/");
        assert!(!cx.follows("gitdir:/home/u/other/", None));
        assert!(cx.follows("gitdir/i:/HOME/U/WORK/", None));
        assert!(!cx.follows("gitdir:/HOME/U/WORK/", None));
        assert!(cx.follows("onbranch:topic/", None));
        assert!(!cx.follows("onbranch:topic", None));
        assert!(cx.follows("hasconfig:remote.*.url:https://example.com/**", None));
        assert!(!cx.follows("hasconfig:remote.*.url:https://example.com/*", None), "* stops at a slash");
        assert!(!cx.follows("hasconfig:remote.*.url:https://other.org/**", None));
        assert!(!cx.follows("hasconfig:user.email:x", None), "no other hasconfig condition");
        let collecting = Context { urls: None, ..cx };
        assert!(collecting.follows("hasconfig:remote.*.url:https://other.org/**", None));
    }

    #[test]
    fn a_key_no_reading_obeys_is_no_difference() {
        let entry = |name: &str, value: &str| Entry {
            name: name.into(),
            value: Some(value.into()),
            valueless: false,
            level: ConfigLevel::Local,
        };
        let differing = [Differing {
            key: "includeif.hasconfig:remote.*.url:**.path".into(),
            path: "/h".into(),
            why: "libgit2 does not evaluate `hasconfig:`",
            keys: vec!["core.filemode".into()],
        }];
        let libgit2 = [entry("core.filemode", "false")];
        let email = [entry("core.filemode", "false"), entry("user.email", "a@b")];
        assert_eq!(unlike(&libgit2, &email, &differing), None);
        let again = [entry("core.filemode", "false"), entry("core.filemode", "false")];
        assert_eq!(unlike(&libgit2, &again, &differing), None, "the same value in force");
        let mode = [entry("core.filemode", "false"), entry("core.filemode", "true")];
        let why = unlike(&libgit2, &mode, &differing).expect("differs");
        assert!(why.contains("`core.filemode` as `true`") && why.contains("hasconfig:remote.*.url:**"), "{why}");
    }
}
