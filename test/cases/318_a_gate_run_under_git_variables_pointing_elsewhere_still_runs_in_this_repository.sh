# A gate's command runs in the repository whose inputs `gate run` hashed.
# The variables that point git at another index, repository or object
# store (GIT_INDEX_FILE, GIT_DIR, GIT_WORK_TREE, GIT_OBJECT_DIRECTORY, ...)
# set for the run must not let the gate's own git commands read something
# else: under an empty index, a gate that checks every tracked file checks
# none and passes, over inputs hashed from the real one.
source "$(dirname "$0")/../lib.sh" || exit 2

start_broken_on_origin 'for f in $(git ls-files src); do grep -q fixed "$f" || exit 1; done'
expect_run 10 md gate run unit

git init -q --bare "$case_root/empty.git"
for setting in "GIT_INDEX_FILE=$case_root/empty.index" "GIT_DIR=$case_root/empty.git" \
  "GIT_DIR=$case_root/empty.git GIT_WORK_TREE=$PWD"; do
  # shellcheck disable=SC2086
  expect_run 10 env $setting "$MAJORDOMUS" gate run unit
  expect_open gates-green "unit" "refused"
done

# The fix, under the same variables, passes as it would without them.
echo "fn a() { fixed }" > src/lib.rs
commit_all "fixed"
git push -q origin main
expect_run 0 env "GIT_INDEX_FILE=$case_root/empty.index" "$MAJORDOMUS" gate run unit
expect_answer gates-green "pass" "unit"
