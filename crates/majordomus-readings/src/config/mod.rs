//! The repository's configuration, read once per command.
//!
//! Every libgit2 configuration snapshot copies the whole configuration,
//! and so does every iteration over one (`entries`, a multivar, the URL
//! rewrites a remote lookup applies). A repository whose branches track
//! remotes holds two entries per branch: at a thousand such branches a
//! check took five times what it took without them, nearly all of it in
//! those copies (bench/README.md). So the readings that look through the
//! configuration (the branches' upstreams, the remotes, their URLs and
//! refspecs) take it from here: one snapshot, one pass over it, shared by
//! every handle [`crate::Repo::reopen`] makes.

mod includes;

use std::path::{Path, PathBuf};

use git2::ConfigLevel;

use crate::{Reading, Unread};

/// One configuration entry, named as libgit2 names it: the section and the
/// key lower-cased, a subsection as written (`branch.Feature.remote`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    /// `None`: a key set without a value (`[core] bare`), or a value that
    /// is not UTF-8.
    pub value: Option<String>,
    /// A key written without `=` (`[pull]` then `rebase`), which git reads
    /// as a boolean true and, used as a string, as a missing value.
    pub valueless: bool,
    pub level: ConfigLevel,
}

impl Entry {
    /// The entry libgit2 lists as `entry`, named `name`. A key written
    /// without `=` has no value at all, and git2's `ConfigEntry::value`
    /// panics on one (every command crashed where the user's `~/.gitconfig`
    /// held one, test/cases/531): whether there is a value is asked first.
    pub(crate) fn of(entry: &git2::ConfigEntry<'_>, name: &str) -> Entry {
        let valueless = !entry.has_value();
        let value = if valueless { None } else { entry.value().map(str::to_string) };
        Entry { name: name.to_string(), value, valueless, level: entry.level() }
    }

    /// The entry's value read as a boolean, as git reads one: a key without
    /// a value is true; `None` where the value is no boolean.
    pub fn boolean(&self) -> Option<bool> {
        if self.valueless {
            return Some(true);
        }
        git2::Config::parse_bool(self.value.as_deref()?).ok()
    }
}

/// The value in force for `name` in `config`, for a key git reads as a
/// boolean or a word (`core.autocrlf`, `core.ignoreCase`): a key written
/// without `=` is `true` there, where libgit2's `get_string` reads it as
/// the empty string, which git reads as false. Costs the one lookup
/// `get_string` made.
pub fn setting(config: &git2::Config, name: &str) -> Option<String> {
    let entry = config.get_entry(name).ok()?;
    if !entry.has_value() {
        return Some("true".to_string());
    }
    entry.value().map(str::to_string)
}

/// Every entry of every configuration file git reads for the repository,
/// in the order git reads them (the system's, the user's, the
/// repository's, a worktree's): of two values of one key, the later is
/// the one in force. Conditional includes are followed as git follows
/// them (`includes.rs`), where libgit2 follows some otherwise.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    entries: Vec<Entry>,
    /// Where libgit2, which reads the working tree (the status, the ignore
    /// rules), reads a key otherwise than git through such an include:
    /// the reason, naming the key and the include.
    unlike_git: Option<String>,
}

/// Makes `git`'s configuration the files git reads under the environment
/// it runs in: `GIT_CONFIG_GLOBAL` for the user's file (and no XDG file
/// beside it), `GIT_CONFIG_SYSTEM` for the system's, none where
/// `GIT_CONFIG_NOSYSTEM` is true. libgit2 reads these variables only for a
/// repository opened from the environment (`GIT_DIR` and the rest), which
/// majordomus does not do; read otherwise, a user file git no longer reads
/// (`~/.gitconfig` beside a `GIT_CONFIG_GLOBAL` naming another) would hide
/// files from `no-untracked` that `git status` shows, and one git reads
/// would set a push URL `pushed` never saw. Every repository majordomus
/// opens is passed through here. libgit2 follows no conditional include
/// in such a file (it is given no repository, and git2 offers no way to
/// give it one); [`Config::read`] follows them as git does, and says
/// where the working tree's reading cannot (`includes.rs`).
pub fn as_git_reads(git: &git2::Repository) {
    let global = std::env::var_os("GIT_CONFIG_GLOBAL");
    let system = std::env::var_os("GIT_CONFIG_SYSTEM");
    let no_system = std::env::var("GIT_CONFIG_NOSYSTEM").is_ok_and(|v| git_true(&v));
    if global.is_none() && system.is_none() && !no_system {
        return;
    }
    let Ok(mut config) = git.config() else { return };
    // A file that is not there reads as empty, as git reads one.
    let none = Path::new("/nonexistent/majordomus/no-configuration-here");
    let file = |value: &std::ffi::OsStr| if value.is_empty() { none.to_path_buf() } else { PathBuf::from(value) };
    if let Some(global) = &global {
        let _ = config.add_file(&file(global), git2::ConfigLevel::Global, true);
        let _ = config.add_file(none, git2::ConfigLevel::XDG, true);
    }
    if no_system {
        let _ = config.add_file(none, git2::ConfigLevel::System, true);
    } else if let Some(system) = &system {
        let _ = config.add_file(&file(system), git2::ConfigLevel::System, true);
    }
}

/// A boolean as git reads one from the environment.
fn git_true(value: &str) -> bool {
    let value = value.trim().to_ascii_lowercase();
    matches!(value.as_str(), "true" | "yes" | "on") || value.parse::<i64>().is_ok_and(|n| n != 0)
}

impl Config {
    /// The configuration of `git`, in one pass. No snapshot is taken
    /// first: iterating copies each file's entries as they are (libgit2
    /// reads a file again when it changed), which is what a snapshot
    /// would copy, and a snapshot's iteration copies them once more.
    ///
    /// Where it holds a conditional include (`includeIf`), the entries are
    /// those git reads ([`includes::as_git`]), and a key libgit2's own
    /// readings may obey that libgit2 reads otherwise is kept as the
    /// reason the working tree cannot be read as git reads it
    /// ([`Config::unlike_git`]).
    pub fn read(git: &git2::Repository) -> Reading<Config> {
        let unread = |e: git2::Error| Unread::git("the repository's configuration", &e);
        let config = git.config().map_err(unread)?;
        // The entries, and apart from them how deep in includes each was
        // read: only a configuration with a conditional include needs the
        // depths, and the entries are not copied for it otherwise (a
        // thousand branches that track a remote are three thousand).
        let (mut entries, mut depths) = (Vec::new(), Vec::new());
        let mut all = config.entries(None).map_err(unread)?;
        while let Some(entry) = all.next() {
            let entry = entry.map_err(unread)?;
            let Some(name) = entry.name() else { continue };
            entries.push(Entry::of(entry, name));
            depths.push(entry.include_depth());
        }
        if !entries.iter().any(|e| e.name.starts_with("includeif.")) {
            return Ok(Config { entries, unlike_git: None });
        }
        let listed: Vec<includes::Listed> =
            entries.iter().zip(depths).map(|(entry, depth)| includes::Listed { entry: entry.clone(), depth }).collect();
        let (as_git, differing) = includes::as_git(git, &listed);
        let unlike_git = if differing.is_empty() { None } else { includes::unlike(&entries, &as_git, &differing) };
        Ok(Config { entries: as_git, unlike_git })
    }

    /// Why the working tree cannot be read as git reads it, where a
    /// conditional include git and libgit2 follow differently sets a key
    /// libgit2's readings may obey (`core.fileMode`, `core.excludesFile`)
    /// to another value than libgit2 reads: `committed` and `no-untracked`
    /// answer `unknown` with it.
    pub fn unlike_git(&self) -> Option<&str> {
        self.unlike_git.as_deref()
    }

    /// Every entry, in the order git reads them.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }

    /// The value in force for `name` (its last), where it has one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.entries.iter().rev().find(|e| e.name == name).and_then(|e| e.value.as_deref())
    }

    /// Whether `name` is set at all (with a value or without).
    pub fn is_set(&self, name: &str) -> bool {
        self.entries.iter().any(|e| e.name == name)
    }

    /// Every value of the multi-valued `name`, in order.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries.iter().filter(move |e| e.name == name).filter_map(|e| e.value.as_deref())
    }

    /// The entries `section.<subsection>.key` with their subsection, for
    /// the lower-cased `section` and `key` given (`branch`, `remote`).
    pub fn subsections<'a>(
        &'a self,
        section: &'a str,
        key: &'a str,
    ) -> impl Iterator<Item = (&'a str, &'a Entry)> + 'a {
        self.entries.iter().filter_map(move |e| {
            let rest = e.name.strip_prefix(section)?.strip_prefix('.')?;
            let (middle, last) = rest.rsplit_once('.')?;
            (last == key).then_some((middle, e))
        })
    }

    /// The configured remotes' names, sorted, each once: a remote is a
    /// `remote.<name>.url` or `remote.<name>.pushurl` set (as libgit2's
    /// `git_remote_list` takes them).
    pub fn remote_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .subsections("remote", "url")
            .chain(self.subsections("remote", "pushurl"))
            .map(|(name, _)| name.to_string())
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Whether the remote `name` exists (see [`Config::remote_names`]).
    pub fn has_remote(&self, name: &str) -> bool {
        self.is_set(&format!("remote.{name}.url")) || self.is_set(&format!("remote.{name}.pushurl"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn reads_what_libgit2_reads_key_by_key() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["config", "branch.Feature.remote", "origin"]);
        t.git(&["config", "--add", "remote.origin.fetch", "+refs/tags/*:refs/tags/*"]);
        t.git(&["config", "remote.Other.pushurl", "/nowhere"]);
        t.git(&["config", "remote.dup.url", "/a"]);
        t.git(&["config", "--add", "remote.dup.url", "/b"]);
        let git = git2::Repository::open(t.path()).expect("open");
        let config = Config::read(&git).expect("config");
        let snapshot = git.config().and_then(|mut c| c.snapshot()).expect("snapshot");
        for key in ["branch.Feature.remote", "remote.origin.url", "remote.dup.url", "core.bare", "no.such.key"] {
            assert_eq!(config.get(key), snapshot.get_string(key).ok().as_deref(), "{key}");
        }
        let mut fetch = Vec::new();
        let mut multivar = snapshot.multivar("remote.origin.fetch", None).expect("multivar");
        while let Some(e) = multivar.next() {
            fetch.push(e.expect("entry").value().expect("value").to_string());
        }
        assert_eq!(config.all("remote.origin.fetch").collect::<Vec<_>>(), fetch);
        let listed: Vec<String> = git.remotes().expect("remotes").iter().flatten().map(str::to_string).collect();
        assert_eq!(config.remote_names(), listed);
        assert!(config.has_remote("Other") && !config.has_remote("other") && !config.has_remote("Feature"));
        assert_eq!(
            config.subsections("branch", "remote").map(|(b, e)| (b, e.value.as_deref())).collect::<Vec<_>>(),
            vec![("main", Some("origin")), ("Feature", Some("origin"))]
        );
    }

    #[test]
    fn a_key_without_a_value_is_read_as_git_reads_it_not_a_crash() {
        let t = TestRepo::with_commit();
        let path = t.path().join(".git/config");
        let mut text = std::fs::read_to_string(&path).expect("config");
        text.push_str("[pull]\n\trebase\n[core]\n\tautocrlf\n");
        std::fs::write(&path, text).expect("write");
        let git = git2::Repository::open(t.path()).expect("open");
        let config = Config::read(&git).expect("config");
        let rebase = config.entries().find(|e| e.name == "pull.rebase").expect("listed");
        assert!(rebase.valueless && rebase.value.is_none(), "{rebase:?}");
        assert_eq!(rebase.boolean(), Some(true));
        assert_eq!(config.get("pull.rebase"), None, "no string value");
        let live = git.config().expect("config");
        assert_eq!(setting(&live, "core.autocrlf").as_deref(), Some("true"));
        assert_eq!(setting(&live, "core.bare").as_deref(), Some("false"));
        assert_eq!(setting(&live, "no.such.key"), None);
    }
}
