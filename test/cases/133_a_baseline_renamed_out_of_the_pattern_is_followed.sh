# lint-baseline.txt renamed to lint-allowlist.txt (git mv, committed; git
# sees the rename) with an entry added: the baseline left the naming
# pattern, and is followed there as git's rename detection pairs them,
# named, and its added entry refused.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
printf "src/a.rs: unused\nsrc/b.rs: unused\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
expect_answer no-new-debt "pass" "."
git mv .ai/repo/lint-baseline.txt .ai/repo/lint-allowlist.txt
printf 'src/c.rs: unused\n' >> .ai/repo/lint-allowlist.txt
commit_all "allow list"
git diff --find-renames --name-status HEAD~1 HEAD | grep -q '^R' || fail "setup: git does not see the rename"
expect_open no-new-debt "lint-allowlist.txt" "refused"
expect_run 10 md check
