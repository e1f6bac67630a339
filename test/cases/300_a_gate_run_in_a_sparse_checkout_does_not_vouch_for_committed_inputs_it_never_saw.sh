# A sparse checkout set before the start leaves src/extra out of the
# working tree. The task writes a broken src/extra/x.rs anyway, commits it
# with `git add --sparse`, and `git sparse-checkout reapply` takes it off
# the disk: the gate greps a tree without it and passes, and the task read
# done. A verdict over inputs the task changed that the checkout left out
# is not their verdict: gates-green is owed naming them, and a run made
# without a file is not a run made with it once the file is back.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src/core src/extra tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "! grep -rq broken src"
inputs = ["src/**"]
TOML
exempt_forge
echo "fn a() {}" > src/core/lib.rs
echo "fn x() {}" > src/extra/x.rs
commit_all "initial"
with_origin
git sparse-checkout set src/core tests .ai 2> /dev/null
[ ! -e src/extra/x.rs ] || fail "setup: the sparse checkout kept src/extra"
expect_run 0 md start "a"

# An input the task never changed, left out of the checkout, is the
# start's: a run over the rest is green.
echo "fn a() { 1 }" > src/core/lib.rs
echo t > tests/a.rs
commit_all "a"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green "pass" "unit passed"

mkdir -p src/extra
echo "fn x() { broken }" > src/extra/x.rs
git add --sparse src/extra/x.rs
git commit -qm "work"
git sparse-checkout reapply 2> /dev/null
[ ! -e src/extra/x.rs ] || fail "setup: reapply kept src/extra/x.rs"
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
git push -q origin main
expect_run 0 md gate run unit
expect_open gates-green "sparse checkout.*src/extra/x.rs" "owed"
expect_advice gates-green
expect_run 10 md check

# Brought back, the run made without it is stale; run again, it fails.
git sparse-checkout add src/extra 2> /dev/null
[ -e src/extra/x.rs ] || fail "setup: sparse-checkout add did not bring src/extra/x.rs"
expect_open gates-green "stale" "owed"
expect_run 10 md gate run unit
expect_open gates-green "unit failed" "refused"

# Fixed and run over what it now sees, with the file in the checkout: pass.
echo "fn x() { 2 }" > src/extra/x.rs
git add --sparse src/extra/x.rs
git commit -qm "fix x"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green "pass" "unit passed"
# Left out of the checkout again, the task's file is unseen again.
git sparse-checkout set src/core tests .ai 2> /dev/null
echo "fn a() { 3 }" > src/core/lib.rs
commit_all "more"
git push -q origin main
expect_run 0 md gate run unit
expect_open gates-green "sparse checkout.*src/extra/x.rs" "owed"
