# Where no command line settles a question as written (a choice, work only
# the task can do, a placeholder to fill), the remedy is marked advice in
# check --json and shown after "advice:" in check's text, never "remedy:";
# every answer says which its remedy is.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src docs
echo 'fn main() {}' > src/main.rs
echo one > docs/a.md
printf 'src/a.rs: unwrap\n' > .ai-baseline.txt
commit_all "initial"
with_origin
git checkout -q -b topic
expect_run 0 md start "fix main" --scope src

# Work outside the scope, a stash made, code without a test, a todo left.
echo 'fn main() { println!("x"); }' > src/main.rs
echo two >> docs/a.md
git stash -q
echo 'fn main() { println!("y"); }' > src/main.rs
echo two >> docs/a.md
commit_all "main prints"
git push -q -u origin topic
expect_run 0 md todo add "say why it prints"

status_of scoped > /dev/null
for id in scoped regression-tested no-stash integrated todos-done; do
  expect_also "$id" "." "owed refused unknown"
  expect_advice "$id"
done
python3 - "$case_root/doc.json" <<'PY' || fail "an answer does not say what its remedy is"
import json, sys
d = json.load(open(sys.argv[1]))
bad = [q["id"] for q in d["questions"] if q.get("remedy_kind") not in ("command", "advice")]
bad += [c["id"] for c in d["caps"] if c.get("remedy_kind") not in ("command", "advice")]
assert not bad, bad
PY
expect_run 10 md check
expect_contains "advice: add or change a test"
expect_not_contains "remedy: add or change a test"

# Without a task, the remedy names a placeholder: advice too.
expect_run 0 md finish --outcome partial
status_of committed > /dev/null
expect_advice committed
