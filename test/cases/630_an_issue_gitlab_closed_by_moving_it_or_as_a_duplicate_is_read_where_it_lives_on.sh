# GitLab closes an issue it moves to another project (`/move`, or Move
# issue in the sidebar), opening a new one there, and one marked a
# duplicate (`/duplicate #9`): its REST document says `state: closed`,
# with `moved_to_id` or `_links.closed_as_duplicate_of` naming where the
# work went. An issue the task filed, moved to another project, and one it
# claimed, closed as a duplicate of an open one, were read as closed:
# filings-closed and claims-released passed while both pieces of work
# were open. `forge refresh` now follows a move (the new issue's global id,
# through `glab api graphql`) and a duplicate (the API URL) to the issue
# each became, and records its state, labels and title under the number
# asked: owed while that one is open, settled when it is closed.
source "$(dirname "$0")/../lib.sh" || exit 2

fake="$case_root/fake-glab"
mkdir -p "$fake/bin" "$fake/api" "$fake/graphql"
# Answers `glab api ENDPOINT` with $fake/api/ENDPOINT.json and
# `glab api graphql -f query=...` about gid://gitlab/Issue/N with
# $fake/graphql/N.json; a 404 where there is no such file.
cat > "$fake/bin/glab" <<'GLAB'
#!/usr/bin/env bash
dir=$(dirname "$0")/..
printf '%s\n' "$*" >> "$dir/calls"
[ "$1" = api ] || { echo "unknown command \"$1\" for \"glab\"" >&2; exit 1; }
case "$2" in
  "projects/:fullpath") echo '{"id":7,"path_with_namespace":"group/widgets"}' ;;
  "projects/:fullpath/merge_requests?state=opened&per_page=100&page=1") echo '[]' ;;
  graphql)
    [ "$3" = -f ] || { echo "expected -f query=..." >&2; exit 1; }
    id=$(printf '%s' "$4" | sed -n 's/.*gid:\/\/gitlab\/Issue\/\([0-9]*\).*/\1/p')
    if [ -f "$dir/graphql/$id.json" ]; then cat "$dir/graphql/$id.json"
    else echo '{"data":{"issue":null}}'; fi ;;
  *)
    if [ -f "$dir/api/$2.json" ]; then cat "$dir/api/$2.json"
    else echo "glab: 404 Not Found (HTTP 404)" >&2; exit 1; fi ;;
esac
GLAB
chmod +x "$fake/bin/glab"
export PATH="$fake/bin:$PATH"
# issue ENDPOINT IID STATE FULL [EXTRA]: the REST document GitLab gives.
issue() {
  mkdir -p "$(dirname "$fake/api/$1")"
  printf '{"id":%d,"iid":%d,"state":"%s","labels":[],"title":"the bug","references":{"full":"%s"}%s}\n' \
    "$((1000 + $2))" "$2" "$3" "$4" "${5-}" > "$fake/api/$1.json"
}

echo base > README
mkdir -p .ai/repo tests && printf '[forge]\nprovider = "gitlab"\n' > .ai/repo/majordomus.toml
echo 'true' > tests/t.sh
commit_all "initial"
git init -q --bare -b main "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
git push -q -u origin main
expect_run 0 md start "a feature"
expect_run 0 md issue file 3
expect_run 0 md issue claim 4

# #3 moved to group/other, where it is #12, open; #4 closed as a duplicate
# of group/tools#9 (project 42), open.
issue "projects/group%2Fwidgets/issues/3" 3 closed group/widgets#3 ',"moved_to_id":5012'
echo '{"data":{"issue":{"iid":"12","projectId":31}}}' > "$fake/graphql/5012.json"
issue "projects/31/issues/12" 12 opened group/other#12
issue "projects/group%2Fwidgets/issues/4" 4 closed group/widgets#4 \
  ',"moved_to_id":null,"_links":{"self":"https://gitlab.example.com/api/v4/projects/7/issues/4","closed_as_duplicate_of":"https://gitlab.example.com/api/v4/projects/42/issues/9"}'
issue "projects/42/issues/9" 9 opened group/tools#9
expect_run 0 md forge refresh
expect_open filings-closed 'group/other#12, which is still open' owed
expect_open claims-released 'group/tools#9, which is still open and held' owed
grep -q 'api graphql' "$fake/calls" || fail "the move was not followed: $(cat "$fake/calls")"

# The issues they became closed: settled once observed.
issue "projects/31/issues/12" 12 closed group/other#12
issue "projects/42/issues/9" 9 closed group/tools#9
expect_run 0 md forge refresh
expect_answer filings-closed pass 'group/other#12, which is closed'
expect_answer claims-released pass 'group/tools#9, which is closed'

# A move into a project this account cannot see is no close either.
rm "$fake/graphql/5012.json"
expect_run 0 md forge refresh
expect_open filings-closed 'cannot see, which does not exist' owed
