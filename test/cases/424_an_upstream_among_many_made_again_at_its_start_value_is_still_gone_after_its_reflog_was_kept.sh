# As case 301, with seventy branches besides feature, each tracking a
# branch of origin: at that many the upstreams' reflogs are read beside
# the remote-tracking refs and what was read is kept by the files' stamps
# (.ai/local/state/upstream-logs.cache), a reflog whose stamp holds is not
# read again. Each time after a check kept them (the files settled: two
# seconds old), the upstream deleted on origin and made again at its start
# value before the next check, by a fetch of main into it or by
# update-ref, is still gone: deleting a ref deletes its reflog, and the one
# made again is a new file, read again.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
branches=(feature)
for i in $(seq -w 1 70); do branches+=("t$i"); done
for b in "${branches[@]}"; do git branch "$b"; done
git push -q -u origin "${branches[@]}"
expect_run 0 md start "a feature"

kept=$case_root/repo/.ai/local/state/upstream-logs.cache
settle_and_keep() {
  sleep 2.1
  expect_answer upstream-alive "pass" "none is gone"
  [ "$(grep -c "^[0-9]" "$kept")" = 72 ] ||
    fail "the 72 upstreams' reflogs (main, feature and the seventy) were not kept: $(head -c 300 "$kept")"
  grep -q "refs/remotes/origin/feature	" "$kept" || fail "feature's reflog was not kept"
}

settle_and_keep
git push -q origin --delete feature
git fetch -q origin main:refs/remotes/origin/feature
[ "$(git rev-parse origin/feature)" = "$(git rev-parse main)" ] || fail "setup: not at its start value"
expect_open upstream-alive "origin/feature.*deleted or rewritten" "owed"
expect_open upstream-alive "origin/feature.*deleted or rewritten" "owed"

# Pushed again, origin holds it: alive, and kept again.
git update-ref -d refs/remotes/origin/feature
git push -q origin feature
settle_and_keep
git push -q origin --delete feature
git update-ref refs/remotes/origin/feature main
expect_open upstream-alive "origin/feature.*deleted or rewritten" "owed"
