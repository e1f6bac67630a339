# The rules that held at the start keep hiding what they hid: a tool cache
# already there with its own self-ignoring .gitignore (as .pytest_cache
# writes one), a rule in info/exclude and in the user's excludes file, all
# from before the start, hide the files the task adds beneath them, as git
# says. A new cache the task's tools write (.mypy_cache, self-ignoring too)
# is not held: its files count, naming its .gitignore.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src
echo 'fn a() {}' > src/lib.rs
commit_all "initial"
mkdir -p .pytest_cache "$HOME/.config/git"
printf '# Created by pytest automatically.\n*\n' > .pytest_cache/.gitignore
echo '*.swp' > "$HOME/.config/git/ignore"
echo 'scratch/' >> .git/info/exclude
expect_run 0 md start "a"
expect_contains "0 untracked"
echo 'v' > .pytest_cache/lastfailed
echo 'x' > src/.lib.rs.swp
mkdir -p scratch && echo 'y' > scratch/notes
[ -z "$(git status --porcelain)" ] || fail "setup: git lists a file"
expect_answer no-untracked "pass" "."
mkdir -p .mypy_cache && printf '*\n' > .mypy_cache/.gitignore && echo 'z' > .mypy_cache/cache.json
[ -z "$(git status --porcelain)" ] || fail "setup: git lists a file"
expect_open no-untracked "\.mypy_cache/cache\.json \(ignored by a rule in \.mypy_cache/\.gitignore" "owed"
evidence_of no-untracked | grep -q pytest && fail "a file the start's rules hid is counted"
true
