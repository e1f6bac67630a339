#!/usr/bin/env bash
# An honest backport from a `--single-branch` clone of a long-lived
# release branch (no [trunk] in the policy): the fix and its test
# committed, the gate green, pushed to origin's 2.x. No trunk was found
# (no origin/HEAD, origin/main, origin/master, main or master), so
# `integrated` was unknown and `nothing-accumulated` owed the long-lived
# branch itself, and the remedy (name the trunk in the policy) is a
# change of the policy not in force for the task: no way out. A clone
# whose one fetch refspec names one branch was made for that branch: its
# remote-tracking ref is the trunk, after the remote's default branch and
# the conventional names.
source "$(dirname "$0")/../lib.sh" || exit 2

git init -q --bare "$case_root/origin.git"
mkdir -p src .ai/repo
echo 'def f(): return 1' > src/lib.py
cat > .ai/repo/majordomus.toml <<'T'
[gates.unit]
run = "grep -q fixed src/lib.py"
inputs = ["**"]

[forge]
provider = "none"
T
commit_all "base"
git push -q "$case_root/origin.git" HEAD:refs/heads/main HEAD:refs/heads/2.x
git -C "$case_root/origin.git" symbolic-ref HEAD refs/heads/main
git clone -q --single-branch --branch 2.x "$case_root/origin.git" "$case_root/sb"
cd "$case_root/sb"
expect_run 0 md start "backport the fix to 2.x"

mkdir -p tests
echo 'def f(): return 2  # fixed' > src/lib.py
printf 'from src.lib import f\ndef test_f():\n    assert f() == 2\n' > tests/test_lib.py
commit_all "fix f (backport)"
expect_run 0 md gate run unit

# Not pushed yet: the branch the clone was made for has not got it.
expect_open integrated "origin/2.x" owed
git push -q origin 2.x
expect_answer integrated pass "origin/2.x"
expect_run 0 md check

# A clone that fetches every branch (the remote's default branch there)
# still judges by it: 2.x is no trunk of its.
git clone -q "$case_root/origin.git" "$case_root/all"
cd "$case_root/all"
git checkout -q -b work origin/2.x
expect_run 0 md start "work on 2.x in a full clone"
echo 'def g(): return 3' >> src/lib.py
commit_all "g"
git push -q origin work:2.x
expect_open integrated "origin/main" owed
