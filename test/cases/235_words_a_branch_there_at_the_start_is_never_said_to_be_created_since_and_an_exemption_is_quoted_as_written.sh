# Words a user reads: the task's own branch, made before the start, is owed
# but never described as created since the start; work simply ahead of the
# trunk says nothing about a squash search; an exemption's reason is quoted
# as the policy wrote it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo one > a.txt
commit_all "initial"
for n in 1 2 3; do echo "$n" > history.txt; commit_all "trunk history $n"; done
with_origin
git switch -q -c topic
mkdir -p .ai/repo
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here; issues live in the wiki"
TOML
commit_all "the policy"
expect_run 0 md start "the topic"

echo work >> a.txt
commit_all "the topic's work"
git push -q -u origin topic
expect_answer nothing-accumulated "owed" "topic"
ev=$(evidence_of nothing-accumulated)
case "$ev" in *"created since the start"*) out=$ev; fail "the branch made before the start is said to be created since" ;; esac
case "$ev" in *"there at the start"*) ;; *) out=$ev; fail "expected the evidence to say the branch was there at the start" ;; esac

expect_answer integrated "owed" "does not reach HEAD"
ev=$(evidence_of integrated)
case "$ev" in *"squash"*|*"not searched"*) out=$ev; fail "work ahead of the trunk's tip speaks of a squash search" ;; esac

expect_answer backlog-not-grown "exempt" "no forge here; issues live in the wiki"
