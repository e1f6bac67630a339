#!/usr/bin/env bash
# README, "Set a repository up": the starter policy `majordomus init` wrote
# gave each test command the sources of its language, its manifests and its
# test directories as inputs. A file the code reads beside them (a Rust
# `include_str!("greeting.txt")`, a Go `//go:embed`, a data file a Python
# test opens, a jest snapshot) was no input: a change to it selected no
# gate, and `gates-green` passed ("no required gate is selected") while the
# tests, run, would fail; a pass recorded before it stood over it. Each
# starter gate's inputs are now every file; the narrower list is only
# offered in a comment, with what it would miss.
source "$(dirname "$0")/../lib.sh" || exit 2

printf '[package]\nname = "greet"\nversion = "0.1.0"\nedition = "2021"\n' > Cargo.toml
echo '{"scripts":{"test":"jest"}}' > package.json
printf '[tool.pytest.ini_options]\n' > pyproject.toml
printf 'module example.com/greet\n' > go.mod
mkdir -p src tests
echo hello > src/greeting.txt
echo 'pub fn greet() -> &'"'"'static str { include_str!("greeting.txt") }' > src/lib.rs
echo '#[test] fn greets() { assert_eq!(greet::greet(), "hello\n"); }' > tests/greet.rs
expect_run 0 md init
exempt_forge
commit_all "greet"
with_origin

expect_run 0 md start "greet louder"
echo 'hello!' > src/greeting.txt
commit_all "louder"
git push -q origin main
expect_run 10 md check
expect_open gates-green "4 gates selected: 4 never reported" "owed"
for id in cargo-test npm-test pytest go-test; do
  expect_also gates-green "$id never reported"
done
expect_run 0 md gate list
expect_contains "selected: src/greeting.txt changed (inputs: **)"

# The policy as written: every file an input, the narrower list a comment.
for id in cargo-test npm-test pytest go-test; do
  python3 - "$id" <<'PY' || fail "the starter gate $id does not take every file as its inputs"
import sys, tomllib
gate = tomllib.load(open(".ai/repo/majordomus.toml", "rb"))["gates"][sys.argv[1]]
sys.exit(0 if gate["inputs"] == ["**"] else 1)
PY
done
grep -q '^#   inputs = \["Cargo.toml", "Cargo.lock", "\*\*/\*.rs"' .ai/repo/majordomus.toml \
  || fail "the narrower inputs are not offered in a comment"
