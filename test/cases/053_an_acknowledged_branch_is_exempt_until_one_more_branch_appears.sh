# A branch a peer created in this shared repository since the start is
# acknowledged as not this task's work: `nothing-accumulated` turns exempt
# with the reason shown, keyed to exactly the branches it named; one more
# branch brings the question straight back, naming the whole set and the
# one never acknowledged.
source "$(dirname "$0")/../lib.sh" || exit 2

evidence_of() {
  json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == '$1'][0]['evidence']"
}

echo "hello" > README
commit_all "initial"
expect_run 0 md start "a task beside a peer"

# Nothing created yet: nothing to acknowledge, and nothing is recorded.
expect_status nothing-accumulated pass
expect_run 2 md ack nothing-accumulated --why "a peer's branch"
expect_contains "names nothing to acknowledge"

# A peer's branch appears after the start.
git branch peer-work
expect_status nothing-accumulated owed
expect_run 2 md ack nothing-accumulated --why "   "
expect_status nothing-accumulated owed
expect_run 0 md ack nothing-accumulated --why "the reviewer's branch, made in this shared checkout"
expect_contains "acknowledged for nothing-accumulated: branch peer-work"
expect_status nothing-accumulated exempt
out=$(evidence_of nothing-accumulated)
expect_contains "branch peer-work"
expect_contains "the reviewer's branch, made in this shared checkout"
json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == 'nothing-accumulated'][0]['details']['acknowledged'][0]['evidence']" |
  grep -qx "\['branch peer-work'\]" || fail "the acknowledgement is not keyed to the branch"

# One branch more: owed again, the whole set named, the new one called out.
git branch mine
expect_status nothing-accumulated owed
out=$(evidence_of nothing-accumulated)
expect_contains "branch mine"
expect_contains "branch peer-work"
expect_contains "never acknowledged as not this task's work: branch mine."
expect_run 10 md check
expect_contains "nothing-accumulated=owed"

# Gone again: the acknowledged set alone is exempt once more.
git branch -q -D mine
expect_status nothing-accumulated exempt
