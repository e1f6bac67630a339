//! Random worlds from a fixed seed: settings, trees, ignore rules and
//! changes drawn together, so that combinations nobody listed are tried.
//! A seed names its world exactly: a failure says which, and
//! `MAJORDOMUS_AGREE_SEEDS` runs more of them.

use super::{Rng, World};

const DIRS: &[&str] = &["", "src", "src/deep", "docs", "build", "a", "a/b", "tmp", "x/y", "keep"];
const NAMES: &[&str] = &["a.txt", "b.log", "c.rs", "keep.log", "k.txt", "d.o", "Temp1", "e.md", "gen", "f.out", "x"];
const PATTERNS: &[&str] = &[
    "*.log",
    "*.txt",
    "keep.log",
    "k.txt",
    "build",
    "build/",
    "/build",
    "tmp*/",
    "*.o",
    "d.o",
    "a/",
    "a/**/x",
    "**/deep",
    "src/**",
    "docs/*.md",
    "[Tt]emp*",
    "?.txt",
    "gen",
    "*.out",
    "deep/",
    "x/y",
    "**/*.rs",
    "a/b/",
    "*",
    "/keep/",
    "x",
    "src/*",
    "\\!x",
    "*.[lo]*",
];

/// What a world's draw is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// Settings, index forms and every kind of change.
    Combos,
    /// Many ignore files at several depths and the changes they judge.
    Ignores,
    /// Attributes files, end-of-line and ident conversions, and settings
    /// changed after the index was written: content git compares through
    /// its conversions, and stat data written under other ones.
    Conversions,
}

fn path(rng: &mut Rng) -> String {
    let dir = *rng.pick(DIRS);
    let name = *rng.pick(NAMES);
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn content(rng: &mut Rng, crlf: bool) -> String {
    let words = ["alpha", "beta", "gamma", "delta"];
    let end = if crlf { "\r\n" } else { "\n" };
    (0..1 + rng.below(3)).map(|_| format!("{}{end}", rng.pick(&words))).collect()
}

fn rules(rng: &mut Rng, count: usize) -> String {
    (0..count)
        .map(|_| {
            let p = *rng.pick(PATTERNS);
            if rng.chance(25) {
                format!("!{p}\n")
            } else {
                format!("{p}\n")
            }
        })
        .collect()
}

/// A file path no tracked or untracked path already uses as a directory or file.
fn free(w: &World, rng: &mut Rng) -> Option<String> {
    let p = path(rng);
    let taken = p.split('/').scan(String::new(), |acc, part| {
        if !acc.is_empty() {
            acc.push('/');
        }
        acc.push_str(part);
        Some(acc.clone())
    });
    let mut prefixes = taken.collect::<Vec<_>>();
    let own = prefixes.pop()?;
    let blocked = prefixes.iter().any(|d| w.root().join(d).symlink_metadata().is_ok_and(|m| !m.is_dir()))
        || w.root().join(&own).symlink_metadata().is_ok();
    (!blocked).then_some(own)
}

/// The world of `seed`.
pub fn world(seed: u64, focus: Focus) -> World {
    if focus == Focus::Conversions {
        return conversions(seed, &mut |_| {});
    }
    world_with(seed, focus, &mut |_| {}, &mut |_, _| {})
}

/// The world of `seed`, `at_start` called once its base is committed and
/// before its changes, `more` after each change (a task's moves).
pub fn world_with(
    seed: u64,
    focus: Focus,
    at_start: &mut dyn FnMut(&World),
    more: &mut dyn FnMut(&World, &mut Rng),
) -> World {
    let mut rng = Rng::new(seed ^ if focus == Focus::Ignores { 0x1_0000 } else { 0 });
    let w = World::new(&format!("{focus:?} seed {seed}"));
    let combos = focus == Focus::Combos;
    let autocrlf = if combos { *rng.pick(&["false", "false", "true", "input"]) } else { "false" };
    if autocrlf != "false" {
        w.config("core", "autocrlf", autocrlf);
    }
    if combos && rng.chance(20) {
        w.config("core", "filemode", "false");
    }
    if combos && rng.chance(10) {
        w.config("core", "ignorecase", "true");
    }
    if combos && rng.chance(10) {
        w.config("core", "trustctime", "false");
    }
    if combos && rng.chance(15) {
        w.write(".gitattributes", *rng.pick(&["*.txt text\n", "* text=auto\n", "*.log -text\n", "*.rs eol=crlf\n"]));
    }
    for _ in 0..8 + rng.below(14) {
        if let Some(p) = free(&w, &mut rng) {
            let crlf = rng.chance(20);
            w.write(&p, content(&mut rng, crlf));
            if rng.chance(15) {
                w.chmod(&p, 0o755);
            }
        }
    }
    let ignore_files = if combos { rng.below(3) } else { 2 + rng.below(5) };
    for _ in 0..ignore_files {
        let dir = *rng.pick(DIRS);
        let at = if dir.is_empty() { ".gitignore".to_string() } else { format!("{dir}/.gitignore") };
        if w.root().join(dir).symlink_metadata().is_ok_and(|m| m.is_dir()) || dir.is_empty() {
            let count = 1 + rng.below(4);
            w.write(&at, rules(&mut rng, count));
        }
    }
    if rng.chance(if combos { 20 } else { 50 }) {
        w.write(".git/info/exclude", rules(&mut rng, 2));
    }
    if rng.chance(if combos { 15 } else { 40 }) {
        let excludes = w.root().join(".git/excludes");
        std::fs::write(&excludes, rules(&mut rng, 2)).unwrap();
        w.config("core", "excludesFile", excludes.to_str().unwrap());
    }
    w.git(&["add", "-A"]);
    for _ in 0..rng.below(3) {
        let p = path(&mut rng);
        if w.root().join(&p).is_file() {
            w.git(&["add", "-f", &p]);
        }
    }
    w.git(&["commit", "-q", "--allow-empty", "-m", "base"]);
    if combos {
        let version = *rng.pick(&["2", "3", "4"]);
        w.git(&["update-index", "--index-version", version]);
        if rng.chance(25) {
            w.git(&["update-index", "--split-index"]);
        }
        if rng.chance(25) {
            w.config("core", "untrackedCache", "true");
            w.git(&["update-index", "--untracked-cache"]);
            w.git(&["status", "-uall", "--porcelain"]);
        }
    }
    let tracked: Vec<String> =
        w.git(&["ls-files", "-z"]).split('\0').filter(|p| !p.is_empty()).map(String::from).collect();
    at_start(&w);
    for _ in 0..3 + rng.below(10) {
        change(&w, &mut rng, &tracked, combos);
        more(&w, &mut rng);
    }
    w
}

/// A move a worker may make during a task that could hide a change from
/// git: a rule added to `info/exclude`, a setting turned, work staged,
/// committed or stashed, a directory taken out of the index.
pub fn after_the_start(w: &World, rng: &mut Rng) {
    match rng.below(12) {
        0 => {
            let at = w.root().join(".git/info/exclude");
            let old = std::fs::read_to_string(&at).unwrap_or_default();
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            std::fs::write(&at, old + *rng.pick(&["*.txt\n", "src/\n", "*\n", "!*.log\n"])).unwrap();
        }
        1 => w.git_may_fail(&["config", "core.filemode", "false"]),
        2 => w.git_may_fail(&["config", "core.ignorecase", "true"]),
        3 => w.git_may_fail(&["commit", "-q", "-a", "-m", "during the task"]),
        4 => w.git_may_fail(&["add", "-A"]),
        5 => w.git_may_fail(&["stash", "-q"]),
        6 => w.git_may_fail(&["rm", "-r", "-q", "--cached", "src"]),
        _ => {}
    }
}

/// One change, drawn.
fn change(w: &World, rng: &mut Rng, tracked: &[String], combos: bool) {
    let some_tracked = (!tracked.is_empty()).then(|| rng.pick(tracked).clone());
    let present = |p: &str| w.root().join(p).symlink_metadata().is_ok_and(|m| m.is_file());
    match rng.below(if combos { 16 } else { 8 }) {
        0 | 1 => {
            if let Some(p) = free(w, rng) {
                let crlf = rng.chance(20);
                w.write(&p, content(rng, crlf));
            }
        }
        2 => {
            let dir = *rng.pick(DIRS);
            let at = if dir.is_empty() { ".gitignore".to_string() } else { format!("{dir}/.gitignore") };
            if dir.is_empty() || w.root().join(dir).symlink_metadata().is_ok_and(|m| m.is_dir()) {
                let more = rules(rng, 1);
                let old = std::fs::read_to_string(w.root().join(&at)).unwrap_or_default();
                w.write(&at, old + &more);
            }
        }
        3 => {
            if let Some(p) = free(w, rng) {
                let target = *rng.pick(&["src", "a", "build", "../outside", "README"]);
                w.symlink(target, &p);
            }
        }
        4 | 5 => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                // A same-size edit: the stat data may not tell it.
                let old = std::fs::read(w.root().join(&p)).unwrap();
                let mut new = old.clone();
                if let Some(b) = new.iter_mut().find(|b| b.is_ascii_lowercase()) {
                    *b = b.to_ascii_uppercase();
                }
                w.write(&p, new);
            }
        }
        6 => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                w.remove(&p);
            }
        }
        7 => {
            let dir = *rng.pick(DIRS);
            if !dir.is_empty() && !w.root().join(dir).exists() && rng.chance(50) {
                std::fs::create_dir_all(w.root().join(dir).join(".git")).unwrap();
            } else if let Some(p) = free(w, rng) {
                w.write(&p, "untracked\n");
            }
        }
        8 => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                let crlf = rng.chance(30);
                w.write(&p, content(rng, crlf) + "more\n");
            }
        }
        9 => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                w.chmod(&p, *rng.pick(&[0o755, 0o644]));
            }
        }
        10 => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                w.git_may_fail(&["add", &p]);
            }
        }
        11 => {
            if let Some(p) = some_tracked {
                w.git(&["rm", "-q", "--cached", "--ignore-unmatch", &p]);
            }
        }
        12 => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                let bit = *rng.pick(&["--assume-unchanged", "--skip-worktree"]);
                w.git_may_fail(&["update-index", bit, &p]);
                w.write(&p, "edited under a bit\n");
            }
        }
        13 => {
            if let Some(p) = free(w, rng) {
                w.write(&p, "intent\n");
                w.git(&["add", "-N", "-f", &p]);
            }
        }
        14 => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                w.remove(&p);
                w.write(&format!("{p}/inside.txt"), "now a directory\n");
            }
        }
        _ => {
            if let Some(p) = some_tracked.filter(|p| present(p)) {
                let file = std::fs::File::options().write(true).open(w.root().join(&p)).unwrap();
                let t = file.metadata().unwrap().modified().unwrap() + std::time::Duration::from_secs(3);
                file.set_modified(t).unwrap();
            }
        }
    }
}

/// Lines an attributes file may hold: every end-of-line form git reads
/// (`text`, `eol`, the older `crlf`), `ident`, a macro, a filter no
/// configuration defines, at the root or deeper.
const ATTRIBUTES: &[&str] = &[
    "*.txt text\n",
    "* text=auto\n",
    "*.log -text\n",
    "*.rs eol=crlf\n",
    "*.md eol=lf\n",
    "*.txt -crlf\n",
    "*.rs crlf=input\n",
    "*.log crlf\n",
    "* -text\n",
    "*.md text=auto eol=crlf\n",
    "*.c ident\n",
    "*.txt ident text\n",
    "*.o binary\n",
    "[attr]mine text eol=crlf\n*.md mine\n",
    "*.txt filter=undefined\n",
    "a/** text\n",
    "src/ text\n",
    "*.TXT text\n",
];

/// Content for the conversions: LF, CRLF, mixed, a lone CR, a NUL, an
/// ident keyword collapsed or expanded, or nothing.
fn converted_content(rng: &mut Rng) -> Vec<u8> {
    let line = *rng.pick(&[
        &b"alpha\n"[..],
        b"beta\r\n",
        b"gamma\r",
        b"delta\0\n",
        b"$Id$\n",
        b"$Id: 0123456789abcdef $\n",
        b"$Id: cut\n",
        b"\n",
    ]);
    let mut out = Vec::new();
    for _ in 0..rng.below(4) {
        out.extend_from_slice(line);
        if rng.chance(30) {
            let more = *rng.pick(&[&b"x\n"[..], b"y\r\n", b"$Id$ z\r\n"]);
            out.extend_from_slice(more);
        }
    }
    out
}

const CONVERTED_NAMES: &[&str] = &["a.txt", "b.log", "c.rs", "d.md", "e.c", "f.o", "G.TXT", "h"];
const CONVERTED_DIRS: &[&str] = &["", "src", "a", "a/b"];

fn converted_path(rng: &mut Rng) -> String {
    let (dir, name) = (*rng.pick(CONVERTED_DIRS), *rng.pick(CONVERTED_NAMES));
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Settings git's conversions read, drawn.
fn conversion_settings(w: &World, rng: &mut Rng) {
    let autocrlf = *rng.pick(&["", "", "true", "input", "false"]);
    if !autocrlf.is_empty() {
        w.config("core", "autocrlf", autocrlf);
    }
    if rng.chance(20) {
        let eol = *rng.pick(&["crlf", "lf", "native"]);
        w.config("core", "eol", eol);
    }
    if rng.chance(15) {
        w.config("core", "ignorecase", "true");
    }
}

/// An attributes file at the root or in a directory, drawn.
fn attributes_file(w: &World, rng: &mut Rng) {
    let dir = *rng.pick(CONVERTED_DIRS);
    let at = if dir.is_empty() { ".gitattributes".to_string() } else { format!("{dir}/.gitattributes") };
    let old = std::fs::read_to_string(w.root().join(&at)).unwrap_or_default();
    w.write(&at, old + *rng.pick(ATTRIBUTES));
}

/// A world of conversions: attributes and settings, files in every
/// line-end form committed under them, then content, attributes and
/// settings changed, some after git wrote the index's stat data.
pub fn conversions(seed: u64, at_start: &mut dyn FnMut(&World)) -> World {
    let mut rng = Rng::new(seed ^ 0x2_0000);
    let w = World::new(&format!("Conversions seed {seed}"));
    // Settings before or after the files: git stores what the conversion
    // of the moment makes of them.
    let settings_first = rng.chance(50);
    if settings_first {
        conversion_settings(&w, &mut rng);
    }
    for _ in 0..rng.below(3) {
        attributes_file(&w, &mut rng);
    }
    for _ in 0..4 + rng.below(8) {
        let p = converted_path(&mut rng);
        let content = converted_content(&mut rng);
        w.write(&p, content);
    }
    // Under core.safecrlf (warn by default) a conversion git cannot undo
    // only warns; committed whatever the conversion makes of it.
    w.git(&["-c", "core.safecrlf=false", "add", "-A"]);
    w.git(&["-c", "core.safecrlf=false", "commit", "-q", "--allow-empty", "-m", "base"]);
    if !settings_first {
        conversion_settings(&w, &mut rng);
    }
    if rng.chance(30) {
        w.git(&["update-index", "--index-version", *rng.pick(&["2", "4"])]);
    }
    let tracked: Vec<String> =
        w.git(&["ls-files", "-z"]).split('\0').filter(|p| !p.is_empty()).map(String::from).collect();
    at_start(&w);
    for _ in 0..2 + rng.below(8) {
        let some_tracked = (!tracked.is_empty()).then(|| rng.pick(&tracked).clone());
        let present = |p: &str| w.root().join(p).symlink_metadata().is_ok_and(|m| m.is_file());
        match rng.below(10) {
            0 | 1 => {
                let p = some_tracked.filter(|p| present(p)).unwrap_or_else(|| converted_path(&mut rng));
                if !w.root().join(&p).is_dir() {
                    let content = converted_content(&mut rng);
                    w.write(&p, content);
                }
            }
            2 => {
                // Line ends turned over in place, nothing else.
                if let Some(p) = some_tracked.filter(|p| present(p)) {
                    let old = std::fs::read(w.root().join(&p)).unwrap();
                    let text = String::from_utf8_lossy(&old);
                    let new =
                        if text.contains("\r\n") { text.replace("\r\n", "\n") } else { text.replace('\n', "\r\n") };
                    w.write(&p, new);
                }
            }
            3 => attributes_file(&w, &mut rng),
            4 => {
                // Stat data refreshed under the conversions of the moment.
                w.git_may_fail(&["-c", "core.safecrlf=false", "status", "--porcelain"]);
            }
            5 => {
                if let Some(p) = some_tracked.filter(|p| present(p)) {
                    let file = std::fs::File::options().write(true).open(w.root().join(&p)).unwrap();
                    let t = file.metadata().unwrap().modified().unwrap() + std::time::Duration::from_secs(3);
                    file.set_modified(t).unwrap();
                }
            }
            6 => conversion_settings(&w, &mut rng),
            7 => {
                w.git_may_fail(&["-c", "core.safecrlf=false", "add", "--renormalize", "."]);
            }
            8 => {
                if let Some(p) = some_tracked.filter(|p| present(p)) {
                    w.git_may_fail(&["-c", "core.safecrlf=false", "add", &p]);
                }
            }
            _ => {
                if let Some(p) = some_tracked.filter(|p| present(p)) {
                    w.write(&p, "");
                }
            }
        }
    }
    w
}
