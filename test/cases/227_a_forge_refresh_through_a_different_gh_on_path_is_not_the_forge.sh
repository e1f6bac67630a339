# Not in issue 10 as such (§5's PATH class reaching the forge): gh is on PATH
# from the start; `PATH=other:$PATH majordomus forge refresh` runs another
# gh that answers "no pull requests". An observation made under a PATH
# that differs from the start's is named and not evidence. (Cases 032 and
# 052 put their stand-in gh on PATH only for the refresh: they must put it
# there from the start once this holds.)
source "$(dirname "$0")/../lib.sh" || exit 2

# A stand-in for gh (as in test/cases/052): one open pull request, #5,
# opened a minute after the start.
fake=$(fake_gh)
observe_one_open_pr "$fake"

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
PATH="$liar:$PATH" md forge refresh > /dev/null 2>&1 || true
expect_open backlog-not-grown "PATH|#5"
expect_run 10 md check
