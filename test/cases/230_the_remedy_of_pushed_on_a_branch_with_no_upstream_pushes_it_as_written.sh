# pushed's remedy, taken from check --json and run as written, pushes a
# branch that has no upstream (where a bare git push fails), and a branch
# whose upstream has another name; pushed then passes.
source "$(dirname "$0")/../lib.sh" || exit 2

echo one > a.txt
commit_all "initial"
with_origin
git checkout -q -b topic
expect_run 0 md start "the topic"

echo work >> a.txt
commit_all "the topic's work"
expect_open pushed "not on" "owed"
git push > /dev/null 2>&1 && fail "setup: a bare git push worked on a branch with no upstream"
follow_remedy pushed
case "$(remedy_of pushed)" in *"-u origin topic"*) ;; *) fail "expected the remedy to name origin and topic: $(remedy_of pushed)" ;; esac
expect_status pushed pass

# An upstream under another name: the push names it.
git checkout -q -b local-name
git push -q origin local-name:remote-name
git branch -q --set-upstream-to=origin/remote-name
echo more >> a.txt
commit_all "more"
expect_open pushed "not on" "owed"
follow_remedy pushed
expect_status pushed pass
[ "$(git rev-parse origin/remote-name)" = "$(git rev-parse HEAD)" ] || fail "the push did not reach remote-name"
