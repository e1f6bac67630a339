# The policy exempts regression-tested until yesterday (in UTC); the task's
# change adds no test. `check` answers it owed, but `TZ=Etc/GMT+12
# majordomus check` (and `finish --outcome completed` under it) read the
# local date twelve hours back, yesterday while it is before noon in UTC,
# and the exemption held again: `done: complete`. The date an exemption
# is judged against is the later of the local date and UTC's, so no TZ
# brings back an exemption that ended. (Before the fix it failed while it
# was before noon in UTC; after it, it holds at any hour.)
source "$(dirname "$0")/../lib.sh"

echo base > README
exempt_forge
yesterday=$(date -u -d yesterday +%F)
cat >> .ai/repo/majordomus.toml <<TOML
[[exempt]]
question = "regression-tested"
reason = "the tests are being rewritten"
until = "$yesterday"
TOML
commit_all "initial"
with_origin
expect_run 0 md start "a change"
echo more >> README
git commit -qam "a change"
git push -q
expect_run 0 md todo add "the change"
expect_run 0 md todo done 1

expect_run 10 md check
expect_open regression-tested 'test' owed
for zone in Etc/GMT+12 Etc/GMT+11 America/Los_Angeles Etc/GMT-14; do
  expect_run 10 env TZ=$zone "$MAJORDOMUS" check
  expect_not_contains "done: complete"
  expect_run 10 env TZ=$zone "$MAJORDOMUS" finish --outcome completed
done
