#!/usr/bin/env bash
# backlog-not-grown named the open pull requests created since the start,
# so `gh pr reopen 3` of an old attempt, closed when the task began, left
# one more open and the question passed: its creation time is years old.
# The start keeps the numbers the forge observation current then held
# open; a pull request open now that it did not hold, made before it was
# taken, was reopened since, and is owed, named as reopened. One open at
# the start stays inherited; one made between that observation and the
# start is not taken for reopened (it could not be in it). Without an
# observation at the start, creation times alone are read (README).
source "$(dirname "$0")/../lib.sh" || exit 2

fake="$case_root/fake-gh"
mkdir -p "$fake/bin"
cat > "$fake/bin/gh" <<'GH'
#!/usr/bin/env bash
case "$1 $2" in
  "repo view") echo '{"nameWithOwner":"acme/widgets"}' ;;
  "pr list") cat "$(dirname "$0")/../prs.json" ;;
  *) echo "unknown command \"$1\" for \"gh\"" >&2; exit 1 ;;
esac
GH
chmod +x "$fake/bin/gh"
export PATH="$fake/bin:$PATH"
pr() { printf '{"number":%s,"title":"%s","author":{"login":"me"},"headRefName":"b%s","createdAt":"%s","state":"OPEN"}' "$1" "$2" "$1" "$3"; }
old=2020-01-01T00:00:00Z
echo base > README
commit_all "initial"
with_origin

# At the start, #2 is open and #3 closed.
printf '[%s]\n' "$(pr 2 "still open" $old)" > "$fake/prs.json"
expect_run 0 md forge refresh
sleep 1
later=$(python3 -c "import datetime; print(datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))")
sleep 1
expect_run 0 md start "a feature"
git commit -q --allow-empty -m "the work"
git push -q origin main

# Nothing reopened: the one open then is inherited.
expect_run 0 md forge refresh
expect_answer backlog-not-grown pass ""

# #3 reopened (gh reports it open, made in 2020).
printf '[%s,%s]\n' "$(pr 2 "still open" $old)" "$(pr 3 "old attempt" $old)" > "$fake/prs.json"
expect_run 0 md forge refresh
expect_open backlog-not-grown '#3 "old attempt" by me \(made before the start, and not open when the forge was observed at .*reopened\)' owed
expect_not_contains "$(evidence_of backlog-not-grown)" "#2"
expect_run 10 md check

# #4, made after the start's observation and before the start: not the
# task's, not reopened.
printf '[%s,%s]\n' "$(pr 2 "still open" $old)" "$(pr 4 "made meanwhile" "$later")" > "$fake/prs.json"
expect_run 0 md forge refresh
expect_answer backlog-not-grown pass ""
