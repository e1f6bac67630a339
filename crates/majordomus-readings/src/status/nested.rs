//! Whether a directory holds a repository of its own, by git's test
//! (`is_nonbare_repository_dir`): a `.git` directory with a valid `HEAD`,
//! an `objects` and a `refs` directory (in its common directory), or a
//! `.git` file naming one. An empty `.git` directory makes no repository.

use std::path::Path;

use majordomus_records::RepoPath;

use git2::Oid;

/// How deep repositories nested in nested repositories are read.
const DEPTH: usize = 4;

/// What the repository whose working tree is `dir`, inside `outer`'s,
/// holds, as one id: its HEAD, its refs (but the remote-tracking ones,
/// which a fetch moves), each path its own status lists with its
/// content, and what governs that listing (its configuration files, its
/// `info/exclude` and `info/attributes`, the excludes file it reads, each
/// ignore file its walk read that its HEAD does not hold, each path a bit
/// hides, and whether it is changed there, with its content where it is),
/// hashed as a blob of that
/// description: a rule, a bit or a setting made inside since the start
/// hides nothing there, since it changes the id as the listing would
/// have (test/cases/428). `None` when `dir` holds
/// no repository that can be read, or holds a linked worktree of `outer`'s
/// own repository: another worktree's work is never this one's, and its
/// refs are this repository's own.
pub(super) fn state_id(outer: &crate::Repo, dir: &Path) -> Option<String> {
    state_at(Some(outer.common_dir()), dir, 0, Refs::Counted).map(|s| s.id)
}

/// What a submodule checked out at `dir` holds: [`state_id`]'s description
/// but for its refs (a branch or a tag made there is `nothing-accumulated`'s
/// to read, not content), with whether anything differs from its HEAD.
pub(super) fn submodule_state(outer: &crate::Repo, dir: &Path) -> Option<Inside> {
    state_at(Some(outer.common_dir()), dir, 0, Refs::Left)
}

/// A checked-out repository's state: its HEAD's commit, whether its own
/// status lists anything (a change, a file, a conflict, a path a bit
/// hides whose file changed), and the id of its whole description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inside {
    pub head: Option<Oid>,
    pub changed: bool,
    pub id: String,
}

/// Whether a repository's refs are part of its description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refs {
    Counted,
    Left,
}

fn state_at(outer: Option<&Path>, dir: &Path, depth: usize, refs_are: Refs) -> Option<Inside> {
    if depth > DEPTH || !is_repository(dir) {
        return None;
    }
    let repo = crate::open(dir).ok()?.inside_another();
    let same = |a: &Path, b: &Path| a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a));
    if outer.is_some_and(|o| same(o, repo.common_dir())) {
        return None;
    }
    let mut text = String::new();
    let head = repo.git.head().ok().and_then(|h| h.target());
    text.push_str(&format!("HEAD {}\n", head.map_or("unborn".to_string(), |h| h.to_string())));
    if refs_are == Refs::Counted {
        let mut refs: Vec<(String, String)> = Vec::new();
        for r in repo.git.references().ok()?.flatten() {
            let (Some(name), Some(id)) = (r.name(), r.resolve().ok().and_then(|r| r.target())) else { continue };
            if !name.starts_with("refs/remotes/") {
                refs.push((name.to_string(), id.to_string()));
            }
        }
        refs.sort();
        for (name, id) in refs {
            text.push_str(&format!("ref {name} {id}\n"));
        }
    }
    let tree = super::read(&repo).ok()?;
    let blob = |bytes: &[u8]| git2::Oid::hash_object(git2::ObjectType::Blob, bytes).map(|o| o.to_string()).ok();
    let (git_dir, common) = (repo.git_dir(), repo.common_dir());
    for (what, path) in [
        ("config", common.join("config")),
        ("config.worktree", git_dir.join("config.worktree")),
        ("attributes", common.join("info").join("attributes")),
    ] {
        if let Ok(Some(bytes)) = crate::file::read_optional(&path) {
            text.push_str(&format!("{what} {}\n", blob(&bytes).unwrap_or_default()));
        }
    }
    // The ignore files git reads beside the tree's, as the reading does.
    if let Ok(config) = repo.git.config() {
        let sources = crate::ignore::Sources::current(&config, common, repo.root());
        for (what, source) in [("exclude", &sources.info_exclude), ("excludes-file", &sources.excludes_file)] {
            if let Some(source) = source {
                text.push_str(&format!("{what} {}\n", blob(&source.bytes).unwrap_or_default()));
            }
        }
    }
    for (path, bytes) in &tree.uncommitted_ignores {
        text.push_str(&format!("ignore-file {path} {}\n", blob(bytes).unwrap_or_default()));
    }
    let id_of = |p: &RepoPath| {
        let path = crate::file::in_tree(repo.root(), p)?;
        if p.as_bytes().ends_with(b"/") {
            return state_at(Some(repo.common_dir()), &path, depth + 1, Refs::Counted).map(|s| s.id);
        }
        // A submodule of this one: what it holds, as deep as [`DEPTH`].
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            return super::is_gitlink(&repo, p)
                .then(|| state_at(Some(repo.common_dir()), &path, depth + 1, Refs::Left).map(|s| s.id))
                .flatten();
        }
        super::content_id(&repo, p)
    };
    // A hidden path's content where a look found it changed: an edit
    // made behind a bit set before the start is still an edit.
    for h in &tree.hidden {
        text.push_str(&format!("hidden {} {:?} {} {}", h.path, h.by, h.changed, h.deleted));
        if h.changed {
            text.push_str(&format!(" {}", id_of(&h.path).unwrap_or_default()));
        }
        text.push('\n');
    }
    if tree.modes_ignored {
        text.push_str("modes-ignored\n");
    }
    for d in &tree.dirty {
        text.push_str(&format!("dirty {} {}\n", d.path, id_of(&d.path).unwrap_or_default()));
    }
    for p in &tree.untracked {
        text.push_str(&format!("untracked {p} {}\n", id_of(p).unwrap_or_default()));
    }
    for p in &tree.conflicted {
        text.push_str(&format!("conflicted {p}\n"));
    }
    let changed = !tree.dirty.is_empty()
        || !tree.untracked.is_empty()
        || !tree.conflicted.is_empty()
        || tree.hidden.iter().any(|h| h.changed || h.deleted);
    let id = git2::Oid::hash_object(git2::ObjectType::Blob, text.as_bytes()).ok()?.to_string();
    Some(Inside { head, changed, id })
}

/// The commit HEAD names in the repository whose working tree is `dir`,
/// `None` when `dir` holds no repository or its HEAD names no commit.
pub(super) fn head_of(dir: &Path) -> Option<Oid> {
    if !is_repository(dir) {
        return None;
    }
    let git = git2::Repository::open_ext(dir, git2::RepositoryOpenFlags::NO_SEARCH, std::iter::empty::<&str>()).ok()?;
    let head = git.head().ok()?.target();
    head
}

/// Whether `dir` holds a repository of its own, by git's test.
pub(super) fn is_repository(dir: &Path) -> bool {
    let dotgit = dir.join(".git");
    let Ok(meta) = std::fs::metadata(&dotgit) else { return false };
    if meta.is_dir() {
        return is_git_directory(&dotgit);
    }
    // A `.git` file: `gitdir: PATH`, relative to the file's directory. One
    // that cannot be read at all is taken for a repository, as git takes it.
    let Ok(bytes) = crate::file::read(&dotgit) else { return true };
    let text = String::from_utf8_lossy(&bytes);
    let Some(named) = text.strip_prefix("gitdir: ") else { return false };
    let named = Path::new(named.trim_end_matches(['\n', '\r']));
    is_git_directory(&dir.join(named))
}

/// git's `is_git_directory`: a valid `HEAD`, and `objects` and `refs` in
/// its common directory.
fn is_git_directory(git_dir: &Path) -> bool {
    if !valid_head(&git_dir.join("HEAD")) {
        return false;
    }
    let common = match crate::file::read(&git_dir.join("commondir")) {
        Ok(c) => git_dir.join(String::from_utf8_lossy(&c).trim_end_matches(['\n', '\r'])),
        Err(_) => git_dir.to_path_buf(),
    };
    common.join("objects").is_dir() && common.join("refs").is_dir()
}

/// A `HEAD` that is a link into `refs/`, a `ref: refs/...` or an object id.
fn valid_head(head: &Path) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(head) else { return false };
    if meta.file_type().is_symlink() {
        return std::fs::read_link(head).is_ok_and(|t| t.as_os_str().as_encoded_bytes().starts_with(b"refs/"));
    }
    let Ok(bytes) = crate::file::read(head) else { return false };
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(255)]);
    if let Some(target) = text.strip_prefix("ref:") {
        return target.trim_start().starts_with("refs/");
    }
    let hex: String = text.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    hex.len() == 40 || hex.len() == 64
}
