# gh answers for the repository the working tree's remotes name, and with
# several it prefers one called `upstream`. `git remote add upstream
# https://github.com/someone/empty` (or `origin` re-pointed there) before
# `majordomus forge refresh` makes it observe another repository, with no
# pull request open, while this one's #5 is: backlog-not-grown must not pass
# on it. An observation made under remotes changed since the start says so,
# and is not taken as the forge's word until they are put back.
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

git remote add upstream https://github.com/someone/empty.git
expect_run 0 md forge refresh
git remote remove upstream
expect_open backlog-not-grown "upstream added" "unknown"
expect_run 10 md check

# origin re-pointed for the refresh, and put back: the same.
origin=$(git remote get-url origin)
git remote set-url origin https://github.com/someone/empty.git
expect_run 0 md forge refresh
git remote set-url origin "$origin"
expect_open backlog-not-grown "origin re-pointed" "unknown"

# Under the start's remotes, the forge's word again: #5 is open.
expect_run 0 md forge refresh
expect_open backlog-not-grown "#5" "owed"
