# A task record that is wrong in one part answers the questions that need
# that part unknown, says which part, and leaves the others measured: a
# start commit that is not in the repository (no-new-debt, whether or not
# the record holds a snapshot of the baselines) and a start time that is
# not RFC 3339 (nothing-accumulated, backlog-not-grown). Restoring it answers them again.
source "$(dirname "$0")/../lib.sh" || exit 2

status() { json_get .ai/local/state/gates.completion.json "[q['status'] for q in d['questions'] if q['id'] == '$1'][0]"; }
evidence() { json_get .ai/local/state/gates.completion.json "[q['evidence'] for q in d['questions'] if q['id'] == '$1'][0]"; }
# The record is a fixture of what a majordomus wrote, so its copy in the git
# directory says the same (one that differs is a record changed by hand:
# test/cases/263).
edit_record() {
  python3 - "$1" <<'PY'
import json, sys
path = ".ai/local/state/task.json"
r = json.load(open(path))
exec(sys.argv[1])
json.dump(r, open(path, "w"), indent=2)
PY
  cp .ai/local/state/task.json .git/majordomus/task.json
}
restore_record() {
  cp "$case_root/good.json" .ai/local/state/task.json
  cp "$case_root/good.json" .git/majordomus/task.json
}

mkdir -p .ai/repo
printf 'one\n' > .ai/repo/lint-baseline.txt
printf '[forge]\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
echo "hello" > README
commit_all "initial"
expect_run 0 md start "a task"
cp .ai/local/state/task.json "$case_root/good.json"
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
printf '{"schema":"majordomus/forge/v1","observed_at":"%s","repository":"o/r"}' "$now" | md forge record - >/dev/null

expect_run 10 md check
[ "$(status no-new-debt)" = pass ] || fail "no-new-debt: $(status no-new-debt)"
[ "$(status nothing-accumulated)" = pass ] || fail "nothing-accumulated: $(status nothing-accumulated)"
[ "$(status backlog-not-grown)" = pass ] || fail "backlog-not-grown: $(status backlog-not-grown)"

# A start commit that is not in this repository, with no snapshot of the
# baselines to read instead.
edit_record 'r["head"] = "0123456789abcdef0123456789abcdef01234567"; r["snapshot"].pop("baseline_bytes")'
expect_run 10 md check
[ "$(status no-new-debt)" = unknown ] || fail "no-new-debt: $(status no-new-debt)"
case "$(evidence no-new-debt)" in *"is not in this repository"*) ;; *) fail "no-new-debt says: $(evidence no-new-debt)" ;; esac
[ "$(status nothing-accumulated)" = pass ] || fail "nothing-accumulated: $(status nothing-accumulated)"
[ "$(status backlog-not-grown)" = pass ] || fail "backlog-not-grown: $(status backlog-not-grown)"

# The same start commit with the snapshot of the baselines kept: the record
# still does not say where the task started.
restore_record
edit_record 'assert r["snapshot"]["baseline_bytes"]; r["head"] = "0123456789abcdef0123456789abcdef01234567"'
expect_run 10 md check
[ "$(status no-new-debt)" = unknown ] || fail "no-new-debt with the snapshot kept: $(status no-new-debt)"
case "$(evidence no-new-debt)" in *"is not in this repository"*) ;; *) fail "no-new-debt says: $(evidence no-new-debt)" ;; esac
[ "$(status nothing-accumulated)" = pass ] || fail "nothing-accumulated: $(status nothing-accumulated)"
[ "$(status backlog-not-grown)" = pass ] || fail "backlog-not-grown: $(status backlog-not-grown)"

# A start time that is not RFC 3339.
restore_record
edit_record 'r["started_at"] = "this morning"'
expect_run 10 md check
for q in nothing-accumulated backlog-not-grown; do
  [ "$(status $q)" = unknown ] || fail "$q: $(status $q)"
  case "$(evidence $q)" in *'"this morning" is not RFC 3339'*) ;; *) fail "$q says: $(evidence $q)" ;; esac
done
[ "$(status no-new-debt)" = pass ] || fail "no-new-debt: $(status no-new-debt)"

# Restored, the record answers them all again.
restore_record
expect_run 10 md check
for q in no-new-debt nothing-accumulated backlog-not-grown; do
  [ "$(status $q)" = pass ] || fail "$q after restoring: $(status $q)"
done
