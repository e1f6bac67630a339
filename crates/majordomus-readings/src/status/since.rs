//! Reading the working tree for a task: as its start would have read it.
//!
//! git's status obeys settings the worker can change with one ordinary
//! command, and each can hide a change: `git update-index
//! --assume-unchanged` or `--skip-worktree` on an edited file, a rule added
//! to `info/exclude` or a `core.excludesFile`, a `.gitignore` that ignores
//! itself, `git config core.fileMode false` after a `chmod`. So `start`
//! records what governed the reading then ([`record`], kept in the task
//! record as [`ReadingAtStart`]), and `check` reads by it ([`Conditions`]):
//!
//! - a bit on an index entry hides a change only if the start's reading
//!   was hidden by the same bit there (a bit the user set before the start
//!   is the user's configuration: git's answer stands);
//! - an ignore rule hides a file only if it held at the start (`info/exclude`,
//!   the excludes file, an ignore file uncommitted then, each as its
//!   content then; any other ignore file as the start commit held it) and
//!   git applies it now: a file a rule added since hides (committed since
//!   or not) is listed, naming the rule's file (`walk.rs`), and so is one
//!   only a rule taken away since hid, as git lists it;
//! - an untracked file `core.ignoreCase` (held since the start) hides
//!   because its name is a tracked path's with case aside (`src/LIB.RS`
//!   beside a tracked `src/lib.rs`, on a file system that tells them
//!   apart) hides only if the start found it so, with the same content
//!   ([`ReadingAtStart::case_folded`]): else it is untracked, and named
//!   (test/cases/514);
//! - `core.ignoreCase` changed since the start: the start's value governs
//!   the fold onto tracked names and the rules that held, git's now the
//!   rules git applies, so an ignore rule hides a file only where it does
//!   under both values (test/cases/541);
//! - `core.fileMode`, `core.ignoreCase`, `core.symlinks`,
//!   `core.sparseCheckout`, `sparse.expectFilesOutsideOfPatterns`,
//!   `diff.ignoreSubmodules` and `submodule.<name>.ignore` (in the
//!   configuration or in `.gitmodules`, committed or not): the start's
//!   value governs, and a value changed since is named, except where the
//!   value now hides less (`core.fileMode` turned on, a sparse checkout
//!   turned off): then git's reading now is the stricter, and is taken;
//! - `core.autocrlf`, `core.eol` and the attributes files outside the
//!   working tree (`info/attributes`, `core.attributesFile`): libgit2, which
//!   applies the eol conversions, reads them as they are now, and once git
//!   has refreshed the index under a new conversion its stat data vouches
//!   for the converted files, so no reading short of hashing every file
//!   could read the working tree as the start would. A change to any of
//!   them since the start makes the reading unread (`unknown`), naming the
//!   setting and its value at the start, until it is set back;
//! - the index's stat data: git refreshes an entry's stat data whenever it
//!   writes the index (`git add`, `git status`), under the conversions and
//!   settings of that moment, after which the stat data vouches for the
//!   file. An entry refreshed since the start (its file time not older
//!   than the index file's at the start, [`ReadingAtStart::index_mtime`])
//!   is therefore compared by content, as a racily clean entry is: a file
//!   rewritten with CRLF ends and refreshed under `core.autocrlf = true`,
//!   the setting then put back, is still the change it is.
//!
//! Settings the reading does not obey (`core.trustCtime`, `core.checkStat`,
//! `core.untrackedCache`, `core.fsmonitor`, `status.showUntrackedFiles`)
//! hide nothing whatever they are set to. A record written before the start
//! kept these ([`Start::reading`] `None`) is read strictly: no bit and no
//! rule outside HEAD hides anything, the file mode counts, names compare
//! with their case, no submodule's state is ignored; that is said too.

use std::collections::BTreeMap;
use std::path::PathBuf;

use majordomus_records::task::{Bit, Bytes, FileAtStart, ReadingAtStart, SubmoduleAtStart};
use majordomus_records::RepoPath;

use super::tree::{Governed, HiddenBy, Of, WorkingTree};
use super::walk::Held;
use crate::ignore::{rules_of, Source, Sources};
use crate::Repo;

/// Whose conditions a reading obeys.
#[derive(Debug, Clone, Copy)]
pub enum Since<'a> {
    /// git's, as they are now: what `git status` answers.
    Now,
    /// A task's start's.
    Start(Start<'a>),
}

/// What a task's start held of a repository's reading.
#[derive(Debug, Clone, Copy)]
pub struct Start<'a> {
    /// What governed the reading: `None` for a record that does not hold
    /// it (read strictly).
    pub reading: Option<&'a ReadingAtStart>,
    /// The start commit (`None`: HEAD was unborn), whose ignore files are
    /// the start's where nothing uncommitted then said otherwise.
    pub commit: Option<git2::Oid>,
    /// The submodules checked out at the start, by their path from the
    /// superproject's root (`None`: a record that does not hold them), and
    /// this repository's path among them with a `/` after it (`""` for the
    /// superproject): each submodule is read as its own start read it.
    pub submodules: Option<&'a BTreeMap<String, SubmoduleAtStart>>,
    pub prefix: &'a str,
}

impl<'a> Start<'a> {
    /// The superproject's start: `reading` and `commit` as above, with the
    /// task record's `submodules`.
    pub fn of_task(
        reading: Option<&'a ReadingAtStart>,
        commit: Option<git2::Oid>,
        submodules: Option<&'a BTreeMap<String, SubmoduleAtStart>>,
    ) -> Start<'a> {
        Start { reading, commit, submodules, prefix: "" }
    }

    /// The start of the submodule at `path` (with a `/` after it, from
    /// the superproject's root), `None` where the start did not read it
    /// (checked out since, or a record from before submodules' readings
    /// were kept): git's reading then stands, as it did before.
    pub fn of_submodule(&self, path: &'a str) -> Option<Start<'a>> {
        let at = self.submodules?.get(path.strip_suffix('/')?)?;
        let commit = at.head.as_deref().and_then(|h| git2::Oid::from_str(h).ok());
        Some(Start { reading: Some(at.reading.as_ref()?), commit, submodules: self.submodules, prefix: path })
    }
}

/// The boolean keys the reading obeys and their defaults.
const FLAGS: [(&str, &str, bool); 5] = [
    ("core.filemode", "core.fileMode", true),
    ("core.ignorecase", "core.ignoreCase", false),
    ("core.symlinks", "core.symlinks", true),
    ("core.sparsecheckout", "core.sparseCheckout", false),
    ("sparse.expectfilesoutsideofpatterns", "sparse.expectFilesOutsideOfPatterns", false),
];

/// The keys whose change makes the reading apply no conversion.
const CONVERSIONS: [(&str, &str); 2] = [("core.autocrlf", "core.autocrlf"), ("core.eol", "core.eol")];

/// How one reading reads.
#[derive(Debug)]
pub(super) struct Conditions<'a> {
    pub filemode: bool,
    /// `core.ignoreCase` as the reading obeys it: the held view of the
    /// ignore rules, and the fold of untracked names onto tracked ones.
    pub icase: bool,
    /// `core.ignoreCase` as git reads it now, by which git's view of the
    /// ignore rules matches (`ignore::Matcher::since`): a value changed
    /// since the start hides there only what git now hides.
    pub icase_now: bool,
    pub symlinks: bool,
    pub sparse_checkout: bool,
    pub expect_outside: bool,
    /// Why the working tree cannot be read as the start read it, if so.
    pub unreadable: Option<String>,
    /// The index file's time at the start, whole seconds: an entry whose
    /// file time is not older was refreshed since and is compared by
    /// content (`stat.rs`); `None`: its stat data vouches, as it does to git.
    pub refreshed_since: Option<i64>,
    /// The stamps of the files the start read by content (`verified.rs`),
    /// sorted; `None`: no stamp vouches for a file.
    pub verified: Option<Vec<u64>>,
    /// The digest of the attributes files at the start, under which the
    /// stamps of converted files vouch; `None`: none does.
    pub verified_attributes: Option<u64>,
    /// The submodule keys to obey (`diff.ignoresubmodules`,
    /// `submodule.<name>.ignore`), `None`: the configuration's now.
    pub submodules: Option<BTreeMap<String, String>>,
    /// The repository-wide ignore rules git reads now, and those held.
    pub sources_now: Sources,
    pub sources_held: Sources,
    pub held: Held<'a>,
    /// The bits that hid a path at the start, `None`: git's view (every bit hides).
    pub bits: Option<&'a BTreeMap<RepoPath, Bit>>,
    /// Of the paths a bit hid at the start, those whose file differed from
    /// the index then, with its content id: under a bit held since the
    /// start, a file whose content is neither the index's nor that is the
    /// task's change. `None`: git's view (a held bit hides every change).
    pub hidden_changed: Option<&'a BTreeMap<RepoPath, Option<String>>>,
    /// The untracked files `core.ignoreCase` hid at the start by folding
    /// their name onto a tracked path's, with their content id then: the
    /// only ones it hides from the task. `None`: git's view (it hides all).
    pub case_folded: Option<&'a BTreeMap<RepoPath, Option<String>>>,
    pub governed: Vec<Governed>,
}

/// No bits: what a record without them is read with.
static NO_BITS: BTreeMap<RepoPath, Bit> = BTreeMap::new();
static NO_IGNORE_FILES: BTreeMap<RepoPath, Vec<u8>> = BTreeMap::new();
static NO_FOLDED: BTreeMap<RepoPath, Option<String>> = BTreeMap::new();

/// The conditions of a reading of `repo`, whose configuration is `config`.
/// `ignore_files` holds the start's ignore files' bytes (see [`ignore_files`]).
pub(super) fn conditions<'a>(
    repo: &Repo,
    config: &git2::Config,
    since: Since<'a>,
    ignore_files: &'a BTreeMap<RepoPath, Vec<u8>>,
) -> Conditions<'a> {
    let now_bool = |key: &str, default: bool| config.get_bool(key).unwrap_or(default);
    let sources_now = Sources::current(config, repo.common_dir(), repo.root());
    let mut c = Conditions {
        filemode: now_bool("core.filemode", true),
        icase: now_bool("core.ignorecase", false),
        icase_now: now_bool("core.ignorecase", false),
        symlinks: now_bool("core.symlinks", true),
        sparse_checkout: now_bool("core.sparsecheckout", false),
        expect_outside: now_bool("sparse.expectfilesoutsideofpatterns", false),
        unreadable: None,
        refreshed_since: None,
        verified: None,
        verified_attributes: None,
        submodules: None,
        sources_held: sources_now.clone(),
        sources_now,
        held: Held::All,
        bits: None,
        hidden_changed: None,
        case_folded: None,
        governed: Vec::new(),
    };
    match since {
        Since::Now => {}
        Since::Start(Start { reading: None, commit, .. }) => {
            c.filemode = true;
            c.icase = false;
            c.submodules = Some(BTreeMap::new());
            c.sources_held = Sources::default();
            c.held = Held::AtStart { files: &NO_IGNORE_FILES, commit };
            c.bits = Some(&NO_BITS);
            c.case_folded = Some(&NO_FOLDED);
            c.governed.push(Governed {
                what: "the task record".into(),
                how: "holds no record of what governed the working tree's reading at the start (written by an older majordomus, or not read then): read strictly, no index bit, ignore rule outside HEAD or setting hiding any change".into(),
                of: Of::Both,
            });
        }
        Since::Start(Start { reading: Some(start), commit, .. }) => {
            govern(repo, config, (start, commit), ignore_files, &mut c)
        }
    }
    c
}

/// The start's ignore files' bytes, by path (built once per reading).
pub(super) fn ignore_files(since: Since<'_>) -> BTreeMap<RepoPath, Vec<u8>> {
    match since {
        Since::Start(Start { reading: Some(start), .. }) => {
            start.ignore_files.iter().map(|(p, c)| (p.clone(), c.0.clone())).collect()
        }
        _ => BTreeMap::new(),
    }
}

fn govern<'a>(
    repo: &Repo,
    config: &git2::Config,
    (start, commit): (&'a ReadingAtStart, Option<git2::Oid>),
    ignore_files: &'a BTreeMap<RepoPath, Vec<u8>>,
    c: &mut Conditions<'a>,
) {
    let quoted = |v: Option<&str>| v.map_or("unset".to_string(), |v| format!("{v:?}"));
    for (key, name, default) in FLAGS {
        let then = start.config.get(key).map(String::as_str);
        let now = crate::config::setting(config, key);
        let value = then.and_then(|v| git2::Config::parse_bool(v).ok()).unwrap_or(default);
        let slot = match key {
            "core.filemode" => &mut c.filemode,
            "core.ignorecase" => &mut c.icase,
            "core.symlinks" => &mut c.symlinks,
            "core.sparsecheckout" => &mut c.sparse_checkout,
            _ => &mut c.expect_outside,
        };
        // Set since the start so as to hide less (`core.fileMode` turned on
        // after a `chmod` made while it was off, so `git status` shows the
        // mode change): read as now, as git does (test/cases/328).
        let hides_less_now = match key {
            "core.filemode" => *slot && !value,
            "core.sparsecheckout" | "sparse.expectfilesoutsideofpatterns" => !*slot && value,
            // `core.ignoreCase` hides less one way in the fold and the other
            // in an ignore rule: the start's value is put back for the fold
            // and the held rules, while git's view of the rules keeps
            // `icase_now` (test/cases/541).
            _ => false,
        };
        if *slot != value && !hides_less_now {
            let of = if key == "core.ignorecase" { Of::Both } else { Of::Tracked };
            c.governed.push(Governed {
                what: name.into(),
                how: format!(
                    "was set to {} since the start ({} then): read as at the start",
                    quoted(now.as_deref()),
                    quoted(then)
                ),
                of,
            });
            *slot = value;
        }
    }
    let cannot = "so the working tree cannot be read as the start read it (git's eol conversion, and the index's stat data refreshed under it, would vouch for content the start would have counted)";
    for (key, name) in CONVERSIONS {
        let then = start.config.get(key).map(String::as_str);
        let now = crate::config::setting(config, key);
        if then != now.as_deref() && c.unreadable.is_none() {
            let back = match then {
                Some(v) => format!("git config {name} {v}"),
                None => format!("git config --unset {name}"),
            };
            c.unreadable = Some(format!(
                "{name} was set to {} since the start ({} then), {cannot}; set it back ({back}), or finish the task and start again",
                quoted(now.as_deref()),
                quoted(then)
            ));
        }
    }
    let attributes_now = attributes(repo, config);
    for path in attributes_now.keys().chain(start.attributes.keys()) {
        if attributes_now.get(path) != start.attributes.get(path) && c.unreadable.is_none() {
            c.unreadable = Some(format!(
                "the attributes file {path} changed since the start, {cannot}; put it back as it was, or finish the task and start again"
            ));
        }
    }
    let mut submodules_now = repo.config().map(|c| submodule_keys(&c)).unwrap_or_default();
    submodules_now.extend(super::gitlink::gitmodules_ignores(repo));
    let submodules_then: BTreeMap<String, String> =
        start.config.iter().filter(|(k, _)| is_submodule_key(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
    for key in submodules_now.keys().chain(submodules_then.keys()) {
        let (then, now) = (submodules_then.get(key), submodules_now.get(key));
        let what = match key.strip_prefix(super::gitlink::GITMODULES) {
            Some(k) => format!("{k} in .gitmodules"),
            None => key.clone(),
        };
        if then != now && !c.governed.iter().any(|g| g.what == what) {
            c.governed.push(Governed {
                what,
                how: format!(
                    "was set to {} since the start ({} then): read as at the start",
                    quoted(now.map(String::as_str)),
                    quoted(then.map(String::as_str))
                ),
                of: Of::Tracked,
            });
        }
    }
    c.submodules = Some(submodules_then);
    let common = repo.common_dir().join("info").join("exclude");
    c.sources_held = Sources::given(
        start.excludes_file.as_ref().map(|f| Source { origin: PathBuf::from(&f.path), bytes: f.content.0.clone() }),
        start.info_exclude.as_ref().map(|b| Source { origin: common, bytes: b.0.clone() }),
    );
    c.held = Held::AtStart { files: ignore_files, commit };
    c.bits = Some(&start.bits);
    c.hidden_changed = start.hidden_changed.as_ref();
    c.case_folded = Some(start.case_folded.as_ref().unwrap_or(&NO_FOLDED));
    c.refreshed_since = start.index_mtime;
    c.verified = start.verified.as_deref().and_then(super::verified::decode);
    c.verified_attributes = start.verified_attributes.as_deref().and_then(super::verified::decode).and_then(|d| {
        if let [one] = d[..] {
            Some(one)
        } else {
            None
        }
    });
}

/// Whether a file a bit held since the start hides, changed now (`changed`:
/// its content is not its index entry's), changed since the start too:
/// its content then (as `hidden_changed` recorded it, else the index's)
/// is not its content now.
pub(super) fn changed_under_bit(
    repo: &Repo,
    hidden_changed: Option<&BTreeMap<RepoPath, Option<String>>>,
    path: &RepoPath,
    changed: bool,
) -> bool {
    let Some(then) = hidden_changed else { return false };
    match then.get(path) {
        Some(then) => changed && super::content_id(repo, path) != *then,
        None => changed,
    }
}

/// Whether an untracked file `core.ignoreCase` hides by folding its name
/// onto a tracked path's counts for the task: unless the start found it
/// hidden so, with the same content (`then`, the start's record; `None`:
/// git's view, which counts none). A setting held since the start hides
/// only what it hid then, as a bit does (test/cases/514).
pub(super) fn folded_since(repo: &Repo, then: Option<&BTreeMap<RepoPath, Option<String>>>, path: &RepoPath) -> bool {
    let Some(then) = then else { return false };
    match then.get(path) {
        Some(id) => super::content_id(repo, path) != *id,
        None => true,
    }
}

/// Whether a path git hides by `by` was hidden by the same bit at the start.
pub(super) fn bit_held(bits: &BTreeMap<RepoPath, Bit>, path: &RepoPath, by: HiddenBy) -> bool {
    let bit = match by {
        HiddenBy::AssumeUnchanged => Bit::AssumeUnchanged,
        HiddenBy::SkipWorktree | HiddenBy::ExpectedOutsideSparse => Bit::SkipWorktree,
    };
    bits.get(path) == Some(&bit)
}

/// What governs the reading of `repo` now, for a start snapshot: `tree`
/// is the reading just taken (its hidden paths and the ignore files its
/// walk read).
pub fn record(repo: &Repo, tree: &WorkingTree) -> Result<ReadingAtStart, git2::Error> {
    let config = repo.git.config()?.snapshot()?;
    let mut r = ReadingAtStart::default();
    for key in FLAGS.iter().map(|(k, _, _)| *k).chain(CONVERSIONS.iter().map(|(k, _)| *k)) {
        if let Some(v) = crate::config::setting(&config, key) {
            r.config.insert(key.to_string(), v);
        }
    }
    r.config.extend(repo.config().map(|c| submodule_keys(&c)).unwrap_or_default());
    r.config.extend(super::gitlink::gitmodules_ignores(repo));
    let sources = Sources::current(&config, repo.common_dir(), repo.root());
    r.info_exclude = sources.info_exclude.map(|s| Bytes(rules_of(&s.bytes)));
    r.excludes_file = sources
        .excludes_file
        .map(|s| FileAtStart { path: s.origin.to_string_lossy().into_owned(), content: Bytes(rules_of(&s.bytes)) });
    r.ignore_files = tree.uncommitted_ignores.iter().map(|(p, b)| (p.clone(), Bytes(rules_of(b)))).collect();
    r.attributes = attributes(repo, &config);
    r.bits = tree
        .hidden
        .iter()
        .map(|h| {
            let bit = match h.by {
                HiddenBy::AssumeUnchanged => Bit::AssumeUnchanged,
                HiddenBy::SkipWorktree | HiddenBy::ExpectedOutsideSparse => Bit::SkipWorktree,
            };
            (h.path.clone(), bit)
        })
        .collect();
    r.hidden_changed = Some(
        tree.hidden.iter().filter(|h| h.changed).map(|h| (h.path.clone(), super::content_id(repo, &h.path))).collect(),
    );
    // Kept only where a collision exists: an ordinary start records nothing.
    r.case_folded = (!tree.case_folded.is_empty())
        .then(|| tree.case_folded.iter().map(|p| (p.clone(), super::content_id(repo, p))).collect());
    r.verified = super::verified::encode(&tree.verified);
    r.verified_attributes = r.verified.as_ref().map(|_| super::verified::encode_one(tree.attributes));
    r.index_mtime = Some(match std::fs::metadata(repo.git_dir().join("index")) {
        Ok(m) => std::os::unix::fs::MetadataExt::mtime(&m),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
    });
    Ok(r)
}

fn is_submodule_key(key: &str) -> bool {
    let key = key.strip_prefix(super::gitlink::GITMODULES).unwrap_or(key);
    key == "diff.ignoresubmodules" || (key.starts_with("submodule.") && key.ends_with(".ignore"))
}

/// The submodule keys set in `config` (`diff.ignoreSubmodules`,
/// `submodule.<name>.ignore`), by name: the last value of each, as git
/// reads it.
fn submodule_keys(config: &crate::config::Config) -> BTreeMap<String, String> {
    let submodule = |name: &str| name.strip_prefix("submodule.").is_some_and(|rest| rest.ends_with(".ignore"));
    config
        .entries()
        .filter(|e| e.name == "diff.ignoresubmodules" || submodule(&e.name))
        .filter_map(|e| Some((e.name.clone(), e.value.clone()?)))
        .collect()
}

/// The attributes files outside the working tree git reads, by path, with
/// the blob id of their content; a file that is absent is left out.
fn attributes(repo: &Repo, config: &git2::Config) -> BTreeMap<String, String> {
    let global = match config.get_path("core.attributesfile") {
        Ok(p) if p.is_relative() => Some(repo.root().join(p)),
        Ok(p) => Some(p),
        Err(_) => xdg_config("attributes"),
    };
    [Some(repo.common_dir().join("info").join("attributes")), global]
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let bytes = crate::file::read(&p).ok()?;
            let id = git2::Oid::hash_object(git2::ObjectType::Blob, &bytes).ok()?;
            Some((p.to_string_lossy().into_owned(), id.to_string()))
        })
        .collect()
}

/// `$XDG_CONFIG_HOME/git/NAME`, else `$HOME/.config/git/NAME`.
fn xdg_config(name: &str) -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty());
    let base = match xdg {
        Some(x) => PathBuf::from(x),
        None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?).join(".config"),
    };
    Some(base.join("git").join(name))
}
