# Issue 10 §9: a README section "What a pass is worth" says what majordomus
# defends against (a worker that forgets, rounds up, or takes shortcuts with
# ordinary git and shell commands), what it cannot (a process running as
# the same user that rewrites the records by hand, which CI's own run of
# the gates answers), and how each record can be checked after the fact.
# §4 adds: another worktree's uncommitted files are not counted, said there.
readme="$(cd "$(dirname "$0")/../.." && pwd)/README.md"
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

[ -f "$readme" ] || fail "no README at $readme"
section=$(python3 - "$readme" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"^## What a pass is worth\n(.*?)(?=^## |\Z)", text, re.S | re.M)
print(m.group(1) if m else "")
PY
)
[ -n "$section" ] || fail "the README has no section \"## What a pass is worth\""
out=$section
expect_contains "by hand"
expect_contains "CI"
case "$section" in *worktree*) ;; *) fail "the section does not say another worktree's files are not counted" ;; esac
