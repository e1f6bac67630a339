#!/usr/bin/env bash
# bash's options in SHELLOPTS and BASHOPTS are compared without those that
# only make a run stop sooner (errexit, nounset, pipefail, inherit_errexit)
# in one direction only: a run may add them to the start's (test/cases/446),
# never take away one the start had. Started from a wrapper under `set -e`
# that exports SHELLOPTS, a gate `bash ci/check.sh` of plain checks, one a
# line, stops at its first failing line; from a plain shell it runs on past
# the failing grep and exits 0. That pass is owed, naming SHELLOPTS; the
# failure as at the start counts, and the fix run from the wrapper passes.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests ci
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "bash ci/check.sh"
inputs = ["**"]
TOML
exempt_forge
printf 'grep -q fixed src/lib.rs\necho checked\n' > ci/check.sh
echo "fn a() { fixed }" > src/lib.rs
commit_all "initial"
with_origin
wrapped() { bash -c 'set -e; export SHELLOPTS; "$MAJORDOMUS" "$@"' wrapper "$@"; }
expect_run 0 wrapped start "fix a"
echo "fn a() { broken }" > src/lib.rs
echo "#[test] fn t() {}" > tests/a.rs
commit_all "work"
git push -q origin main
expect_run 10 wrapped gate run unit

# From a plain shell, without the start's errexit: not the start's run.
expect_run 0 env -u SHELLOPTS "$MAJORDOMUS" gate run unit
expect_open gates-green "unit .*SHELLOPTS" "owed"
# Without errexit but with pipefail added, still not the start's.
expect_run 0 env SHELLOPTS=braceexpand:hashall:interactive-comments:pipefail "$MAJORDOMUS" gate run unit
expect_open gates-green "unit .*SHELLOPTS" "owed"

# As at the start, the gate fails, and the failure counts.
expect_run 10 wrapped gate run unit
expect_open gates-green "unit failed" "refused"

# The honest flow: fixed, run from the wrapper with more strictness added.
echo "fn a() { fixed }" > src/lib.rs
commit_all "fixed"
git push -q origin main
expect_run 0 bash -c 'set -eu -o pipefail; export SHELLOPTS; "$MAJORDOMUS" gate run unit'
expect_answer gates-green pass "unit passed"
