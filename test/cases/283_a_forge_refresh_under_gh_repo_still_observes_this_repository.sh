# `GH_REPO=someone/else majordomus forge refresh`: gh reads GH_REPO and
# then answers for that repository instead of the one the working tree's
# remotes name, so an observation of a repository with no pull request
# open made backlog-not-grown pass while this one's #5 was open. gh is run
# without GH_REPO: the observation is of this repository (README.md, "The
# closing questions").
source "$(dirname "$0")/../lib.sh" || exit 2

# A stand-in for gh that, as gh does, answers for GH_REPO when it is set.
fake="$case_root/fake-gh"
mkdir -p "$fake/bin"
cat > "$fake/bin/gh" <<'GH'
#!/usr/bin/env bash
case "$1 $2" in
  "repo view")
    if [ -n "${GH_REPO-}" ]; then printf '{"nameWithOwner":"%s"}\n' "$GH_REPO"; else echo '{"nameWithOwner":"acme/widgets"}'; fi ;;
  "pr list")
    if [ -n "${GH_REPO-}" ]; then echo '[]'; else cat "$(dirname "$0")/../prs.json"; fi ;;
  *) echo "unknown command \"$1\" for \"gh\"" >&2; exit 1 ;;
esac
GH
observe_one_open_pr "$fake"

GH_REPO=someone/empty md forge refresh > /dev/null 2>&1 || true
expect_open backlog-not-grown "#5" "owed"
expect_run 10 md check
