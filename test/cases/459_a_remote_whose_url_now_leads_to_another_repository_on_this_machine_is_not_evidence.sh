#!/usr/bin/env bash
# A remote on this machine is read itself, so whatever sits where its URL
# leads counts as the remote. The URL's text can stay the start's while
# that changes: a symbolic link in the path re-pointed at a copy (`ln -sfn
# copy.git origin.git`), the directory moved aside and a fresh clone put
# in its place (`mv`, `git clone --bare`: the same path, another inode), a
# repository made where git's transport finds it first (`../origin` is
# completed to `../origin.git`, but a new `../origin` wins), or one made
# where there was none. The start records where each remote's URL (and
# push URL) led: the repository git's transport found, canonical, with its
# git directory's device and inode, or none, or a URL across a network. A
# remote that leads elsewhere now is no evidence, its refs read at their
# start values, both places named; the start's origin never received the
# commit, so pushed and integrated are owed. Unchanged, a link, a relative
# URL, a `file://` URL and a network URL beside them still pass.
source "$(dirname "$0")/../lib.sh" || exit 2

# fresh NAME: a repository of its own at $case_root/NAME/repo, committed,
# and the current directory.
fresh() {
  mkdir -p "$case_root/$1"
  git init -q -b main "$case_root/$1/repo"
  cd "$case_root/$1/repo"
  echo base > README
  exempt_forge
  commit_all "initial"
}
# feature N: a change with a test, committed.
feature() {
  mkdir -p src tests
  echo "$1" > src/a.rs
  echo "t$1" > tests/a.rs
  commit_all "feature $1"
}
# on_origin: origin set up with main pushed and tracked, a task started.
on_origin() {
  git remote add origin "$1"
  git push -q -u origin main
  git remote set-head origin main
  expect_run 0 md start "a change"
}

# A link re-pointed. Honest first: pushed through the link unchanged.
fresh link
git init -q --bare -b main "$case_root/link/real-origin.git"
ln -s "$case_root/link/real-origin.git" "$case_root/link/origin.git"
on_origin "$case_root/link/origin.git"
feature 1
git push -q origin main
expect_answer pushed pass ""
expect_answer integrated pass ""
git clone -q --bare "$case_root/link/real-origin.git" "$case_root/link/copy.git"
ln -sfn "$case_root/link/copy.git" "$case_root/link/origin.git"
feature 2
git push -q origin main
[ "$(git --git-dir="$case_root/link/real-origin.git" rev-parse main)" != "$(git rev-parse HEAD)" ] || fail "setup: the real origin got it"
expect_open pushed "led on this machine at the start to the repository at .*real-origin.git and leads now to the repository at .*copy.git" owed
expect_also integrated "origin/main is read at its start value" owed
# Pointed back and pushed there: the start's origin holds it.
ln -sfn "$case_root/link/real-origin.git" "$case_root/link/origin.git"
git push -q origin main
expect_answer pushed pass ""

# The directory replaced by a copy, then fetched: the same path, another
# inode.
fresh swap
git init -q --bare -b main "$case_root/swap/origin.git"
on_origin "$case_root/swap/origin.git"
feature 1
mv "$case_root/swap/origin.git" "$case_root/swap/origin.old.git"
git clone -q --bare . "$case_root/swap/origin.git"
git fetch -q origin
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: the fetch did not move origin/main"
expect_open pushed "origin.git \(device [0-9]+, inode [0-9]+\) and leads now to the repository at .*origin.git \(device" owed
expect_also integrated "read at its start value" owed

# A repository made where git's transport finds it before the start's.
fresh shadow
git init -q --bare -b main "$case_root/shadow/origin.git"
on_origin "$case_root/shadow/origin"
feature 1
git clone -q --bare "$case_root/shadow/origin.git" "$case_root/shadow/origin"
git push -q origin main
[ "$(git --git-dir="$case_root/shadow/origin.git" rev-parse main)" != "$(git rev-parse HEAD)" ] || fail "setup: origin.git got it"
expect_open pushed "at the start to the repository at .*shadow/origin.git and leads now to the repository at .*shadow/origin[^.]" owed
expect_also integrated "read at its start value" owed

# A repository made where there was none at the start.
fresh none
git remote add origin "$case_root/none/origin.git"
expect_run 0 md start "a change"
feature 1
git init -q --bare -b main "$case_root/none/origin.git"
git push -q -u origin main
expect_open pushed "led on this machine at the start to no repository and leads now to the repository at"

# Honest: a relative URL and a file:// URL, a network remote beside them.
fresh relative
git init -q --bare -b main "$case_root/relative/origin.git"
git remote add upstream https://example.invalid/x.git
on_origin ../origin.git
feature 1
git push -q origin main
expect_answer pushed pass ""
expect_also integrated "" pass
case "$(evidence_of pushed)" in *"leads now"* | *example.invalid*) fail "a remote unchanged named: $(evidence_of pushed)" ;; esac

fresh fileurl
git init -q --bare -b main "$case_root/fileurl/origin.git"
on_origin "file://$case_root/fileurl/origin.git"
feature 1
git push -q origin main
expect_answer pushed pass ""
expect_also integrated "" pass
