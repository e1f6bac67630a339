//! Where the tasks a hook concerns are: every working tree the agent's
//! stop or session start may belong to.
//!
//! An agent does not always stand in the working tree where its task was
//! started. It makes a linked worktree inside the project (`.worktrees/x`),
//! works in a submodule, or `git init`s a scratch repository in a
//! subdirectory; the host's payload then names a `cwd` whose own repository
//! holds no task while the project's task is open. Stopping there must not
//! be a way out. So a hook looks at every place the stop may concern:
//!
//! - the payload's `cwd`, the directory the hook process runs in, and
//!   `CLAUDE_PROJECT_DIR` where the host sets it (or only `-C` when given);
//! - for each, the working tree holding it, the main worktree of a linked
//!   worktree (through the common git directory), and every repository
//!   enclosing it on the way up the file system (the superproject of a
//!   submodule, the project around a nested scratch repository or a linked
//!   worktree made inside it).
//!
//! Each working tree is named once, the one the agent stands in first; the
//! hook then answers for every one of them that holds an active task.

use std::path::{Path, PathBuf};

use majordomus_readings::{OpenError, Repo};

/// One working tree a hook concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The working tree's root, canonical.
    pub root: PathBuf,
    /// A directory the repository is found from, as git finds it: the root
    /// itself, unless the configuration puts the working tree elsewhere
    /// (`core.worktree`), where only the directory holding the git
    /// directory leads back to it.
    pub from: PathBuf,
    /// How it was reached, for the answer: `None` for the working tree the
    /// agent stands in (the first start directory's own), else a phrase
    /// such as "the main worktree of /x/.worktrees/a".
    pub how: Option<String>,
}

impl Place {
    /// How to name the place in an answer: `None` for where the agent works.
    pub fn named(&self) -> Option<String> {
        self.how.as_ref().map(|how| format!("{} ({how})", self.root.display()))
    }
}

/// The directories a hook starts from, most direct first.
#[derive(Debug, Default)]
pub struct Starts {
    /// `-C DIR`: when given, the only start.
    pub explicit: Option<PathBuf>,
    /// The payload's `cwd`.
    pub cwd: Option<PathBuf>,
    /// The directory the hook process runs in.
    pub process: Option<PathBuf>,
    /// `CLAUDE_PROJECT_DIR`, where set.
    pub project_dir: Option<PathBuf>,
}

impl Starts {
    /// The starts of a hook run now: the payload's `cwd`, the process's
    /// directory, `CLAUDE_PROJECT_DIR`.
    ///
    /// A directory deleted since the agent stood in it (`cd build; ...;
    /// rm -rf ../build`) is no start of its own: the nearest directory
    /// above it that still exists is (test/cases/433). The process's own
    /// directory, once deleted, is named by the shell's `PWD`.
    pub fn of_this_process(explicit: Option<&Path>, cwd: Option<&Path>) -> Self {
        let nonempty = |p: PathBuf| (!p.as_os_str().is_empty()).then_some(p);
        let process = std::env::current_dir()
            .ok()
            .or_else(|| std::env::var_os("PWD").map(PathBuf::from).and_then(nonempty).map(|p| existing(&p)));
        Self {
            explicit: explicit.map(Path::to_path_buf),
            cwd: cwd.map(Path::to_path_buf).and_then(nonempty).map(|p| existing(&p)),
            process,
            project_dir: std::env::var_os("CLAUDE_PROJECT_DIR").map(PathBuf::from).and_then(nonempty),
        }
    }

    /// The directory a Claude Code session reads its project's settings
    /// from: `CLAUDE_PROJECT_DIR`, which the host sets for its hooks (the
    /// directory the session was started in); else `-C`, the hook's own
    /// directory, the payload's `cwd`, the first there is.
    pub fn claude_project(&self) -> Option<PathBuf> {
        [&self.project_dir, &self.explicit, &self.process, &self.cwd].into_iter().find_map(Clone::clone)
    }

    fn list(&self) -> Vec<(&Path, &'static str)> {
        if let Some(dir) = &self.explicit {
            return vec![(dir, "-C")];
        }
        [
            (self.cwd.as_deref(), "the stop's cwd"),
            (self.process.as_deref(), "the hook's own directory"),
            (self.project_dir.as_deref(), "CLAUDE_PROJECT_DIR"),
        ]
        .into_iter()
        .filter_map(|(d, what)| d.map(|d| (d, what)))
        .collect()
    }
}

/// `dir`, or where it does not exist, the nearest directory above it that
/// does (`dir` itself where none does: nothing is found from it either).
fn existing(dir: &Path) -> PathBuf {
    dir.ancestors().find(|a| !a.as_os_str().is_empty() && a.is_dir()).unwrap_or(dir).to_path_buf()
}

/// The most enclosing repositories walked up through from one start: a
/// bound against a pathological tree, far above any real nesting.
const MAX_ENCLOSING: usize = 32;

/// Every working tree the starts concern, each once, the agent's own first.
pub fn places(starts: &Starts) -> Vec<Place> {
    places_opened(starts).into_iter().map(|l| l.place).collect()
}

/// A place, with the repository as opened from [`Place::from`] while it
/// was found, where that open was the one a command would make there.
#[derive(Debug)]
pub struct Located {
    pub place: Place,
    /// The repository `majordomus_readings::open(&place.from)` answers,
    /// kept from the walk so that a hook measuring the place does not open
    /// it once more (each open reads the configuration files and looks up
    /// the git directory anew). `None` when the walk opened it from another
    /// spelling of the directory, or could not open it: then the caller
    /// opens it from `place.from` itself.
    pub repo: Option<Repo>,
}

/// [`places`], each with the repository the walk opened for it.
pub fn places_opened(starts: &Starts) -> Vec<Located> {
    let mut out: Vec<Located> = Vec::new();
    // Each repository is walked from once: a configuration that leads in a
    // circle (a `core.worktree` naming a directory above or beside its own
    // git directory) ends the walk instead of repeating it.
    let mut seen: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mut add = |out: &mut Vec<Located>, tree: &mut Tree, how: Option<String>| -> bool {
        let key = (tree.root.clone(), tree.git_dir.clone());
        if seen.contains(&key) {
            return false;
        }
        seen.push(key);
        if !out.iter().any(|l| l.place.root == tree.root && l.place.from == tree.from) {
            let place = Place { root: tree.root.clone(), from: tree.from.clone(), how };
            out.push(Located { place, repo: tree.repo.take() });
        }
        true
    };
    let mut started: Vec<&Path> = Vec::new();
    for (n, (start, what)) in starts.list().into_iter().enumerate() {
        // A start equal to an earlier one leads where that one led, every
        // tree of it already seen: not opened again.
        if started.contains(&start) {
            continue;
        }
        started.push(start);
        let Some(mut own) = tree_of(start) else { continue };
        let own_how = if n == 0 { None } else { Some(format!("where {what} is")) };
        if !add(&mut out, &mut own, own_how) {
            continue;
        }
        let mut queue = vec![own];
        let mut walked = 0;
        while let Some(tree) = queue.pop() {
            if let Some(mut main) = tree.main_worktree().as_deref().and_then(tree_of) {
                if add(&mut out, &mut main, Some(format!("the main worktree of {}", tree.root.display()))) {
                    queue.push(main);
                }
            }
            if walked >= MAX_ENCLOSING {
                continue;
            }
            if let Some(mut up) = tree.from.parent().and_then(tree_of) {
                walked += 1;
                if add(&mut out, &mut up, Some(format!("the repository around {}", tree.root.display()))) {
                    queue.push(up);
                }
            }
        }
    }
    out
}

/// A working tree and its common git directory.
#[derive(Debug)]
struct Tree {
    root: PathBuf,
    /// The directory it was found from (see [`Place::from`]).
    from: PathBuf,
    git_dir: Option<PathBuf>,
    /// Canonical; `None` where it could not be made so (or not read).
    common_dir: Option<PathBuf>,
    /// The repository as opened from `from`, when it was (see [`Located::repo`]).
    repo: Option<Repo>,
}

impl Tree {
    /// The main worktree of a linked one: the directory holding the common
    /// git directory, when that is a `.git` (a bare repository's worktrees
    /// have no main one).
    fn main_worktree(&self) -> Option<PathBuf> {
        let common = self.common_dir.as_ref()?;
        if common.file_name()? != ".git" {
            return None;
        }
        let main = common.parent()?.to_path_buf();
        (main != self.root).then_some(main)
    }
}

/// The working tree holding `dir`, if any; one libgit2 cannot read (the
/// reftable format) is still a place, without a common directory.
fn tree_of(dir: &Path) -> Option<Tree> {
    match majordomus_readings::open(dir) {
        Ok(repo) => {
            let root = repo.root().to_path_buf();
            let canonical = repo.git_dir().canonicalize().ok();
            // Outside a linked worktree the common directory is the git
            // directory itself: made canonical once.
            let common_dir = if repo.common_dir() == repo.git_dir() {
                canonical.clone()
            } else {
                repo.common_dir().canonicalize().ok()
            };
            let git_dir = canonical.unwrap_or_else(|| repo.git_dir().to_path_buf());
            // Found from its root, unless its root leads elsewhere: then
            // from the directory that holds its git directory, as `dir` did.
            // Started from the root itself, the open from the root is the
            // one just made: it is kept, not made again.
            if dir == root {
                return Some(Tree { from: root.clone(), root, git_dir: Some(git_dir), common_dir, repo: Some(repo) });
            }
            let (from, repo) = match majordomus_readings::open(&root) {
                Ok(again) if again.git_dir().canonicalize().ok().as_ref() == Some(&git_dir) => {
                    (root.clone(), Some(again))
                }
                _ => {
                    let from = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
                    // Opened from `dir`: the same open as from `from` only
                    // where they are spelled alike.
                    let same = from == dir;
                    (from, same.then_some(repo))
                }
            };
            Some(Tree { root, from, git_dir: Some(git_dir), common_dir, repo })
        }
        Err(OpenError::Unreadable { root, .. }) => {
            Some(Tree { from: root.clone(), root, git_dir: None, common_dir: None, repo: None })
        }
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    fn roots(starts: &Starts) -> Vec<PathBuf> {
        places(starts).into_iter().map(|p| p.root).collect()
    }

    fn canon(p: &Path) -> PathBuf {
        p.canonicalize().expect("canonical")
    }

    fn from_cwd(dir: &Path) -> Starts {
        Starts { cwd: Some(dir.to_path_buf()), ..Starts::default() }
    }

    #[test]
    fn a_subdirectory_of_a_plain_repository_is_just_that_repository() {
        let t = TestRepo::with_commit();
        std::fs::create_dir_all(t.path().join("src/deep")).expect("mkdir");
        assert_eq!(roots(&from_cwd(&t.path().join("src/deep"))), [canon(t.path())]);
    }

    #[test]
    fn a_nested_scratch_repository_leads_to_the_project_around_it() {
        let t = TestRepo::with_commit();
        let scratch = t.path().join("scratch");
        std::fs::create_dir_all(&scratch).expect("mkdir");
        t.git(&["-C", "scratch", "init", "-q"]);
        let found = places(&from_cwd(&scratch));
        assert_eq!(found.iter().map(|p| p.root.clone()).collect::<Vec<_>>(), [canon(&scratch), canon(t.path())]);
        assert_eq!(found[0].how, None);
        assert!(found[1].named().expect("named").contains("the repository around"), "{found:?}");
    }

    #[test]
    fn a_linked_worktree_outside_the_project_leads_to_its_main_worktree() {
        let t = TestRepo::with_commit();
        let outside = tempfile::tempdir().expect("tempdir");
        let wt = outside.path().join("wt");
        t.git(&["worktree", "add", "-q", "-b", "side", wt.to_str().expect("utf-8")]);
        let found = places(&from_cwd(&wt));
        assert_eq!(found.iter().map(|p| p.root.clone()).collect::<Vec<_>>(), [canon(&wt), canon(t.path())]);
        assert!(found[1].named().expect("named").contains("the main worktree of"), "{found:?}");
    }

    #[test]
    fn a_linked_worktree_inside_the_project_names_the_project_once() {
        let t = TestRepo::with_commit();
        t.git(&["worktree", "add", "-q", "-b", "side", ".worktrees/x"]);
        let wt = t.path().join(".worktrees/x");
        assert_eq!(roots(&from_cwd(&wt)), [canon(&wt), canon(t.path())]);
    }

    #[test]
    fn the_process_directory_and_the_project_dir_are_places_too_each_named_once() {
        let t = TestRepo::with_commit();
        let other = TestRepo::with_commit();
        let nowhere = tempfile::tempdir().expect("tempdir");
        let starts = Starts {
            explicit: None,
            cwd: Some(nowhere.path().to_path_buf()),
            process: Some(t.path().to_path_buf()),
            project_dir: Some(other.path().to_path_buf()),
        };
        let found = places(&starts);
        assert_eq!(found.iter().map(|p| p.root.clone()).collect::<Vec<_>>(), [canon(t.path()), canon(other.path())]);
        assert!(found[0].how.as_deref().is_some_and(|h| h.contains("the hook's own directory")), "{found:?}");
        assert!(found[1].how.as_deref().is_some_and(|h| h.contains("CLAUDE_PROJECT_DIR")), "{found:?}");
        let same = Starts { process: Some(t.path().to_path_buf()), ..from_cwd(t.path()) };
        assert_eq!(roots(&same), [canon(t.path())]);
    }

    #[test]
    fn an_explicit_directory_is_the_only_start() {
        let t = TestRepo::with_commit();
        let other = TestRepo::with_commit();
        let starts = Starts {
            explicit: Some(t.path().to_path_buf()),
            cwd: Some(other.path().to_path_buf()),
            process: Some(other.path().to_path_buf()),
            project_dir: None,
        };
        assert_eq!(roots(&starts), [canon(t.path())]);
    }

    /// The repository the walk keeps for a place is the one a command opens
    /// from [`Place::from`]: the same working tree, the same git directory.
    #[test]
    fn the_repository_kept_for_a_place_is_the_one_opened_from_where_it_is_found() {
        let t = TestRepo::with_commit();
        t.git(&["worktree", "add", "-q", "-b", "side", ".worktrees/x"]);
        std::fs::create_dir_all(t.path().join("src/deep")).expect("mkdir");
        let scratch = t.path().join("scratch");
        std::fs::create_dir_all(&scratch).expect("mkdir");
        t.git(&["-C", "scratch", "init", "-q"]);
        let root = canon(t.path());
        for start in [root.clone(), root.join("src/deep"), root.join(".worktrees/x"), root.join("scratch")] {
            let found = places_opened(&from_cwd(&start));
            assert!(!found.is_empty(), "{start:?}");
            for located in &found {
                let fresh = majordomus_readings::open(&located.place.from).expect("opens");
                if let Some(kept) = &located.repo {
                    assert_eq!(kept.root(), fresh.root(), "{located:?}");
                    assert_eq!(canon(kept.git_dir()), canon(fresh.git_dir()), "{located:?}");
                }
            }
        }
        // From the root itself, the open made to find the place is kept.
        let found = places_opened(&from_cwd(&root));
        assert!(found[0].repo.is_some(), "{found:?}");
    }

    #[test]
    fn outside_any_repository_there_is_no_place() {
        let nowhere = tempfile::tempdir().expect("tempdir");
        assert_eq!(roots(&from_cwd(nowhere.path())), Vec::<PathBuf>::new());
    }
}
