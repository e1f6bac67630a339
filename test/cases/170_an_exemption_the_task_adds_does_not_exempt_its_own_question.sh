# README, "The policy in force": the policy in force for a task is the policy as it stood at
# its start. An [[exempt]] entry the task adds for its own open question,
# uncommitted or committed, is named as a loosening and does not exempt it:
# `committed` stays owed, `check` exits 10, the stop hook blocks and says why.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src tests
echo 'fn a() {}' > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
echo 'fn a() { 1 }' > src/lib.rs
echo 'fn t() {}' > tests/a.rs
commit_all "fix a"
echo 'fn a() { 2 }' > src/lib.rs

cat >> .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "committed"
reason = "later"
TOML
for step in uncommitted committed; do
  if [ "$step" = committed ]; then
    git add .ai/repo/majordomus.toml
    git commit -q -m "exempt committed"
  fi
  expect_open committed "src/lib.rs"
  expect_run 10 md check
  expect_contains "committed=owed"
  # The loosening is named, with the entry it came from.
  expect_contains "exempt"
  stop_hook "$PWD"
  [ "$(hook_decision)" = block ] || fail "$step: the stop hook let the stop through"
  case "$out" in *xempt*) ;; *) fail "$step: the hook's reason does not name the exemption" ;; esac
done
