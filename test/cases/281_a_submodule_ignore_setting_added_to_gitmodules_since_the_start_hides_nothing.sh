# `ignore = dirty` (or `all`, or `untracked`) written into .gitmodules
# and committed silences git status about a submodule's own uncommitted
# work, as `git config submodule.lib.ignore` would. Set in the
# configuration since the start, that already hid nothing; set in
# .gitmodules it did: committed passed over the submodule's edit. The
# .gitmodules setting in force is the start's too (README.md, "What a
# pass is worth"); one the repository held at the start is still obeyed.
source "$(dirname "$0")/../lib.sh" || exit 2

git init -q -b main "$case_root/libsrc"
(cd "$case_root/libsrc" && echo l > l && git add l && git commit -qm l)
echo base > README
exempt_forge
commit_all "initial"
with_origin
git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" lib
commit_all "the submodule"
git push -q origin main
expect_run 0 md start "a feature"
push_a_feature
echo dirty >> lib/l
expect_open committed "lib"

for value in dirty all untracked; do
  git config -f .gitmodules submodule.lib.ignore "$value"
  git add .gitmodules
  git commit -qm "quiet the submodule ($value)"
  git push -q origin main
  [ "$value" = untracked ] || [ -z "$(git status --porcelain)" ] || fail "setup ($value): git status still reports the submodule"
  expect_open committed "lib"
done

# A setting the repository held at the start is the user's: obeyed.
(cd lib && git checkout -q -- l)
git config -f .gitmodules submodule.lib.ignore dirty
git add .gitmodules
git commit -qm "quiet the submodule"
git push -q origin main
expect_run 0 md finish --outcome completed
expect_run 0 md start "another"
echo more > tests/b.rs
commit_all "more"
git push -q origin main
echo dirty >> lib/l
[ -z "$(git status --porcelain)" ] || fail "setup: git status reports the submodule"
expect_answer committed "pass" "No tracked file"
