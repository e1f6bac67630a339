# The task record says what judges the task: its scope, its start commit,
# the snapshot of what it inherited. Editing it (a scope widened with sed,
# the snapshot made to inherit the task's own edit) is no way to a pass:
# a record that differs from the copy majordomus keeps in the git directory
# is not believed, every question that needs it is unknown and the stop
# blocks; `cp` of the copy puts majordomus's record back; `scope add` is how
# a scope grows, and keeps the two alike.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src docs
echo "one" > src/a.txt
echo "one" > docs/b.txt
commit_all "initial"
exempt_forge
commit_all "no forge here"
md start "the parser" --scope src >/dev/null
echo "two" >> docs/b.txt
commit_all "docs too"
expect_run 10 md check
expect_contains "scoped=refused"

# The scope widened by hand.
python3 - <<'PY'
import json
p = ".ai/local/state/task.json"
r = json.load(open(p))
r["scope"] = ["src", "docs"]
json.dump(r, open(p, "w"), indent=2)
PY
expect_run 10 md check
expect_contains "changed by hand"
expect_contains "scoped=unknown"
expect_not_contains "scoped=pass"
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the record changed by hand"
expect_contains "changed by hand"

# Majordomus's record put back as the evidence says; then the scope grows
# the way it is meant to.
cp .git/majordomus/task.json .ai/local/state/task.json
expect_run 10 md check
expect_contains "scoped=refused"
expect_run 0 md scope add docs
cmp -s .git/majordomus/task.json .ai/local/state/task.json || fail "scope add left the copy behind"
expect_run 10 md check
expect_not_contains "scoped="
expect_not_contains "changed by hand"
