//! The named changes applied to clones of real projects: whatever their
//! trees and ignore files hold, the two readings must still agree. Each
//! change is made on a fresh clone of its own.

use super::World;

/// A change to a clone: its name and how to make it.
type Change = (&'static str, fn(&World, &Tree));

/// What the clone holds, to choose paths from.
#[derive(Debug)]
pub struct Tree {
    files: Vec<String>,
}

impl Tree {
    fn read(w: &World) -> Tree {
        let files = w.git(&["ls-files", "-z"]).split('\0').filter(|p| !p.is_empty()).map(String::from).collect();
        Tree { files }
    }

    /// Tracked regular files, every `step`-th one.
    fn some(&self, w: &World, step: usize) -> Vec<String> {
        let regular = |p: &&String| w.root().join(p).symlink_metadata().is_ok_and(|m| m.is_file());
        self.files.iter().filter(regular).step_by(step.max(1)).cloned().collect()
    }

    /// A tracked directory holding a few files, deepest first.
    fn small_dir(&self) -> Option<String> {
        let mut dirs: Vec<&str> = self.files.iter().filter_map(|f| f.rsplit_once('/').map(|(d, _)| d)).collect();
        dirs.dedup();
        dirs.into_iter()
            .rev()
            .find(|d| self.files.iter().filter(|f| f.starts_with(&format!("{d}/"))).count() <= 20)
            .map(String::from)
    }
}

pub const CHANGES: &[Change] = &[
    ("as cloned", |_, _| {}),
    ("edits, deletions, modes, new files", |w, t| {
        for (i, f) in t.some(w, 17).iter().enumerate() {
            match i % 4 {
                0 => w.write(f, "rewritten\n"),
                1 => w.remove(f),
                2 => w.chmod(f, 0o755),
                _ => w.write(&format!("{f}.new"), "new\n"),
            }
        }
        w.write("target/debug/x", "build output\n");
        w.write("scratch/notes.txt", "n\n");
    }),
    ("a tracked directory replaced by a link to a copy", |w, t| {
        if let Some(d) = t.small_dir() {
            std::fs::rename(w.root().join(&d), w.root().join("moved-copy")).unwrap();
            w.symlink(&w.root().join("moved-copy").to_string_lossy(), &d);
        }
    }),
    ("untracked links named by directory-only patterns", |w, _| {
        w.symlink(".", "target");
        w.symlink(".", "tmp-link");
        w.write(".git/info/exclude", "tmp*/\n");
    }),
    ("a literal negation in a deeper ignore file", |w, t| {
        let dir = t.small_dir().unwrap_or_default();
        let old = std::fs::read_to_string(w.root().join(".gitignore")).unwrap_or_default();
        w.write(".gitignore", old + "*.log\n");
        w.write(&format!("{dir}/.gitignore"), "!keep.log\n");
        w.write(&format!("{dir}/keep.log"), "k\n");
        w.write(&format!("{dir}/other.log"), "o\n");
    }),
    ("the excludes files under the committed rules", |w, _| {
        w.write(".git/info/exclude", "*.md\n*.toml\n");
        let old = std::fs::read_to_string(w.root().join(".gitignore")).unwrap_or_default();
        w.write(".gitignore", old + "!README.md\n");
        w.write("README.md.bak/x.md", "x\n");
        w.write("new.md", "x\n");
        w.write("README.md", "changed\n");
    }),
    ("text attributes over touched files", |w, t| {
        w.write(".git/info/attributes", "* text=auto\n*.rs text eol=crlf\n");
        for f in t.some(w, 11) {
            let file = std::fs::File::options().write(true).open(w.root().join(&f)).unwrap();
            let later = file.metadata().unwrap().modified().unwrap() + std::time::Duration::from_secs(5);
            file.set_modified(later).unwrap();
        }
    }),
    ("ignore case with a file renamed in case", |w, t| {
        w.config("core", "ignorecase", "true");
        if let Some(f) = t.some(w, 29).first() {
            let upper = match f.rsplit_once('/') {
                Some((d, n)) => format!("{d}/{}", n.to_uppercase()),
                None => f.to_uppercase(),
            };
            std::fs::rename(w.root().join(f), w.root().join(upper)).unwrap();
        }
    }),
    ("an untracked directory holding an empty .git", |w, _| {
        std::fs::create_dir_all(w.root().join("vendor-copy/.git")).unwrap();
        w.write("vendor-copy/file.rs", "x\n");
        std::fs::create_dir_all(w.root().join("only-dotgit/.git")).unwrap();
    }),
    ("assume-unchanged and skip-worktree files edited", |w, t| {
        let files = t.some(w, 13);
        for (i, f) in files.iter().take(6).enumerate() {
            let bit = if i % 2 == 0 { "--assume-unchanged" } else { "--skip-worktree" };
            w.git(&["update-index", bit, f]);
            w.write(f, "edited under a bit\n");
        }
    }),
    ("a sparse checkout, files outside the cone put back", |w, t| {
        let keep = t.small_dir().unwrap_or_else(|| "src".into());
        w.git(&["sparse-checkout", "set", &keep]);
        if let Some(f) = t.files.iter().find(|f| !f.starts_with(&keep) && f.contains('/')) {
            w.write(f, "outside the cone\n");
        }
    }),
    ("a sparse index", |w, t| {
        let keep = t.small_dir().unwrap_or_else(|| "src".into());
        w.git(&["sparse-checkout", "set", "--sparse-index", &keep]);
        for f in t.files.iter().filter(|f| f.starts_with(&keep)).take(3) {
            w.write(f, "edited in the cone\n");
        }
        w.write(&format!("{keep}/new-file"), "n\n");
    }),
    ("a split index", |w, t| {
        w.git(&["update-index", "--split-index"]);
        for f in t.some(w, 23).iter().take(4) {
            w.write(f, "edited\n");
            w.git(&["add", f]);
        }
        for f in t.some(w, 31).iter().take(3) {
            w.write(f, "edited, not staged\n");
        }
    }),
    ("an excluded directory and a negation beneath it", |w, t| {
        let dir = t.small_dir().unwrap_or_default();
        let old = std::fs::read_to_string(w.root().join(".gitignore")).unwrap_or_default();
        w.write(".gitignore", format!("{old}/{dir}/\n!*.txt\n"));
        w.write(&format!("{dir}/k.txt"), "k\n");
    }),
];

/// Every change on a fresh clone of `source`; the disagreements, named.
pub fn disagreements(source: &str) -> Vec<String> {
    CHANGES
        .iter()
        .filter_map(|(name, change)| {
            let w = World::clone_of(source, &format!("{source}: {name}"));
            let tree = Tree::read(&w);
            change(&w, &tree);
            w.disagreement()
        })
        .collect()
}
