# A GitLab repository declares its forge once ([forge] provider =
# "gitlab"), and `forge refresh` observes it through glab (a stand-in on
# PATH from the start, answering `glab api` as GitLab's REST API documents):
# an open merge request the task opened keeps backlog-not-grown owed, a
# claimed issue is asked about. The observation lives in the common git
# directory, so a linked worktree's check reads the same one, and one an
# older majordomus left in .ai/local/state/forge.json is read until a
# refresh replaces it.
source "$(dirname "$0")/../lib.sh" || exit 2

fake="$case_root/fake-glab"
mkdir -p "$fake/bin" "$fake/issues"
cat > "$fake/bin/glab" <<'GLAB'
#!/usr/bin/env bash
dir=$(dirname "$0")/..
printf '%s\n' "$*" >> "$dir/calls"
[ "$1" = api ] || { echo "unknown command \"$1\" for \"glab\"" >&2; exit 1; }
case "$2" in
  "projects/:fullpath") echo '{"id":7,"path_with_namespace":"group/widgets"}' ;;
  "projects/:fullpath/merge_requests?state=opened&per_page=100&page=1") cat "$dir/mrs.json" ;;
  projects/group%2Fwidgets/issues/*)
    n=${2##*/}
    if [ -f "$dir/issues/$n.json" ]; then cat "$dir/issues/$n.json"
    else echo "glab: 404 Not Found (HTTP 404)" >&2; exit 1; fi ;;
  *) echo "glab: 404 Not Found (HTTP 404)" >&2; exit 1 ;;
esac
GLAB
chmod +x "$fake/bin/glab"
export PATH="$fake/bin:$PATH"
echo '[]' > "$fake/mrs.json"

echo base > README
mkdir -p .ai/repo tests && printf '[forge]\nprovider = "gitlab"\n' > .ai/repo/majordomus.toml
echo 'true' > tests/t.sh
commit_all "initial"
git init -q --bare -b main "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
git push -q -u origin main
expect_run 0 md start "a feature"
expect_run 0 md issue claim 3
printf '{"iid":3,"state":"opened","labels":["bug"],"title":"the bug"}\n' > "$fake/issues/3.json"
opened=$(python3 -c "import datetime; print((datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=1)).strftime('%Y-%m-%dT%H:%M:%SZ'))")
printf '[{"iid":5,"title":"my feature","author":{"username":"me"},"source_branch":"feature","created_at":"%s","state":"opened"}]\n' "$opened" > "$fake/mrs.json"
expect_run 0 md forge refresh
expect_contains "recorded the forge observation of group/widgets"
expect_contains "1 pull request open, 1 issue asked about"
[ -f .git/majordomus/forge.json ] || fail "the observation is not in the common git directory"
[ ! -e .ai/local/state/forge.json ] || fail "an observation was written into the worktree"
grep -q 'api projects/group%2Fwidgets/issues/3' "$fake/calls" || fail "the claimed issue was not asked: $(cat "$fake/calls")"
expect_run 10 md check
expect_contains "backlog-not-grown=owed"
expect_contains '#5 "my feature" by me'
expect_contains "claims-released=owed"

# A linked worktree reads the same observation.
git worktree add -q -b other "$case_root/wt"
(
  cd "$case_root/wt"
  expect_run 0 md start "other work"
  echo more >> README && echo 'true' >> tests/t.sh
  git commit -qam "other work"
  json_get "$(git rev-parse --git-common-dir)/majordomus/forge.json" "d['repository']" | grep -qx group/widgets ||
    fail "the linked worktree does not see the observation"
)

# The merge request merged and the issue closed: settled once refreshed.
echo '[]' > "$fake/mrs.json"
printf '{"iid":3,"state":"closed","labels":["bug"],"title":"the bug"}\n' > "$fake/issues/3.json"
expect_run 0 md forge refresh
[ "$(status_of backlog-not-grown)" = pass ] || fail "a merged merge request still counts"
[ "$(status_of claims-released)" = pass ] || fail "a closed issue is still held"

# An observation an older majordomus kept in the worktree is read where no shared one is.
mv .git/majordomus/forge.json .ai/local/state/forge.json
python3 - .ai/local/state/forge.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["pull_requests"] = [{"number": 9, "title": "old", "created_at": "2999-01-01T00:00:00Z", "state": "open"}]
json.dump(d, open(sys.argv[1], "w"))
PY
expect_run 10 md check
expect_contains '#9 "old"'
expect_run 0 md forge refresh
[ ! -e .ai/local/state/forge.json ] || fail "the old observation was left beside the new one"
[ "$(status_of backlog-not-grown)" = pass ] || fail "the refreshed observation was not read"
