# `git fetch origin feature:refs/remotes/origin/main` is a real fetch of
# origin, and its reflog line says so, but it writes origin's `feature`
# into the ref that stands for origin's `main`: the trunk then "holds" the
# work while origin's main never saw it. A fetch counts as evidence of the
# ref it moved only where it mapped it as the remote's refspecs at the
# start (or git's default) do; an explicit refspec, a `--refmap`, a `git
# pull` with one, and a fetch refspec configured since the start that map
# another branch onto the ref are read at the ref's start value (README.md, "What counts as on
# a remote"). An ordinary fetch still counts.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git branch gone
git push -q -u origin gone
expect_run 0 md start "a feature"
commit_a_feature feature
git push -q -u origin feature
git checkout -q main
git merge -q --ff-only feature
git branch -q -D feature
expect_open integrated "origin/main" "owed"

# Each way of filling origin/main from origin's feature, one at a time.
trunk=$(git rev-parse origin/main)
for way in explicit refmap pull configured; do
  git update-ref refs/remotes/origin/main "$trunk"
  git fetch -q origin main
  case "$way" in
    explicit) git fetch -q origin feature:refs/remotes/origin/main ;;
    refmap) git fetch -q origin --refmap='+refs/heads/feature:refs/remotes/origin/main' feature ;;
    pull) git pull -q origin feature:refs/remotes/origin/main 2>/dev/null ;;
    configured)
      git config --replace-all remote.origin.fetch '+refs/heads/feature:refs/remotes/origin/main'
      git fetch -q origin
      ;;
  esac
  [ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup ($way): origin/main was not filled from feature"
  expect_open integrated "origin/main" "owed"
  git config --replace-all remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
done

# An upstream gone on origin is not brought back by fetching another branch into its ref.
git push -q origin :gone
git fetch -q --prune origin
expect_open upstream-alive "gone" "owed"
git fetch -q origin feature:refs/remotes/origin/gone
expect_open upstream-alive "gone" "owed"
git branch -q --unset-upstream gone

# The ordinary ways still count: a push of main, then fetches that map as configured.
git update-ref refs/remotes/origin/main "$trunk"
git push -q origin main
expect_answer integrated "pass" "reaches HEAD"
git fetch -q origin main:refs/remotes/origin/main
expect_answer integrated "pass" "reaches HEAD"
git fetch -q origin
expect_answer integrated "pass" "reaches HEAD"
# A refspec added since the start that maps a branch onto its own name
# (a single-branch clone widened) is no crossing: still counted.
git remote set-branches --add origin feature
git fetch -q origin
expect_answer integrated "pass" "reaches HEAD"
