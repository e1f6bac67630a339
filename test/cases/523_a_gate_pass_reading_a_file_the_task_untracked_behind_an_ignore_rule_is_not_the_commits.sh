#!/usr/bin/env bash
# gates-green: src/table.txt is tracked at the start though a rule of the
# start's .gitignore names it (force-added, as generated files often are),
# and the gate reads it. The task `git rm --cached`s it and commits: the
# file stays on disk, ignored (no untracked file appears, nothing is
# uncommitted), the gate passes over it, and the commit pushed lacks it (a
# checkout of it fails the gate). The mirror of test/cases/300 (an input
# the commit holds that the disk does not): a path the start commit
# tracked that HEAD no longer holds but the disk does is still among the
# inputs its globs match, hashed as it is on disk, and a pass over it is
# owed, naming it. Removed from disk, the gate runs over what the commit
# holds and fails; committed again, it passes. An ignored file the start
# never tracked (build output) is still no input.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q ok src/table.txt && grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
exempt_forge
printf 'src/table.txt\nsrc/*.log\n' > .gitignore
echo "fn a() {}" > src/lib.rs
echo ok > src/table.txt
git add -f src/table.txt
commit_all "initial"
git ls-files --error-unmatch src/table.txt >/dev/null || fail "setup: table untracked"
with_origin
expect_run 0 md start "fix a"

echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
echo "build output" > src/build.log
git rm -q --cached src/table.txt
commit_all "fix a"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
d=$(mktemp -d); git archive HEAD | tar -x -C "$d"
(cd "$d" && grep -q ok src/table.txt 2>/dev/null && grep -q fixed src/lib.rs) && fail "setup: what HEAD holds passes"

expect_run 0 md gate run unit
expect_contains "src/table.txt"
expect_not_contains "src/build.log"
expect_open gates-green "no longer holds it: src/table.txt" owed
remedy=$(remedy_of gates-green)
case $remedy in *"rm src/table.txt"*) ;; *) fail "remedy: $remedy" ;; esac

# Removed from disk: the run over what the commit holds fails.
mv src/table.txt "$case_root/table.txt"
expect_open gates-green "stale|never" owed
expect_run 10 md gate run unit
expect_open gates-green "failed" refused

# Committed again: the gate passes over what the commit holds.
mv "$case_root/table.txt" src/table.txt
git add -f src/table.txt
git commit -q -m "keep the table"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green pass "unit passed"
