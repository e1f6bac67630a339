# With no `[forge] provider` the forge is GitHub, asked through gh, which
# resolves the repository from the remotes' URLs. Where every remote is a
# directory on this machine (as `init` itself says: "not a forge"), no forge
# holds a pull request, and backlog-not-grown could only stay unknown. A task
# started on a branch made from a tag older than the policy file has no
# policy at its start; the committed `provider = "none"` was a loosening not
# in force, and finishing `partial` and starting again continues the task
# under the start's policy: no way out. So where no provider is set and every
# remote is on this machine, at the start and now, the default answers as
# `none` does (exempt, saying why), and `none` written in its place is in
# force at once. A remote re-pointed since the start, to a directory or away
# from one, or a second remote across a network, keeps the GitHub default.
source "$(dirname "$0")/../lib.sh" || exit 2
export PATH=/usr/bin:/bin   # no gh

echo 'x = 1' > lib.py; commit_all "1.0"; git tag v1.0
with_origin
mkdir -p .ai/repo; printf '[forge]\nprovider = "none"\n' > .ai/repo/majordomus.toml
commit_all "majordomus: the policy"; git push -q
git switch -q -c hotfix v1.0
md start "hotfix from v1.0" > /dev/null
echo 'x = 2' > lib.py; mkdir tests; echo 'def test_x(): assert True' > tests/test_lib.py
expect_answer backlog-not-grown exempt "directory on this machine"
git checkout main -- .ai/repo/majordomus.toml
commit_all "hotfix, with a test and the policy"
git push -q -u origin hotfix
git switch -q main; git merge -q --no-edit hotfix; git push -q; git push -q origin --delete hotfix
git branch --unset-upstream hotfix 2>/dev/null || true; git branch -d hotfix -q
expect_answer backlog-not-grown exempt "no forge"
expect_run 0 md check
expect_contains "[forge] provider: changed from github (the default) to none, where every remote is a directory on this machine"
expect_not_contains "a loosening"
md finish --outcome partial > /dev/null
md start "the next task" > /dev/null
echo 'x = 3' > lib.py; echo 'def test_y(): assert True' >> tests/test_lib.py; commit_all "next"; git push -q
expect_answer backlog-not-grown exempt "no forge"
expect_run 0 md check
md finish --outcome completed > /dev/null

# A remote across a network at the start, re-pointed at a directory since:
# the start's URL decides too, so the default forge is still asked.
git rm -q .ai/repo/majordomus.toml; commit_all "no policy"; git push -q
origin_dir=$(git remote get-url origin)
git remote set-url origin https://github.com/acme/widgets.git
git worktree add -q "$case_root/across" -b across
cd "$case_root/across"
md start "across a network at the start" > /dev/null
git remote set-url origin "$origin_dir"
expect_open backlog-not-grown "never observed" unknown

# On this machine at the start, across a network now: the same.
git worktree add -q "$case_root/here" -b here
cd "$case_root/here"
md start "on this machine at the start" > /dev/null
expect_answer backlog-not-grown exempt "directory on this machine"
git remote set-url origin https://github.com/acme/widgets.git
expect_open backlog-not-grown "never observed" unknown
git remote set-url origin "$origin_dir"

# A second remote on a forge beside the directory: gh would resolve it.
git remote add upstream https://github.com/acme/widgets.git
expect_open backlog-not-grown "never observed" unknown
git remote remove upstream
# Nor a push URL across a network.
git remote set-url --push origin https://github.com/acme/widgets.git
expect_open backlog-not-grown "never observed" unknown
git config --unset remote.origin.pushurl
expect_answer backlog-not-grown exempt "directory on this machine"
