# README, "A task, start to finish": `finish --outcome partial` (or blocked,
# or failed) then `start` would make everything the first task left the
# next task's inheritance, never counted: its failing gate (nothing changed
# since the new start selects it), its unpushed branch, its baseline entry,
# its open todo, and the next check said `done: complete`. A start where
# the previous task here ended with questions open continues it: its id,
# its start and its snapshot, so what it left is still owed, named, until
# it is settled.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
printf 'src/a.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"

# The first task: a failing gate over pushed work, a baseline entry, a
# branch with an unpushed commit, a todo left open.
echo "fn a() { broken }" > src/lib.rs
echo "#[test] fn a_test() {}" > tests/a.rs
echo 'src/b.rs: expect' >> .ai/repo/lint-baseline.txt
commit_all "still broken"
git push -q origin main
expect_run 10 md gate run unit
git checkout -q -b side
echo s > src/side.rs
commit_all "side work"
git checkout -q main
expect_run 0 md todo add "write the docs"
expect_run 10 md check
expect_run 0 md finish --outcome failed

# Started again, with something measurable of its own.
expect_run 0 md start "fix a, another go"
started=$out
n=$(md todo add "look again" | sed -n 's/^todo \([0-9]*\) added.*/\1/p')
expect_run 0 md todo done "$n"
expect_run 10 md check
case "$started" in *"continues \"fix a\""*) ;; *) out=$started; fail "start does not say it continues the task left open" ;; esac
expect_open gates-green "unit" "refused owed"
expect_also pushed "side"
expect_also nothing-accumulated "side"
expect_also no-new-debt "src/b.rs: expect" "refused"
expect_also todos-done "write the docs"
for id in gates-green pushed nothing-accumulated no-new-debt todos-done; do
  expect_also "$id" "continues \"fix a\""
done
expect_run 10 md finish --outcome completed
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop went through after a restart: $out"

# Again: a chain of restarts still continues the first task.
expect_run 0 md finish --outcome partial
expect_run 0 md start "fix a, a third go"
expect_open pushed "side"

# Settled, it completes.
git branch -q -D side
printf 'src/a.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() { fixed }" > src/lib.rs
commit_all "fixed"
git push -q origin main
expect_run 0 md gate run unit
expect_run 0 md todo done 1
expect_run 0 md check
expect_done_line "done: complete (17 pass, 2 exempt)"
