# gh picks the repository it answers for from more than the remotes' URLs:
# its own default-repository setting (`gh repo set-default`, kept as
# `remote.<name>.gh-resolved`, OWNER/REPO or `base`), a fork's two remotes,
# and the git configuration its git reads (`url.*.insteadOf`). Any of them
# changed for a refresh, with every URL the start's, gave an observation of
# another repository, where this one's #5 is not open: backlog-not-grown
# passed. The rule: a refresh records each remote's gh-resolved beside its
# URLs, and a change since the start is named; an observation of another
# repository than the one the task started against (the start's
# observation's, else the one the start's remotes name, as gh resolves
# them) is `unknown`, naming both; gh's git reads the configuration files
# the task's git reads (GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM kept).
source "$(dirname "$0")/../lib.sh" || exit 2

# A stand-in for gh resolving the repository as gh does
# (context.ResolvedRemotes.BaseRepo): a remote's gh-resolved first ("base":
# that remote's; "OWNER/REPO": that repository), else upstream's, else
# origin's, each URL as its git reads it (insteadOf applied). The layout is
# the one `gh repo fork --clone` leaves: origin the fork (me/widgets; a path
# here), upstream the project.
fake="$case_root/fake-gh"
mkdir -p "$fake/bin"
cat > "$fake/bin/gh" <<'GH'
#!/usr/bin/env bash
of() { case "$1" in https://github.com/*) r=${1#https://github.com/}; echo "${r%.git}" ;; *) echo me/widgets ;; esac; }
resolved=$(git config --get-regexp '^remote\..*\.gh-resolved$' | head -1)
name=$(echo "$resolved" | awk '{print $1}' | sed 's/^remote\.//; s/\.gh-resolved$//')
# Beside it, a setting of gh's own majordomus does not read (a file in
# gh's configuration directory here), standing for any other way it picks.
[ -f "$HOME/.config/gh/repo" ] && resolved="x $(cat "$HOME/.config/gh/repo")"
case "$(echo "$resolved" | awk '{print $2}')" in
  "") repo=$(of "$(git remote get-url upstream 2>/dev/null || git remote get-url origin)") ;;
  base) repo=$(of "$(git remote get-url "$name")") ;;
  *) repo=$(echo "$resolved" | awk '{print $2}') ;;
esac
case "$1 $2" in
  "repo view") printf '{"nameWithOwner":"%s"}\n' "$repo" ;;
  "pr list")
    if [ "$repo" = acme/widgets ]; then cat "$(dirname "$0")/../prs.json"; else echo '[]'; fi ;;
  *) echo "unknown command \"$1\" for \"gh\"" >&2; exit 1 ;;
esac
GH
git remote add upstream https://github.com/acme/widgets.git
observe_one_open_pr "$fake"      # the honest reading: #5, opened since the start, owed

# gh repo set-default someone/empty for the refresh, undone after it.
git config remote.origin.gh-resolved someone/empty
expect_run 0 md forge refresh
git config --unset remote.origin.gh-resolved
expect_open backlog-not-grown "remote.origin.gh-resolved.*someone/empty" unknown
expect_run 10 md check

# gh repo set-default me/widgets (origin's gh-resolved base), kept set: an
# observation of the fork, where no pull request is open (a fork's are
# opened on the project), not of acme/widgets, which the start's remotes name.
git config remote.origin.gh-resolved base
expect_run 0 md forge refresh
expect_open backlog-not-grown "gh-resolved.*base|of me/widgets.*started against acme/widgets" unknown
git config --unset remote.origin.gh-resolved
expect_run 0 md forge refresh
expect_open backlog-not-grown "#5" owed

# Whatever else makes gh answer for another repository, every remote and
# setting the start's: the observation names someone/empty, not the
# repository the start's remotes name.
mkdir -p "$HOME/.config/gh"
echo someone/empty > "$HOME/.config/gh/repo"
expect_run 0 md forge refresh
expect_open backlog-not-grown "of someone/empty, while this task started against acme/widgets \\(the remote upstream" unknown
rm "$HOME/.config/gh/repo"
expect_run 0 md forge refresh
expect_open backlog-not-grown "#5" owed

# A rewrite in a configuration file git reads only without
# GIT_CONFIG_GLOBAL (the XDG file), while this task's git runs with it:
# gh's git reads the files the task's git reads, so it still observes
# acme/widgets.
mkdir -p "$HOME/.config/git"
git config -f "$HOME/.config/git/config" url.https://github.com/someone/empty.git.insteadOf https://github.com/acme/widgets.git
expect_run 0 md forge refresh
rm "$HOME/.config/git/config"
expect_open backlog-not-grown "#5" owed
