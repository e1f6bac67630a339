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
    for _ in 0..3 + rng.below(10) {
        change(&w, &mut rng, &tracked, combos);
    }
    w
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
                w.git(&["add", &p]);
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
