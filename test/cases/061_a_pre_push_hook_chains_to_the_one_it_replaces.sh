# `hook install --git` moves an existing pre-push hook aside and calls it
# first, with git's arguments and refs; its refusal still refuses the push.
# A second install never chains majordomus to itself.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"
git init -q --bare "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
git push -q -u origin main 2>/dev/null

# Somebody else's pre-push hook: records what git gave it; refuses when told to.
cat > .git/hooks/pre-push <<'HOOK'
#!/bin/sh
printf '%s %s\n' "$1" "$2" > "$(git rev-parse --git-dir)/theirs-args"
cat > "$(git rev-parse --git-dir)/theirs-refs"
[ ! -e "$(git rev-parse --git-dir)/refuse" ]
HOOK
chmod +x .git/hooks/pre-push

expect_run 0 md hook install --git --dry-run
expect_contains "would move"
grep -q "theirs-args" .git/hooks/pre-push || fail "a dry run changed the hook"

expect_run 0 md hook install --git
[ -x .git/hooks/pre-push.majordomus-chained ] || fail "the old hook was not kept"
grep -q "# majordomus pre-push hook" .git/hooks/pre-push || fail "majordomus's hook is not installed"

expect_run 0 md hook install --git
expect_contains "nothing to change"
grep -q "theirs-args" .git/hooks/pre-push.majordomus-chained || fail "a second install chained majordomus to itself"

# A push runs their hook first, with git's arguments and the refs on stdin;
# gates-green is not refused, so majordomus lets it through.
echo "more" >> README
commit_all "more"
expect_run 0 git push -q origin main
[ "$(cat .git/theirs-args)" = "origin $case_root/origin.git" ] || fail "the chained hook got other arguments: $(cat .git/theirs-args)"
grep -q "refs/heads/main $(git rev-parse HEAD) refs/heads/main" .git/theirs-refs || fail "the chained hook did not get the refs"

# Their refusal is the push's refusal.
touch .git/refuse
echo "again" >> README
commit_all "again"
expect_run 1 git push -q origin main
[ "$(git rev-parse origin/main)" != "$(git rev-parse HEAD)" ] || fail "the push went through"
rm .git/refuse

# majordomus's refusal is too (a stand-in majordomus that refuses, to run the hook's own path).
printf '#!/bin/sh\necho "refused by the stand-in" >&2\nexit 10\n' > "$case_root/refusing-md"
chmod +x "$case_root/refusing-md"
expect_run 0 md hook install --git --bin "$case_root/refusing-md"
[ -x .git/hooks/pre-push.majordomus-chained ] || fail "updating majordomus's hook lost the chained one"
expect_run 1 git push origin main
expect_contains "refused by the stand-in"
