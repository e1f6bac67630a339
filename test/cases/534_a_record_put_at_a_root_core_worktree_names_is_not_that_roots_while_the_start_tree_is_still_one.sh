# `git config core.worktree DIR` points the repository at a clean copy of
# its tree (`git archive HEAD | tar -x`), while the tree the task started in
# still holds its uncommitted edit and its untracked file. `check` answered
# unknown, the record gone, and offered `mkdir -p .ai/local/state && cp
# .git/majordomus/task.json ...`; followed at the root git now names (the
# copy), `committed` and `no-untracked` judged the copy and passed. The
# start keeps its root: where git names another root and the start's is
# still a working tree of this same git directory (its `.git` this git
# directory, or a gitfile naming it), the record is not this root's. The
# copy remedy is not offered there, a record copied there is unknown naming
# both roots, and the remedy is `git config --unset core.worktree`. A
# repository moved whole (its old root gone) reads as before (339, 465).
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
echo work >> README
echo 'fn work() {}' > new.rs
echo 'fn a() {}' > a.rs
git add a.rs
git commit -qm a
git push -q origin main

copy="$case_root/copy"
mkdir "$copy"
git archive HEAD | tar -x -C "$copy"
git config core.worktree "$copy"
expect_open committed 'still a working tree of this repository.*git config --unset core.worktree' unknown
ev=$(evidence_of committed)
case "$ev" in *"cp "*) out=$ev; fail "the copy remedy is offered at a root the task did not start in" ;; esac

# The copy remedy followed anyway, at the root git now names.
mkdir -p "$copy/.ai/local/state"
cp .git/majordomus/task.json "$copy/.ai/local/state/task.json"
expect_open committed "$case_root/repo.*$copy|git config --unset core.worktree" unknown
expect_also no-untracked 'git config --unset core.worktree' unknown
expect_run 10 md check
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the record put at the copy"

# The remedy: git names the tree the task started in again, and the work
# left there is owed until committed.
git config --unset core.worktree
expect_open committed 'README'
expect_also no-untracked 'new.rs'
git add README new.rs
git commit -qm "the work"
git push -q origin main
expect_answer committed pass '.'
expect_also no-untracked '.' pass

# A repository moved whole still reads as it did: its old root is gone.
cd "$case_root"
mv repo moved
cd moved
expect_answer committed pass '.'
