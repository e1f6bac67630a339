//! Named states: every kind of change `git status` distinguishes, and each
//! way the two readings were once found to part.

use super::World;

/// A state: its name and how to build it (the world starts empty).
pub type State = (&'static str, fn(&World));

/// A few tracked files to change.
fn base(w: &World) {
    w.write("README", "hello\n");
    w.write("src/a.rs", "a\n");
    w.write("src/b.rs", "b\n");
    w.write("src/deep/c.rs", "c\n");
    w.write("run.sh", "#!/bin/sh\n");
    w.symlink("src/a.rs", "link");
    w.commit_all("base");
}

pub const CHANGES: &[State] = &[
    ("clean", |w| base(w)),
    ("unborn with untracked and staged files", |w| {
        w.write("first.txt", "1\n");
        w.write("second.txt", "2\n");
        w.git(&["add", "second.txt"]);
    }),
    ("content, mode, type and deletions", |w| {
        base(w);
        w.write("src/a.rs", "a, modified\n");
        w.remove("src/b.rs");
        w.chmod("README", 0o755);
        w.remove("link");
        w.write("link", "now a file\n");
        w.symlink("README", "run.sh");
    }),
    ("same-size rewrite at once", |w| {
        base(w);
        w.write("src/a.rs", "z\n");
    }),
    ("staged, then changed again or deleted", |w| {
        base(w);
        w.write("src/a.rs", "staged\n");
        w.git(&["add", "src/a.rs"]);
        w.write("src/a.rs", "staged, then edited\n");
        w.write("new.txt", "n\n");
        w.git(&["add", "new.txt"]);
        w.remove("new.txt");
        w.git(&["rm", "-q", "--cached", "src/b.rs"]);
        w.git(&["rm", "-q", "src/deep/c.rs"]);
    }),
    ("files tracked under majordomus's own state directory, changed", |w| {
        base(w);
        w.write(".ai/local/kept.txt", "kept\n");
        w.write(".ai/local/gone.txt", "gone\n");
        w.git(&["add", "-f", ".ai/local/kept.txt", ".ai/local/gone.txt"]);
        w.commit_all("tracked under .ai/local");
        w.write(".ai/local/kept.txt", "edited\n");
        w.remove(".ai/local/gone.txt");
        w.write(".ai/local/work.rs", "work\n");
        w.git(&["add", "-f", ".ai/local/work.rs"]);
    }),
    ("intent to add", |w| {
        base(w);
        w.write("ita.txt", "i\n");
        w.git(&["add", "-N", "ita.txt"]);
        w.write("gone-ita.txt", "g\n");
        w.git(&["add", "-N", "gone-ita.txt"]);
        w.remove("gone-ita.txt");
    }),
    ("a file replaced by a directory and a directory by a file", |w| {
        base(w);
        w.remove("README");
        w.write("README/inside.txt", "x\n");
        w.remove("src/deep");
        w.write("src/deep", "now a file\n");
    }),
    ("a tracked directory replaced by a link to a copy of it", |w| {
        base(w);
        std::fs::rename(w.root().join("src"), w.root().join("copy")).unwrap();
        w.symlink("copy", "src");
    }),
    ("an edited file's directory replaced by a link to a copy holding the edit", |w| {
        base(w);
        w.write("src/deep/c.rs", "c, edited\n");
        std::fs::rename(w.root().join("src/deep"), w.root().join("deep-copy")).unwrap();
        w.symlink("../deep-copy", "src/deep");
    }),
    ("a tracked file's directory replaced by a link to a directory", |w| {
        base(w);
        w.write("elsewhere/c.rs", "c\n");
        w.remove("src/deep");
        w.symlink("../elsewhere", "src/deep");
    }),
    ("conflicted merge", |w| {
        w.write("f.txt", "base\n");
        w.commit_all("base");
        w.git(&["checkout", "-q", "-b", "side"]);
        w.write("f.txt", "side\n");
        w.write("only-side.txt", "s\n");
        w.commit_all("side");
        w.git(&["checkout", "-q", "main"]);
        w.write("f.txt", "main\n");
        w.commit_all("main");
        let _ = w.command(w.root()).args(["merge", "-q", "side"]).output();
    }),
    ("a FIFO where a file was and untracked", |w| {
        base(w);
        for rel in ["src/a.rs", "pipe"] {
            w.remove(rel);
            let path = w.root().join(rel);
            let made = Command::new("mkfifo").arg(&path).status().unwrap();
            assert!(made.success());
        }
    }),
    ("file mode ignored", |w| {
        base(w);
        w.config("core", "filemode", "false");
        w.chmod("README", 0o755);
        w.chmod("run.sh", 0o644);
    }),
    ("odd names", |w| {
        w.write("sp ace/tab\tname.txt", "1\n");
        w.write("quote\"d/uni\u{e9}.txt", "2\n");
        w.write("-dash/#hash", "3\n");
        w.commit_all("odd");
        w.write("sp ace/tab\tname.txt", "1, changed\n");
        w.write("quote\"d/new \u{e9}.txt", "4\n");
        w.write("-dash/[br]acket", "5\n");
    }),
    ("names that are not UTF-8: tracked, untracked, ignored, and a directory", |w| {
        use std::os::unix::ffi::OsStrExt;
        let put = |rel: &[u8], content: &str| {
            let path = w.root().join(std::ffi::OsStr::from_bytes(rel));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, content).unwrap();
        };
        w.write(".gitignore", "*.log\n");
        put(b"caf\xe9.txt", "1\n");
        put(b"dir-\xff/inner.txt", "2\n");
        put(b"gone-\xfe.txt", "3\n");
        w.commit_all("latin-1 names");
        put(b"caf\xe9.txt", "1, changed\n");
        std::fs::remove_file(w.root().join(std::ffi::OsStr::from_bytes(b"gone-\xfe.txt"))).unwrap();
        put(b"new-\x80\x81.txt", "4\n");
        put(b"dir-\xff/new-\xfa.txt", "5\n");
        put(b"ignored-\xe9.log", "6\n");
        put(b"ctrl-\x01\x1b.txt", "7\n");
    }),
    ("untracked nested repositories, a .git file and an empty .git directory", |w| {
        base(w);
        w.git(&["init", "-q", "nested"]);
        w.write("nested/file", "x\n");
        std::fs::create_dir_all(w.root().join("not-a-repo/.git")).unwrap();
        std::fs::create_dir_all(w.root().join("also-not/.git")).unwrap();
        w.write("also-not/file.txt", "listed\n");
        w.write("half/.git/HEAD", "ref: refs/heads/main\n");
        w.write("gitfile/.git", "gitdir: ../nested/.git\n");
        w.write("bad-gitfile/.git", "gitdir: nowhere\n");
        w.write("bad-gitfile/inside.txt", "listed\n");
    }),
    ("a tracked file replaced by a repository", |w| {
        base(w);
        w.remove("README");
        w.git(&["init", "-q", "README"]);
        w.write("README/x", "x\n");
        w.git_in(&w.root().join("README"), &["add", "x"]);
        w.git_in(&w.root().join("README"), &["commit", "-q", "-m", "x"]);
    }),
    ("directories named .GIT and .Git", |w| {
        w.write("sub/.GIT/x", "x\n");
        w.write(".Git/y", "y\n");
        w.write("z.txt", "z\n");
    }),
    ("directories named .GIT and .Git under core.ignoreCase", |w| {
        w.config("core", "ignorecase", "true");
        w.write("sub/.GIT/x", "x\n");
        w.write(".Git/y", "y\n");
        w.write("z.txt", "z\n");
    }),
    ("an untracked file at a path of over 4,000 bytes", |w| {
        let seg = "d".repeat(200);
        let mut p = String::new();
        for _ in 0..20 {
            p.push_str(&seg);
            p.push('/');
        }
        p.push_str("f.txt");
        std::fs::create_dir_all(w.root().join(&p).parent().unwrap()).unwrap();
        std::fs::write(w.root().join(&p), "x").unwrap();
        w.write("z.txt", "z\n");
    }),
    ("a link replaced by a file holding its target", |w| {
        w.write("t.txt", "t\n");
        w.symlink("t.txt", "l");
        w.commit_all("base");
        w.remove("l");
        w.write("l", "t.txt");
    }),
    ("names with a backslash, a trailing space and a line end", |w| {
        w.write("a\\b/c", "x\n");
        w.write("sp /x", "x\n");
        w.commit_all("base");
        w.write("a\\b/c", "y\n");
        w.write("new\nline", "y\n");
    }),
    ("an ignored directory holding a tracked file, a negation under it", |w| {
        w.write("lib/keep.txt", "k\n");
        w.commit_all("base");
        w.write(".gitignore", "lib\n!lib/new.txt\n");
        w.write("lib/new.txt", "n\n");
        w.write("lib/x/y.txt", "n\n");
    }),
    ("a linked worktree inside the working tree", |w| {
        w.write("a.txt", "a\n");
        w.commit_all("base");
        w.git(&["worktree", "add", "-q", "inner", "-b", "other"]);
        w.write("inner/new.txt", "n\n");
    }),
    ("a repository initialised in a tracked directory, files new beside its tracked ones", |w| {
        w.write("src/a.rs", "a\n");
        w.write("src/deep/b.rs", "b\n");
        w.commit_all("base");
        w.git(&["init", "-q", "src"]);
        w.write("src/new.rs", "n\n");
        w.write("src/deep/new.rs", "n\n");
        w.write("src/a.rs", "a, changed\n");
    }),
    ("a .git file naming this repository in a tracked directory", |w| {
        w.write("src/a.rs", "a\n");
        w.commit_all("base");
        w.write("src/.git", "gitdir: ../.git\n");
        w.write("src/new.rs", "n\n");
        w.write("src/x/new.rs", "n\n");
    }),
    ("a .git file naming another repository in a tracked directory", |w| {
        w.write("src/a.rs", "a\n");
        w.commit_all("base");
        // Another repository, kept inside this one's git directory.
        let other = w.root().join(".git/other");
        w.git(&["init", "-q", other.to_str().unwrap()]);
        w.write("src/.git", format!("gitdir: {}/.git\n", other.display()));
        w.write("src/new.rs", "n\n");
    }),
    ("a repository initialised above a tracked file's directory", |w| {
        w.write("lib/x/keep.txt", "k\n");
        w.commit_all("base");
        w.git(&["init", "-q", "lib"]);
        w.write("lib/y/new.txt", "n\n");
        w.write("lib/top.txt", "n\n");
    }),
    ("submodules whose ignore .gitmodules sets: all, untracked, dirty, none", |w| {
        let inner = World::new("inner");
        inner.write("x.txt", "x\n");
        inner.commit_all("x");
        let url = inner.root().to_str().unwrap().to_string();
        w.write("README", "r\n");
        w.commit_all("r");
        for name in ["all", "untracked", "dirty", "none"] {
            w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", &url, name]);
            w.git(&["config", "-f", ".gitmodules", &format!("submodule.{name}.ignore"), name]);
        }
        w.commit_all("subs");
        for name in ["all", "untracked", "dirty", "none"] {
            std::fs::write(w.root().join(name).join("x.txt"), "changed\n").unwrap();
            std::fs::write(w.root().join(name).join("new.txt"), "n\n").unwrap();
        }
        inner.write("x.txt", "x2\n");
        inner.commit_all("x2");
    }),
    ("diff.ignoreSubmodules all", |w| {
        let inner = World::new("inner");
        inner.write("x.txt", "x\n");
        inner.commit_all("x");
        let url = inner.root().to_str().unwrap().to_string();
        w.write("README", "r\n");
        w.commit_all("r");
        for name in ["a", "b"] {
            w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", &url, name]);
        }
        w.commit_all("subs");
        w.config("diff", "ignoreSubmodules", "all");
        std::fs::write(w.root().join("a/x.txt"), "changed\n").unwrap();
        std::fs::write(w.root().join("b/new.txt"), "n\n").unwrap();
    }),
    ("a submodule's own submodule, edited", |w| {
        nested_submodule(w);
        std::fs::write(w.root().join("mid/leaf/l.txt"), "changed\n").unwrap();
    }),
    ("a submodule's own submodule, a new file in it", |w| {
        nested_submodule(w);
        std::fs::write(w.root().join("mid/leaf/new.txt"), "changed\n").unwrap();
    }),
    ("a submodule whose index differs but whose files do not", |w| {
        let inner = World::new("inner");
        inner.write("x.txt", "x\n");
        inner.commit_all("x");
        w.write("README", "r\n");
        w.commit_all("r");
        w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.root().to_str().unwrap(), "s"]);
        w.commit_all("subs");
        std::fs::write(w.root().join("s/x.txt"), "changed\n").unwrap();
        w.git_in(&w.root().join("s"), &["add", "x.txt"]);
        std::fs::write(w.root().join("s/x.txt"), "x\n").unwrap();
    }),
    ("a submodule replaced by a file", |w| {
        let inner = World::new("inner");
        inner.write("x.txt", "x\n");
        inner.commit_all("x");
        w.write("README", "r\n");
        w.commit_all("r");
        w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.root().to_str().unwrap(), "s"]);
        w.commit_all("subs");
        w.remove("s");
        w.write("s", "file\n");
    }),
    ("a submodule on an unborn branch, another holding a new repository", |w| {
        let inner = World::new("inner");
        inner.write("x.txt", "x\n");
        inner.commit_all("x");
        w.write("README", "r\n");
        w.commit_all("r");
        w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.root().to_str().unwrap(), "s"]);
        w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.root().to_str().unwrap(), "t"]);
        w.config("submodule.t", "ignore", "untracked");
        w.commit_all("subs");
        w.git_in(&w.root().join("s"), &["checkout", "-q", "--orphan", "fresh"]);
        w.git_in(&w.root().join("t"), &["init", "-q", "deeper"]);
    }),
    ("a repository initialised at a tracked directory that holds a submodule", |w| {
        let inner = World::new("inner");
        inner.write("x.txt", "x\n");
        inner.commit_all("x");
        w.write("lib/a.txt", "a\n");
        w.commit_all("r");
        w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.root().to_str().unwrap(), "lib/s"]);
        w.commit_all("subs");
        w.git(&["init", "-q", "lib"]);
        w.write("lib/new.txt", "n\n");
    }),
];

pub const SETTINGS: &[State] = &[
    ("assume-unchanged, edited and deleted", |w| {
        base(w);
        w.git(&["update-index", "--assume-unchanged", "src/a.rs", "src/b.rs"]);
        w.write("src/a.rs", "edited under the bit\n");
        w.remove("src/b.rs");
    }),
    ("skip-worktree without a sparse checkout", |w| {
        base(w);
        w.git(&["update-index", "--skip-worktree", "src/a.rs", "src/b.rs"]);
        w.write("src/a.rs", "edited under the bit\n");
        w.remove("src/b.rs");
    }),
    ("sparse checkout, files outside the cone put back", |w| {
        base(w);
        w.write("other/out.txt", "out\n");
        w.write("other/kept.txt", "kept\n");
        w.commit_all("other");
        w.git(&["sparse-checkout", "set", "src"]);
        w.write("other/out.txt", "out, edited\n");
        w.write("other/kept.txt", "kept\n");
        w.write("other/new.txt", "untracked outside\n");
    }),
    ("sparse checkout expecting files outside the cone", |w| {
        base(w);
        w.write("other/out.txt", "out\n");
        w.commit_all("other");
        w.git(&["sparse-checkout", "set", "src"]);
        w.config("sparse", "expectFilesOutsideOfPatterns", "true");
        w.write("other/out.txt", "out, edited\n");
    }),
    ("sparse checkout, a file inside the cone deleted under a skip-worktree bit", |w| {
        base(w);
        w.write("other/out.txt", "out\n");
        w.commit_all("other");
        w.git(&["sparse-checkout", "set", "src"]);
        w.remove("src/a.rs");
        w.git(&["update-index", "--skip-worktree", "src/a.rs"]);
    }),
    ("no symbolic links, a sparse checkout narrowed, a file inside it deleted under a bit", |w| {
        base(w);
        w.config("core", "symlinks", "false");
        w.write("other/out.txt", "out\n");
        w.write("other/deep/x.txt", "x\n");
        w.commit_all("other");
        w.git(&["sparse-checkout", "set", "src", "other"]);
        w.git(&["sparse-checkout", "set", "src"]);
        w.remove("src/a.rs");
        w.git(&["update-index", "--skip-worktree", "src/a.rs"]);
        w.write("src/new.rs", "new\n");
    }),
    ("sparse index", |w| {
        base(w);
        w.write("other/deep/out.txt", "out\n");
        w.write("other/x.txt", "x\n");
        w.commit_all("other");
        w.git(&["sparse-checkout", "set", "--sparse-index", "src"]);
        w.write("src/a.rs", "in the cone, edited\n");
        w.write("src/new.rs", "new\n");
    }),
    ("split index", |w| {
        base(w);
        w.git(&["update-index", "--split-index"]);
        w.write("src/a.rs", "edited\n");
        w.write("added.txt", "a\n");
        w.git(&["add", "added.txt"]);
        w.git(&["rm", "-q", "src/b.rs"]);
        w.write("untracked.txt", "u\n");
    }),
    ("index versions 3 and 4 with an untracked cache", |w| {
        base(w);
        w.git(&["update-index", "--index-version", "4", "--untracked-cache"]);
        w.config("core", "untrackedCache", "true");
        w.git(&["status", "-uall"]);
        w.write("src/a.rs", "edited\n");
        w.write("src/new.rs", "n\n");
    }),
    ("ignore case on a case-sensitive filesystem", |w| {
        base(w);
        w.config("core", "ignorecase", "true");
        std::fs::rename(w.root().join("src/a.rs"), w.root().join("src/A.rs")).unwrap();
        std::fs::rename(w.root().join("src/deep"), w.root().join("src/Deep")).unwrap();
        w.write("NEW.txt", "n\n");
    }),
    ("no symbolic links: links checked out as files", |w| {
        w.config("core", "symlinks", "false");
        w.write("target.txt", "t\n");
        w.symlink("target.txt", "link");
        w.symlink("target.txt", "link2");
        w.commit_all("links");
        w.remove("link");
        w.write("link", "target.txt");
        w.remove("link2");
        w.write("link2", "elsewhere.txt");
        w.write("new.txt", "n\n");
    }),
    ("autocrlf true with CRLF and LF files", |w| {
        w.config("core", "autocrlf", "true");
        w.write("crlf.txt", "one\r\ntwo\r\n");
        w.write("lf.txt", "one\ntwo\n");
        w.commit_all("eol");
        w.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
        w.write("lf.txt", "one\r\ntwo\r\n");
    }),
    ("CRLF committed before the text attribute, then touched", |w| {
        w.write("a.txt", "line\r\n");
        w.write("b.txt", "line\r\n");
        // Older than the index: not re-read (and so not converted) when the attribute is committed.
        age(w, "a.txt");
        age(w, "b.txt");
        w.commit_all("crlf");
        w.write(".gitattributes", "*.txt text\n");
        w.commit_all("attributes");
        touch_later(w, "a.txt");
    }),
    ("CRLF committed before info/attributes said text, then touched", |w| {
        w.write("a.txt", "line\r\n");
        w.commit_all("crlf");
        w.write(".git/info/attributes", "*.txt text\n");
        touch_later(w, "a.txt");
    }),
    (
        "Git LFS files: committed at once, touched, edited at their size, and beside a pointer naming other content",
        lfs_files,
    ),
    ("Git LFS files read through libgit2 (no symbolic links)", |w| {
        w.config("core", "symlinks", "false");
        lfs_files(w);
    }),
    ("an ident attribute", |w| {
        w.write(".gitattributes", "*.c ident\n");
        w.write("a.c", "/* $Id$ */\n");
        w.commit_all("ident");
        w.write("a.c", "/* $Id: 0123456789012345678901234567890123456789 $ */\n");
    }),
    ("files kept as UTF-16 and UTF-32 (working-tree-encoding): clean, touched, edited", |w| {
        w.write(
            ".gitattributes",
            "*.le text working-tree-encoding=UTF-16LE\n*.bom text eol=crlf working-tree-encoding=UTF-16\n*.u32 working-tree-encoding=UTF-32BE\n",
        );
        w.write("a.le", utf16le("h\u{e9}llo\n"));
        w.write("b.le", utf16le("kept\n"));
        w.write("c.bom", [&[0xff, 0xfe][..], &utf16le("one\r\ntwo\r\n")].concat());
        w.write("d.u32", "x\n".chars().flat_map(|c| u32::from(c).to_be_bytes()).collect::<Vec<u8>>());
        w.commit_all("encodings");
        // Touched (content unchanged, stat data not the index's), edited, and racy.
        touch_later(w, "a.le");
        touch_later(w, "c.bom");
        touch_later(w, "d.u32");
        w.write("b.le", utf16le("edited\n"));
    }),
    ("files kept as UTF-16 under the older crlf attribute, unstaged back to stat data git must not trust", |w| {
        w.config("core", "autocrlf", "true");
        w.write(
            ".gitattributes",
            "*.bin working-tree-encoding=UTF-16LE -crlf\n*.in working-tree-encoding=UTF-16LE crlf=input\n*.txt working-tree-encoding=UTF-16LE crlf\n",
        );
        for name in ["a.bin", "b.in", "c.txt"] {
            w.write(name, utf16le("x\n"));
        }
        w.commit_all("encodings");
        // CRLF in each, staged and unstaged again: the entries' stat data
        // is then the tree's (none), and git compares the content.
        for name in ["a.bin", "b.in", "c.txt"] {
            w.write(name, utf16le("x\r\n"));
        }
        w.git(&["-c", "core.safecrlf=false", "add", "a.bin", "b.in", "c.txt"]);
        w.git(&["restore", "--staged", "a.bin", "b.in", "c.txt"]);
    }),
    ("an entry whose times hold no nanoseconds, edited within its second", nanoseconds_lost),
    ("submodules: clean, moved, dirty, untracked, gone and not checked out", submodules),
    ("an attributes file that is a symbolic link, which git does not follow", |w| {
        w.write("real-attrs", "* text\n");
        w.symlink("real-attrs", ".gitattributes");
        w.write("a.txt", "x\n");
        w.commit_all("base");
        w.write("a.txt", "x\r\n");
    }),
    ("a deeper attributes file that is a symbolic link", |w| {
        w.write("real-attrs", "* text\n");
        w.symlink("../real-attrs", "sub/.gitattributes");
        w.write("sub/a.txt", "x\n");
        w.commit_all("base");
        w.write("sub/a.txt", "x\r\n");
    }),
    ("the older crlf attribute unset under core.autocrlf", |w| {
        w.config("core", "autocrlf", "true");
        w.write(".gitattributes", "*.bat -crlf\n");
        w.write("a.bat", "x\n");
        w.commit_all("base");
        w.write("a.bat", "x\r\n");
    }),
    ("the older crlf attribute set and set to input", |w| {
        w.write(".gitattributes", "*.bat crlf=input\n*.cmd crlf\n");
        w.write("a.bat", "x\n");
        w.write("a.cmd", "x\n");
        w.commit_all("base");
        w.write("a.bat", "x\r\n");
        w.write("a.cmd", "x\r\n");
    }),
    ("text=auto over CRLF the index holds, touched", |w| {
        w.write("a.txt", "line\r\n");
        age(w, "a.txt");
        w.commit_all("crlf");
        w.write(".gitattributes", "*.txt text=auto\n");
        w.commit_all("attributes");
        touch_later(w, "a.txt");
    }),
    ("text=auto over CRLF the index holds, line ends turned over", |w| {
        w.write("a.txt", "line\r\n");
        w.write("b.txt", "line\n");
        w.commit_all("crlf");
        w.write(".gitattributes", "*.txt text=auto\n");
        w.commit_all("attributes");
        w.write("a.txt", "line\n");
        w.write("b.txt", "line\r\n");
    }),
    ("core.safecrlf over mixed line ends", |w| {
        w.config("core", "autocrlf", "true");
        w.write("a.txt", "x\n");
        w.commit_all("base");
        w.config("core", "safecrlf", "true");
        w.write("a.txt", "x\r\ny\n");
    }),
    ("ident keywords cut by a line end or left empty", |w| {
        w.write(".gitattributes", "*.c ident\n");
        w.write("a.c", "$Id$\n");
        w.write("b.c", "$Id$ x\n");
        w.write("c.c", "a $Id$\n");
        w.commit_all("ident");
        w.write("a.c", "$Id: a\nb $\n");
        w.write("b.c", "$Id:$ x\n");
        w.write("c.c", "a $Id: foo bar $\n");
    }),
    ("ident keywords in odd forms", |w| {
        w.write(".gitattributes", "*.c ident\n");
        w.write("a.c", "$Id$\n");
        w.write("b.c", "$Id$\n");
        w.write("d.c", "$Id$$\n");
        w.commit_all("ident");
        w.write("a.c", "$Id: \r $\n");
        w.write("b.c", "$Idx$\n");
        w.write("d.c", "$Id: 1 $ $Id: 2 $\n");
    }),
    ("an attribute macro defined below the root, which git does not define", |w| {
        w.write("sub/.gitattributes", "[attr]mine text\n*.txt mine\n");
        w.write("sub/a.txt", "x\n");
        w.commit_all("base");
        w.write("sub/a.txt", "x\r\n");
    }),
    ("attribute macros at the root, binary among them", |w| {
        w.write(".gitattributes", "[attr]mine text\n*.txt mine\n*.bin binary\n");
        w.write("a.txt", "x\n");
        w.write("b.bin", "x\n");
        w.commit_all("base");
        w.write("a.txt", "x\r\n");
        w.write("b.bin", "x\r\n");
    }),
    ("a negative pattern in an attributes file, which git ignores", |w| {
        w.write(".gitattributes", "* text\n!*.txt text\n");
        w.write("a.txt", "x\n");
        w.commit_all("base");
        w.write("a.txt", "x\r\n");
    }),
    ("directory patterns in an attributes file", |w| {
        w.write(".gitattributes", "sub/ text\nsub2/** text\n");
        w.write("sub/a.txt", "x\n");
        w.write("sub2/a.txt", "x\n");
        w.commit_all("base");
        w.write("sub/a.txt", "x\r\n");
        w.write("sub2/a.txt", "x\r\n");
    }),
    ("attribute patterns under core.ignoreCase", |w| {
        w.config("core", "ignorecase", "true");
        w.write(".gitattributes", "*.TXT text\n");
        w.write("a.txt", "x\n");
        w.commit_all("base");
        w.write("a.txt", "x\r\n");
    }),
    ("a mode change staged by update-index --chmod under core.fileMode false", |w| {
        w.config("core", "filemode", "false");
        w.write("a.sh", "x\n");
        w.commit_all("base");
        w.git(&["update-index", "--chmod=+x", "a.sh"]);
    }),
    ("executable bits on new and tracked files under core.fileMode false", |w| {
        w.config("core", "filemode", "false");
        w.write("a.sh", "x\n");
        w.commit_all("base");
        w.write("b.sh", "x\n");
        w.chmod("b.sh", 0o755);
        w.git(&["add", "b.sh"]);
        w.chmod("b.sh", 0o644);
        w.chmod("a.sh", 0o755);
    }),
    ("fsmonitor-valid bits left in the index by a monitor that saw nothing", |w| {
        w.write("a.txt", "a\n");
        w.write("b.txt", "b\n");
        w.commit_all("base");
        let hook = w.root().join(".git/fsm.sh");
        std::fs::write(&hook, "#!/bin/sh\nprintf 'token\\0'\n").unwrap();
        w.chmod(".git/fsm.sh", 0o755);
        w.config("core", "fsmonitor", hook.to_str().unwrap());
        w.git_may_fail(&["status"]);
        w.git_may_fail(&["status"]);
        w.write("a.txt", "changed\n");
        w.write("c.txt", "new\n");
    }),
    ("an index written under index.skipHash", |w| {
        w.config("index", "skipHash", "true");
        w.write("a.txt", "a\n");
        w.commit_all("base");
        w.write("a.txt", "changed\n");
    }),
    ("a conflict resolved and staged, its resolve-undo kept", |w| {
        w.write("f.txt", "base\n");
        w.commit_all("base");
        w.git(&["checkout", "-q", "-b", "side"]);
        w.write("f.txt", "side\n");
        w.commit_all("side");
        w.git(&["checkout", "-q", "main"]);
        w.write("f.txt", "main\n");
        w.commit_all("main");
        let _ = w.command(w.root()).args(["merge", "-q", "side"]).output();
        w.write("f.txt", "resolved\n");
        w.git(&["add", "f.txt"]);
    }),
    ("an untracked cache made stale by a directory time put back", |w| {
        w.config("core", "untrackedCache", "true");
        w.write("d/a.txt", "a\n");
        w.commit_all("base");
        w.git(&["update-index", "--untracked-cache"]);
        let m = std::fs::metadata(w.root().join("d")).unwrap().modified().unwrap();
        w.git(&["status", "-uall", "--porcelain"]);
        w.write("d/new.txt", "n\n");
        std::fs::File::open(w.root().join("d")).unwrap().set_modified(m).unwrap_or(());
    }),
];

/// Objects under Git LFS: committed at once, touched, edited at their
/// size, and one edited beside a pointer of its size.
fn lfs_files(w: &World) {
    lfs(w);
    w.write("at-once.bin", "object one\n");
    w.write("touched.bin", "object two\n");
    w.write("edited.bin", "object three\n");
    w.write("other.bin", "object four\n");
    w.commit_all("objects");
    touch_later(w, "touched.bin");
    w.write("edited.bin", "object THREE\n");
    touch_later(w, "edited.bin");
    // The pointer names the object's size but not its content.
    w.write("other.bin", "object FOUR\n");
    touch_later(w, "other.bin");
    w.write("new.bin", "untracked\n");
}

/// Git LFS's clean filter, as git-lfs writes its pointer (the object's
/// SHA-256 and size), set up for `*.bin`: git runs it, majordomus never.
fn lfs(w: &World) {
    let script = w.root().join(".git/lfs-clean");
    std::fs::write(
        &script,
        "#!/bin/sh\nt=$(mktemp); cat > \"$t\"\nprintf 'version https://git-lfs.github.com/spec/v1\\noid sha256:%s\\nsize %s\\n' \"$(sha256sum \"$t\" | cut -d' ' -f1)\" \"$(wc -c < \"$t\" | tr -d ' ')\"\nrm -f \"$t\"\n",
    )
    .unwrap();
    w.chmod(".git/lfs-clean", 0o755);
    w.config("filter.lfs", "clean", script.to_str().unwrap());
    w.config("filter.lfs", "smudge", "cat");
    w.config("filter.lfs", "required", "true");
    w.write(".gitattributes", "*.bin filter=lfs diff=lfs merge=lfs -text\n");
}

/// `text` as UTF-16, little-endian, no byte order mark.
fn utf16le(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// Moves a file's modification time a minute back, content unchanged.
fn age(w: &World, rel: &str) {
    let file = std::fs::File::options().write(true).open(w.root().join(rel)).unwrap();
    let t = file.metadata().unwrap().modified().unwrap() - std::time::Duration::from_secs(60);
    file.set_modified(t).unwrap();
}

/// Moves a file's modification time a few seconds on, content unchanged.
fn touch_later(w: &World, rel: &str) {
    let path = w.root().join(rel);
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    let t = file.metadata().unwrap().modified().unwrap() + std::time::Duration::from_secs(5);
    file.set_modified(t).unwrap();
}

use std::process::Command;

/// What a whole-second filesystem leaves in the index (an entry with no
/// nanoseconds, the index file itself with them), then a same-size edit
/// in the same second: git's racy check must re-read the file.
fn nanoseconds_lost(w: &World) {
    use std::os::unix::fs::MetadataExt;
    w.write("a.txt", "aaaa\n");
    w.commit_all("a");
    w.git(&["update-index", "--index-version", "2"]);
    w.write("a.txt", "bbbb\n");
    let second = 1_700_000_000u64;
    let at = |s: u64, ns: u32| std::time::UNIX_EPOCH + std::time::Duration::new(s, ns);
    let file = std::fs::File::options().write(true).open(w.root().join("a.txt")).unwrap();
    file.set_modified(at(second, 0)).unwrap();
    let meta = std::fs::symlink_metadata(w.root().join("a.txt")).unwrap();
    let index_path = w.root().join(".git/index");
    let mut bytes = std::fs::read(&index_path).unwrap();
    let count = u32::from_be_bytes(bytes[8..12].try_into().unwrap());
    let mut at_entry = 12;
    for _ in 0..count {
        let name_end = bytes[at_entry + 62..].iter().position(|c| *c == 0).unwrap();
        let name = bytes[at_entry + 62..at_entry + 62 + name_end].to_vec();
        if name == b"a.txt" {
            let put = |b: &mut Vec<u8>, field: usize, v: u32| {
                b[at_entry + 4 * field..at_entry + 4 * field + 4].copy_from_slice(&v.to_be_bytes())
            };
            put(&mut bytes, 0, meta.ctime() as u32);
            put(&mut bytes, 1, 0);
            put(&mut bytes, 2, second as u32);
            put(&mut bytes, 3, 0);
            put(&mut bytes, 5, meta.ino() as u32);
        }
        at_entry += (62 + name_end + 8) & !7;
    }
    // A trailing checksum of zeros is one git does not verify.
    let len = bytes.len();
    bytes[len - 20..].fill(0);
    std::fs::write(&index_path, &bytes).unwrap();
    let index = std::fs::File::options().write(true).open(&index_path).unwrap();
    index.set_modified(at(second, 500_000_000)).unwrap();
}

/// A submodule `mid` holding a submodule `leaf` of its own, both checked
/// out and committed.
fn nested_submodule(w: &World) {
    let leaf = World::new("leaf");
    leaf.write("l.txt", "l\n");
    leaf.commit_all("l");
    let mid = World::new("mid");
    mid.write("m.txt", "m\n");
    mid.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", leaf.root().to_str().unwrap(), "leaf"]);
    mid.commit_all("m");
    w.write("README", "r\n");
    w.commit_all("r");
    w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", mid.root().to_str().unwrap(), "mid"]);
    w.git(&["-c", "protocol.file.allow=always", "submodule", "update", "--init", "--recursive"]);
    w.commit_all("subs");
}

fn submodules(w: &World) {
    let inner = World::new("inner");
    inner.write("x.txt", "x\n");
    inner.commit_all("x");
    inner.write("x.txt", "x2\n");
    inner.commit_all("x2");
    let url = inner.root().to_str().unwrap().to_string();
    w.write("README", "r\n");
    w.commit_all("r");
    for name in ["clean", "moved", "dirty", "untracked", "gone", "ignored-dirty"] {
        w.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", &url, name]);
    }
    w.config("submodule.ignored-dirty", "ignore", "dirty");
    w.commit_all("submodules");
    let sub = |name: &str| w.root().join(name);
    w.git_in(&sub("moved"), &["checkout", "-q", "HEAD~1"]);
    std::fs::write(sub("dirty").join("x.txt"), "changed\n").unwrap();
    std::fs::write(sub("ignored-dirty").join("x.txt"), "changed\n").unwrap();
    std::fs::write(sub("untracked").join("new.txt"), "new\n").unwrap();
    std::fs::remove_dir_all(sub("gone")).unwrap();
    // A submodule recorded but never checked out: an empty directory.
    w.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{},uninit", w.git(&["rev-parse", "HEAD:clean"]).trim()),
    ]);
    std::fs::create_dir_all(sub("uninit")).unwrap();
}

pub const IGNORES: &[State] = &[
    ("a directory-only pattern and links named by it", |w| {
        w.write(".gitignore", "build/\ntmp*/\n*.log\n");
        w.write("src/a.rs", "a\n");
        w.commit_all("ignore");
        w.write("build/out.o", "o\n");
        w.symlink("src", "target");
        w.symlink("src", "tmp-link");
        w.symlink("build", "sub/build");
        w.write("tmpdir/x", "x\n");
        w.write("x.log", "l\n");
    }),
    ("a literal negation in a deeper file", |w| {
        w.write(".gitignore", "*.log\n");
        w.write("sub/.gitignore", "!keep.log\n");
        w.commit_all("ignore");
        w.write("sub/keep.log", "k\n");
        w.write("sub/other.log", "o\n");
        w.write("keep.log", "root\n");
    }),
    ("the excludes file and info/exclude under .gitignore's negations", |w| {
        w.write(".gitignore", "!important.log\n!kept.tmp\n");
        w.commit_all("ignore");
        w.write(".git/info/exclude", "*.tmp\n!x.log\n");
        let excludes = w.root().join(".git/my-excludes");
        std::fs::write(&excludes, "*.log\n*.bak\n").unwrap();
        w.config("core", "excludesFile", excludes.to_str().unwrap());
        for f in ["important.log", "x.log", "y.log", "kept.tmp", "z.tmp", "a.bak"] {
            w.write(f, "1\n");
        }
    }),
    ("no re-inclusion under an excluded directory", |w| {
        w.write(".gitignore", "a/\n!*.txt\nb/*\n!b/keep.txt\nc\n!c/x.txt\n");
        w.write("a/tracked.txt", "t\n");
        w.git(&["add", "-f", "a/tracked.txt"]);
        w.commit_all("ignore");
        w.write("a/k.txt", "k\n");
        w.write("a/deep/k.txt", "k\n");
        w.write("b/keep.txt", "k\n");
        w.write("b/other.txt", "o\n");
        w.write("c/x.txt", "x\n");
    }),
    ("ignore files with a BOM, CRLF, escapes, trailing spaces and a link", |w| {
        w.write(".gitignore", "\u{feff}*.bom\r\n\\#hash\r\ntrail   \n\\!bang\nspace\\ \n# comment\n");
        w.write("real-rules", "*.viaLink\n");
        w.symlink("../real-rules", "sub/.gitignore");
        w.commit_all("ignore");
        for f in ["a.bom", "#hash", "trail", "!bang", "space ", "space", "sub/x.viaLink", "x.viaLink"] {
            w.write(f, "1\n");
        }
    }),
    ("anchored, double-star and set patterns at several depths", |w| {
        w.write(".gitignore", "/top\nsrc/**/gen\n**/cache/\n[Tt]emp*\n?.o\ndocs/*.md\n!docs/keep.md\n");
        w.write("src/.gitignore", "*.out\n!/keep.out\n");
        w.write("src/deep/.gitignore", "!*.out\n");
        w.write("src/main.rs", "m\n");
        w.commit_all("ignore");
        for f in [
            "top",
            "sub/top",
            "src/a/b/gen",
            "src/gen",
            "gen",
            "x/cache/f",
            "cache",
            "Temp1",
            "temp2",
            "a.o",
            "ab.o",
            "docs/a.md",
            "docs/keep.md",
            "docs/sub/b.md",
            "src/a.out",
            "src/keep.out",
            "src/x/keep.out",
            "src/deep/z.out",
        ] {
            w.write(f, "1\n");
        }
    }),
    ("a skip-worktree .gitignore read from the index", |w| {
        w.write("sub/.gitignore", "*.gen\n");
        w.write("sub/a.txt", "a\n");
        w.commit_all("ignore");
        w.git(&["update-index", "--skip-worktree", "sub/.gitignore"]);
        w.remove("sub/.gitignore");
        w.write("sub/x.gen", "x\n");
    }),
];
