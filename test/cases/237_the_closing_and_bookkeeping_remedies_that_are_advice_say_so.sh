# More of the remedies no command line settles as written, each marked
# advice in check --json: new debt (take it out, or fix what it permits),
# nothing measurable (commit or declare the work), a forge never observed
# (refreshing needs gh or glab), background work still running.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo
printf 'src/a.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo one > a.txt
commit_all "initial"
with_origin
# A remote on a forge: with every remote a directory on this machine, the
# default forge holds nothing and the question is exempt (test/cases/517).
git remote add upstream https://github.com/acme/widgets.git
expect_run 0 md start "nothing yet"

printf 'src/b.rs: expect\n' >> .ai/repo/lint-baseline.txt
sleep 60 &
worker=$!
trap 'kill "$worker" 2>/dev/null; rm -rf "$case_root"' EXIT
expect_run 0 md bg add "$worker" --what "a watcher"
status_of no-new-debt > /dev/null
for id in no-new-debt measurable backlog-not-grown no-background-work; do
  expect_also "$id" "." "owed refused unknown"
  expect_advice "$id"
done
