# The forge observation is one for every worktree of a repository, and its
# provenance spoke of the start of the task whose refresh made it. A task
# started in another worktree after `git remote add upstream
# https://github.com/someone/empty.git` (or under a PATH finding another
# gh) refreshed it, the remote was removed again, and this task's
# backlog-not-grown passed on an observation of someone else's repository
# while its own #5 was open. A task reading an observation another task's
# refresh made judges it against its own start: the program the refresh
# ran, and the remotes it found.
source "$(dirname "$0")/../lib.sh" || exit 2

# A stand-in for gh that resolves the repository as gh does: the remote
# `upstream` before `origin`, its URL's last two parts as owner/name.
fake="$case_root/fake-gh"
mkdir -p "$fake/bin"
cat > "$fake/bin/gh" <<'GH'
#!/usr/bin/env bash
url=$(git remote get-url upstream 2>/dev/null || git remote get-url origin)
case "$url" in
  https://github.com/*) repo=${url#https://github.com/}; repo=${repo%.git} ;;
  *) repo=acme/widgets ;;
esac
case "$1 $2" in
  "repo view") printf '{"nameWithOwner":"%s"}\n' "$repo" ;;
  "pr list")
    if [ "$repo" = acme/widgets ]; then cat "$(dirname "$0")/../prs.json"; else echo '[]'; fi ;;
  *) echo "unknown command \"$1\" for \"gh\"" >&2; exit 1 ;;
esac
GH
observe_one_open_pr "$fake"

# Another worktree's task, started after a remote was added, refreshes.
git remote add upstream https://github.com/someone/empty.git
git worktree add -q "$case_root/peek" -b peek
(cd "$case_root/peek" && md start "peek" >/dev/null && md forge refresh >/dev/null 2>&1)
git remote remove upstream
expect_open backlog-not-grown "upstream added" "unknown"
expect_run 10 md check

# Another worktree's task, started under a PATH finding another gh.
liar="$case_root/liar"
mkdir -p "$liar"
cat > "$liar/gh" <<'GH'
#!/usr/bin/env bash
case "$1 $2" in
  "repo view") echo '{"nameWithOwner":"acme/widgets"}' ;;
  "pr list") echo '[]' ;;
  *) exit 1 ;;
esac
GH
chmod +x "$liar/gh"
git worktree add -q "$case_root/peek2" -b peek2
(cd "$case_root/peek2" && PATH="$liar:$PATH" md start "peek again" >/dev/null && PATH="$liar:$PATH" md forge refresh >/dev/null 2>&1)
expect_open backlog-not-grown "$liar/gh" "unknown"

# Another worktree's refresh through this task's gh, under its remotes:
# the forge's word, shared: #5 is open.
(cd "$case_root/peek" && md forge refresh >/dev/null 2>&1)
expect_open backlog-not-grown "#5" "owed"
