#!/usr/bin/env bash
# A refresh counts only through the gh the PATH the task started under
# finds (case 227). A stand-in written since the start into a directory
# that PATH already named (`~/bin`, empty then) is found first by that
# same PATH, so the path alone cannot tell it: a program, or a link on the
# way to it, written since the start is not the start's program, and its
# observation is not the forge's word.
source "$(dirname "$0")/../lib.sh" || exit 2

fake=$(fake_gh)
mkdir -p "$HOME/bin"
export PATH="$HOME/bin:$fake/bin:$PATH"
echo base > README
commit_all "initial"
with_origin
sleep 1
expect_run 0 md start "a feature"
opened=$(date -u -d '+1 minute' +%Y-%m-%dT%H:%M:%SZ)
printf '[{"number":5,"title":"my feature","author":{"login":"me"},"headRefName":"feature","createdAt":"%s","state":"OPEN"}]\n' "$opened" > "$fake/prs.json"
expect_run 0 md forge refresh
expect_open backlog-not-grown "#5" "owed"

sleep 1
cat > "$HOME/bin/gh" <<'GH'
#!/bin/sh
case "$1 $2" in
  "repo view") echo '{"nameWithOwner":"acme/widgets"}' ;;
  "pr list") echo '[]' ;;
  *) exit 1 ;;
esac
GH
chmod +x "$HOME/bin/gh"
md forge refresh > /dev/null 2>&1 || true
rm "$HOME/bin/gh"
expect_open backlog-not-grown "written since the task started" "unknown"

# Through the start's own gh again: the forge's word, #5 still open.
expect_run 0 md forge refresh
expect_open backlog-not-grown "#5" "owed"
