#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task adds a submodule (`git submodule add URL vendor/lib`,
# committed), moves it (`git mv vendor/lib third/lib`, committed) and
# pushes everything: pushed asked whether lib's remote holds the commit the
# first commit recorded by reading vendor/lib, no longer checked out, and
# answered unknown for good, its advice no help. The commits pushed still
# record the gitlink, so a clone of them must fetch it from the URL named:
# the submodule is read where its repository is (checked out at another
# path, or kept under the git directory by `git rm` or `git submodule
# deinit`), and with nothing of it left here, unknown names the clone that
# brings the reading back. A submodule removed with its `.gitmodules`, no
# gitlink left in HEAD or the index, was not asked at all: pass, its
# commit on no remote.

git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/seed" 2> /dev/null
(cd "$case_root/seed" && git commit -q --allow-empty -m lib && git push -q origin HEAD:main)
serve_by_git_daemon lib.git
lib="git://127.0.0.1:$port/lib.git"
echo base > README
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "vendor lib"

# Added, a commit made in it and recorded at vendor/lib; moved; the bump
# taken back at its new path; all of the superproject pushed.
git submodule --quiet add "$lib" vendor/lib
(cd vendor/lib && git commit -q --allow-empty -m "lib: new")
new=$(git -C vendor/lib rev-parse HEAD)
commit_all "vendor lib"
mkdir -p third && git mv vendor/lib third/lib
commit_all "move it"
git -C third/lib checkout -q origin/main
commit_all "lib as released"
git push -q origin main
expect_open pushed "the submodule third/lib points at ${new:0:12}, which none of third/lib's remote-tracking refs holds \(git -C third/lib push\)" owed
case "$(evidence_of pushed)" in *"not checked out here"*) out=$(evidence_of pushed); fail "vendor/lib read where it is not" ;; esac
git -C third/lib push -q origin "$new:refs/heads/main"
expect_answer pushed pass "the submodule third/lib points at ${new:0:12}, which its origin/main holds"

# A bump at third/lib, recorded and pushed; the submodule deinitialized:
# read from its repository kept under the git directory.
(cd third/lib && git checkout -q main && git commit -q --allow-empty -m "lib: newer")
newer=$(git -C third/lib rev-parse HEAD)
commit_all "bump lib"
git push -q origin main
git submodule --quiet deinit -f third/lib
expect_open pushed "the submodule third/lib \(checked out nowhere now, its repository kept at .git/modules/vendor/lib\) points at ${newer:0:12}, which none of third/lib's remote-tracking refs holds" owed

# Then removed (`git rm`, committed and pushed): the commits pushed still
# record it. The advice runs as written, REMOTE and BRANCH filled in.
git rm -q third/lib
commit_all "drop lib"
git push -q origin main
expect_open pushed "third/lib \(checked out nowhere now, its repository kept at .git/modules/vendor/lib\) points at ${newer:0:12}" owed
advice=$(remedy_of pushed)
case "$advice" in *"git --git-dir=.git/modules/vendor/lib --work-tree=.git/modules/vendor/lib push REMOTE $newer:refs/heads/BRANCH"*) ;; *) out=$advice; fail "expected the push from the kept repository" ;; esac
git --git-dir=.git/modules/vendor/lib --work-tree=.git/modules/vendor/lib push -q origin "$newer:refs/heads/main"
expect_answer pushed pass "third/lib \(checked out nowhere now, its repository kept at .git/modules/vendor/lib\) points at ${newer:0:12}, which its origin/main holds"

# Nothing of it left on this machine: lib's URL is across a network, so
# whether it holds the commits cannot be read; the clone named brings the
# reading back, and it passes.
rm -rf .git/modules
expect_open pushed "nothing of it is left on this machine.*whether git://127.0.0.1:$port/lib.git holds it cannot be read" unknown
advice=$(remedy_of pushed)
case "$advice" in *"git clone -q --no-checkout --separate-git-dir"*) ;; *) out=$advice; fail "expected the clone that brings the reading back" ;; esac
expect_run 0 sh -c "${advice#*: }"
expect_answer pushed pass "third/lib \(checked out nowhere now, its repository kept at .git/modules/vendor/lib\) points at ${newer:0:12}, which its origin/main holds"

# Another added with a commit of its own, then removed with its
# `.gitmodules` (`git rm other`, `git rm -f .gitmodules`) and pushed: no
# submodule left in HEAD or the index, and still a commit a clone of the
# pushed commits cannot fetch. Asked while git keeps its repository.
git submodule --quiet add "$lib" other
(cd other && git commit -q --allow-empty -m "lib: other")
other=$(git -C other rev-parse HEAD)
commit_all "other"
git rm -q other
git rm -q -f .gitmodules
commit_all "drop other"
git push -q origin main
expect_open pushed "the submodule other \(checked out nowhere now, its repository kept at .git/modules/other\) points at ${other:0:12}, which none of other's remote-tracking refs holds" owed
git --git-dir=.git/modules/other --work-tree=.git/modules/other push -q origin "$other:refs/heads/main"
expect_answer pushed pass "other \(checked out nowhere now, its repository kept at .git/modules/other\) points at ${other:0:12}, which its origin/main holds"
