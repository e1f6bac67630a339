# Seen on git/git (its submodule sha1collisiondetection): a file edited
# inside a submodule, whose HEAD is still the commit the superproject
# records, makes the submodule changed as git status shows it (` M lib`).
# committed's remedy was `git commit -- lib`, which commits nothing of it:
# git refuses ("no changes added to commit", exit 1) once the submodule is
# all that is left. The rest is committed as written; the submodule's own
# commit comes first, and is advice; once it moved, `git commit -- lib`
# records it as written.
source "$(dirname "$0")/../lib.sh" || exit 2

superproject_with_lib lib.rs 'pub fn a() {}'
expect_run 0 md start "document a"

echo 'more' >> README
echo '/// a does nothing' >> lib/lib.rs
[ "$(git status --porcelain)" = "$(printf ' M README\n M lib')" ] || fail "setup: expected README and lib changed"
expect_open committed "README.*lib" owed
follow_remedy committed
[ "$(git status --porcelain)" = " M lib" ] || fail "the remedy should have committed README: $(git status --porcelain)"

# Only the submodule's inside is left: advice, naming where to commit.
expect_open committed "lib" owed
expect_advice committed
printf '%s' "$(remedy_of committed)" | grep -q -- "git -C lib" || fail "the advice should say to commit inside lib: $(remedy_of committed)"

# Committed inside, the submodule's HEAD moved: recording it is a command again.
git -C lib commit -qam "document a"
expect_open committed "lib" owed
follow_remedy committed
[ -z "$(git status --porcelain)" ] || fail "the remedy should have recorded lib's commit: $(git status --porcelain)"
expect_answer committed "pass" "."
