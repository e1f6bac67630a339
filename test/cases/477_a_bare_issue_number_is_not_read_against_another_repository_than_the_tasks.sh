# A bare `#9` in a marker (a claim, a filing) is asked of the repository
# `gh repo view` answered for. `gh repo set-default someone/other` (a
# remote's gh-resolved) for a refresh made it someone/other's #9, open and
# labelled limitation, while this repository's #9 is closed: markers-live
# passed. The rule (test/cases/476): an observation of another repository
# than the one the task started against is `unknown` for every question
# that reads it, naming both, until the setting is undone and it is taken
# again.
source "$(dirname "$0")/../lib.sh" || exit 2

L="LIMIT""ATION"
fake_gh_with_issues
# gh's `repo view` as gh resolves it: a remote's gh-resolved OWNER/REPO first.
python3 - "$fake/bin/gh" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace('''"repo view") echo '{"nameWithOwner":"acme/widgets"}' ;;''',
 '''"repo view") r=$(git config --get-regexp '^remote\\..*\\.gh-resolved$' | awk '$2!="base"{print $2}' | head -1)
    printf '{"nameWithOwner":"%s"}\\n' "${r:-acme/widgets}" ;;''')
open(p, "w").write(s)
PY
mkdir -p src tests
echo 'pub fn parse() {}' > src/lib.rs
commit_all "initial"
with_origin
on_forge acme/widgets 9 closed limitation
on_forge someone/other 9 open limitation
expect_run 0 md forge refresh
expect_run 0 md start "parse the trailer"

printf 'pub fn trailer() {}\n// %s(#9): extension fields are not parsed\n' "$L" >> src/lib.rs
echo '#[test] fn t() {}' > tests/trailer.rs
commit_all "parse the trailer"
git push -q origin main
expect_run 0 md forge refresh
expect_open markers-live "#9" refused          # the honest reading: acme/widgets#9 is closed

git config remote.origin.gh-resolved someone/other   # gh repo set-default, kept
expect_run 0 md forge refresh
expect_open markers-live "gh-resolved.*someone/other|of someone/other.*started against acme/widgets" unknown
expect_open backlog-not-grown "someone/other" unknown

# Undone and refreshed: acme/widgets's word again.
git config --unset remote.origin.gh-resolved
expect_run 0 md forge refresh
expect_open markers-live "#9" refused
