#!/usr/bin/env bash
# README, "Whose work it is": what a fetch brought is not the task's, and
# nothing else escapes with it. A task scoped to src and tests, in a
# repository of its own each time, edits docs (outside its scope) and:
# pulls a colleague's commit to the same file; makes the colleague's very
# edit, which `git pull --rebase` then drops as already upstream; copies a
# colleague's file by hand; merges its own work made in another clone
# through a remote-tracking ref moved by hand or fetched from elsewhere;
# pushes a branch a colleague merges, then pulls it back. Each time
# `scoped` names the task's path, and only it: the colleague's own docs
# file, which a fetch brought, is not judged. (Before, every path HEAD
# held other than the start commit was the task's, the colleague's too.)
# The same of a debt baseline: a colleague's entry pulled is theirs
# (`no-new-debt` was refused naming it), the task's own beside it the task's.
source "$(dirname "$0")/../lib.sh" || exit 2

cat > "$case_root/policy.toml" <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"
TOML

# fresh NAME: a repository of its own, pushed to its own origin, with a
# colleague's clone ($colleague); the task started there, scoped.
fresh() {
  cd "$case_root"
  git init -q -b main "$1" && cd "$1"
  mkdir -p .ai/repo src docs
  cp "$case_root/policy.toml" .ai/repo/majordomus.toml
  echo "fn a() {}" > src/lib.rs
  printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n' > docs/shared.md
  printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
  commit_all "initial"
  git init -q --bare -b main "$case_root/$1.git"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
  colleague=$case_root/$1-colleague
  git clone -q "$case_root/$1.git" "$colleague"
  expect_run 0 md start "fix a" --scope src --scope tests
}

# colleague MESSAGE SCRIPT [push|keep]: the colleague runs SCRIPT in their
# clone and commits, and pushes unless told to keep it.
colleague() {
  (cd "$colleague" &&
    export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_EMAIL=c@example.com &&
    git pull -q --rebase && sh -c "$2" && git add -A && git commit -q -m "$1" &&
    if [ "${3:-push}" = push ]; then git push -q origin main; fi)
}

only_mine() {
  expect_run 10 md check
  expect_open scoped "^1 path changed since the start lies outside the scope src, tests: $1\..*Not judged: .*docs/theirs\.md" "refused"
}

# The task's edit, then a colleague's commit to the same file pulled over it.
fresh edited
sed -i 's/^1$/one/' docs/shared.md
commit_all "mine"
colleague "theirs" 'sed -i "s/^10$/ten/" docs/shared.md; echo t > docs/theirs.md'
git pull -q --rebase
only_mine docs/shared.md

# The colleague's very edit, made by the task too: the rebase drops the
# task's commit as already upstream, and the path is still its.
fresh same
colleague "theirs" 'sed -i "s/^10$/ten/" docs/shared.md; echo t > docs/theirs.md'
sed -i 's/^10$/ten/' docs/shared.md
commit_all "mine, the same"
git pull -q --rebase
only_mine docs/shared.md

# Copied by hand from the colleague's clone, without a fetch: the task's,
# and still the task's once the colleague's commit is pulled over it.
fresh copied
colleague "theirs" 'echo t > docs/theirs.md; echo c > docs/copied.md'
cp "$colleague/docs/copied.md" docs/copied.md
commit_all "copied"
git pull -q --no-rebase --no-edit
only_mine docs/copied.md

# The task's own work made in another clone, never pushed, merged through
# origin/main moved by hand, or fetched from that clone into origin/main:
# no fetch of origin, nothing arrived.
fresh forged
colleague "mine, made elsewhere" 'echo m > docs/mine.md' keep
git fetch -q "$colleague" main
git update-ref refs/remotes/origin/main FETCH_HEAD
git merge -q --ff-only origin/main
expect_run 10 md check
expect_open scoped "^1 path changed since the start lies outside the scope src, tests: docs/mine\.md\.$" "refused"
fresh fetched_elsewhere
colleague "mine, made elsewhere" 'echo m > docs/mine.md' keep
git fetch -q "$colleague" +main:refs/remotes/origin/main
git merge -q --ff-only origin/main
expect_run 10 md check
expect_open scoped "^1 path changed since the start lies outside the scope src, tests: docs/mine\.md\.$" "refused"

# Pushed on a branch, merged by the colleague with work of their own, and
# pulled back: the task's commit came back, and it is the task's.
fresh returned
git checkout -q -b side
echo m > docs/mine.md
commit_all "mine"
git push -q origin side
git checkout -q main
git branch -q -D side
colleague "theirs, and the merge" 'echo t > docs/theirs.md; git fetch -q origin side && git merge -q --no-ff --no-edit FETCH_HEAD'
git pull -q --ff-only
only_mine docs/mine.md

# A colleague's debt entry, pulled: theirs. The task's own, beside it: the task's.
fresh debt
colleague "a known finding" 'printf "docs/z.md: todo\n" >> .ai/repo/lint-baseline.txt'
git pull -q --ff-only
expect_answer no-new-debt "pass" "No entry was added.*1 entry a fetch brought since the start is not the task's, read as the start's: \`docs/z.md: todo\`"
sed -i '1i src/lib.rs: unwrap' .ai/repo/lint-baseline.txt
commit_all "an entry of the task's"
colleague "another finding" 'printf "docs/w.md: todo\n" >> .ai/repo/lint-baseline.txt'
git pull -q --no-rebase --no-edit
expect_run 10 md check
expect_open no-new-debt "1 debt baseline gained entries since the start.*added \`src/lib.rs: unwrap\`\).*2 entries a fetch brought" "refused"
