# The README's "What a pass is worth" says what majordomus defends against
# (a worker that forgets, rounds up, or takes shortcuts with ordinary git and
# shell commands), what it cannot (a process running as the same user that
# rewrites the records by hand, which CI's own run of the gates answers),
# that another worktree's uncommitted files are not counted, and how each
# record can be checked after the fact; every section it points to exists.
readme="$(cd "$(dirname "$0")/../.." && pwd)/README.md"
source "$(dirname "$0")/../lib.sh" || exit 2

[ -f "$readme" ] || fail "no README at $readme"
out=$(python3 - "$readme" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"^## What a pass is worth\n(.*?)(?=^## |\Z)", text, re.S | re.M)
print(m.group(1) if m else "")
PY
)
[ -n "$out" ] || fail "the README has no section \"## What a pass is worth\""
expect_contains "by hand"
expect_contains "runs the gates again"
expect_contains "Another worktree's"
for record in task.json ledger.jsonl gates.completion.json forge.json baseline; do
  expect_contains "$record"
done

# Every "(Section name)" the table points to is a heading or a bold
# paragraph title of the README.
missing=$(python3 - "$readme" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = re.search(r"^## What a pass is worth\n(.*?)(?=^## |\Z)", text, re.S | re.M).group(1)
titles = re.findall(r"^#+ (.*)$", text, re.M) + re.findall(r"^\*\*([^*]+)\*\*", text, re.M)
titles = {t.replace('"', '').strip().rstrip('.') for t in titles}
for row in re.findall(r"^\|.*\|$", section, re.M):
    for group in re.findall(r"\(([A-Z][^()`]*)\)", row):
        for name in group.split("; "):
            if not any(t == name or t.startswith(name) for t in titles):
                print(name)
PY
)
[ -z "$missing" ] || fail "the section points to sections the README lacks: $missing"
