# The squash-merge search walks the trunk's history back to the merge base.
# Its answer is a function of HEAD's and the trunk's ids, kept in
# .ai/local/state/integration.cache.json: a second check with the same ids
# reads no trunk commit. Proved by removing, after the first check, a trunk
# commit the search reads: the second check still answers, and without the
# kept answer the same state cannot be read.
source "$(dirname "$0")/../lib.sh" || exit 2

# One commit a minute, so that history walks end where the dates say.
commit_at() {
  git add -A
  GIT_AUTHOR_DATE="$((1700000000 + 60 * $1)) +0000" GIT_COMMITTER_DATE="$((1700000000 + 60 * $1)) +0000" \
    git commit -q -m "work $1"
}
for n in 0 1 2 3 4 5; do echo "$n" > trunk.txt; commit_at "$n"; done
with_origin
git checkout -q -b feature
echo work > feature.txt
commit_at 6
git checkout -q main
for n in 7 8 9 10 11 12; do echo "$n" > trunk.txt; commit_at "$n"; done
git push -q origin main
below=$(git rev-parse main~3)
git checkout -q feature
expect_run 0 md start "the feature"

expect_open integrated 'feature\.txt' owed
first=$(evidence_of integrated)
[ -f .ai/local/state/integration.cache.json ] || fail "no answer was kept"

# A trunk commit between the tip and the merge base, gone.
rm ".git/objects/${below:0:2}/${below:2}"
expect_open integrated 'feature\.txt' owed
[ "$(evidence_of integrated)" = "$first" ] || fail "the kept answer changed: $(evidence_of integrated)"

# Without the kept answer the search must walk, and cannot.
rm .ai/local/state/integration.cache.json
expect_open integrated "$below" unknown

# A damaged cache is ignored, never an answer.
echo '{ not json' > .ai/local/state/integration.cache.json
expect_open integrated "$below" unknown
