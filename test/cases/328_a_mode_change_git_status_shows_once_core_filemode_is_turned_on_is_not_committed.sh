# core.fileMode was off at the start (a checkout on a file system without
# the bit, say). The task makes run.sh executable, then turns
# core.fileMode on: `git status` now shows ` M run.sh`, yet committed
# passed, reading the working tree by the start's setting, which hides
# the mode. A setting changed since the start so as to hide less is read
# as now, as git reads it: owed, until the mode is committed.
source "$(dirname "$0")/../lib.sh" || exit 2

printf '#!/bin/sh\n' > run.sh
echo base > README
exempt_forge
commit_all "initial"
with_origin
git config core.fileMode false
expect_run 0 md start "make run.sh executable"
expect_run 0 md todo add "run.sh"
expect_run 0 md todo done 1

chmod +x run.sh
git config core.fileMode true
[ "$(git status --porcelain)" = " M run.sh" ] || fail "setup: git status does not show the mode change"
expect_open committed "run.sh" "owed"
expect_run 10 md check

mkdir -p tests
echo t > tests/run.sh
git add run.sh tests
git commit -qm "run.sh is executable"
git push -q origin main
expect_answer committed "pass" "."
expect_run 0 md check
