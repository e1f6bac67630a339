#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# integrated and pushed read a squash merge as a trunk commit since the
# merge base holding every path HEAD changed with HEAD's content. The
# search walked the trunk's first parents back until it met the base;
# where the base is not on them (a colleague's `git pull` merged the
# trunk in as a second parent), it walked on into the base's own
# ancestors, and one holding HEAD's content there (the task's change puts
# back what the history held before: `git revert` of an older commit)
# read as the work landed, while the trunk never held it. A commit the
# merge base descends from came before the work: the search stops there.

echo base > README
exempt_forge
echo "limit = 2" > config.toml
commit_all "initial"
with_origin
git clone -q "$case_root/origin.git" "$case_root/colleague"
echo "limit = 1" > config.toml
commit_all "lower the limit"
git push -q origin main
expect_run 0 md start "put the limit back"
git revert --no-edit HEAD >/dev/null

# The colleague, still at the first commit, raises the limit and pulls
# with a merge, keeping their own line in the conflict.
(cd "$case_root/colleague" &&
  export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com &&
  echo "limit = 3" > config.toml && git commit -qam "raise the limit" &&
  { git pull -q --no-rebase --no-edit origin main >/dev/null 2>&1 || true; } &&
  echo "limit = 3" > config.toml && git add config.toml && git commit -q --no-edit && git push -q origin main)
git fetch -q origin
[ "$(git show origin/main:config.toml)" = "limit = 3" ] || fail "the trunk holds limit = 3"

expect_open integrated "does not hold 1 path HEAD changed: config.toml" owed
expect_also pushed "1 commit on HEAD is not on origin/main" owed

# The honest way: the trunk merged in, the conflict resolved, pushed.
git merge -q origin/main >/dev/null 2>&1 || true
echo "limit = 2" > config.toml
git add config.toml
git commit -q --no-edit
git push -q origin main
expect_answer integrated pass "reaches HEAD"
expect_also pushed "Every commit on HEAD is on origin/main" pass
