#!/usr/bin/env bash
# The class of 420 (MAKEFLAGS, PYTEST_ADDOPTS), through the variables a
# test runner reads for itself that were not yet recorded: node's runner
# under NODE_TEST_CONTEXT=child takes itself for a file another runner
# started, runs no test file and exits 0; prove (Test::Harness) passes
# HARNESS_PERL_SWITCHES to the perl of every test file, and
# `-MTest::More=skip_all,x` skips each before its first test. A pass
# recorded under either, over tests that fail, is named and owed and does
# not replace the failure: run as at the start, the gates are refused.
# The same list holds every runner's own variables (ledger::GATE_ENVIRONMENT
# and its families: RSpec's SPEC_OPTS, rake's TESTOPTS, tox's, nox's,
# node-tap's, cargo's aliases, ...).
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo tests t
{
  printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "no forge here"\n\n'
  printf '[gates.node]\nrun = "node --test tests/"\ninputs = ["**"]\n\n'
  printf '[gates.prove]\nrun = "prove t"\ninputs = ["**"]\n'
} > .ai/repo/majordomus.toml
printf "const test = require('node:test');\nconst assert = require('node:assert');\ntest('sum', () => { assert.strictEqual(1 + 2, 3); });\n" \
  > tests/sum.test.js
printf 'use Test::More tests => 1;\nis(1 + 2, 3, "sum");\n' > t/sum.t
commit_all "initial"
expect_run 0 md start "break the sums"
sed -i 's/, 3)/, 4)/' tests/sum.test.js
sed -i 's/, 3,/, 4,/' t/sum.t
commit_all "work"
expect_run 10 md gate run node
expect_run 10 md gate run prove

# Each runner runs nothing under its own variable, and exits 0.
NODE_TEST_CONTEXT=child expect_run 0 md gate run node
HARNESS_PERL_SWITCHES='-MTest::More=skip_all,x' expect_run 0 md gate run prove
expect_open gates-green "node .*NODE_TEST_CONTEXT" "owed"
expect_also gates-green "prove .*HARNESS_PERL_SWITCHES" "owed"
expect_run 10 md check
expect_contains "-u HARNESS_PERL_SWITCHES"
expect_contains "-u NODE_TEST_CONTEXT"

# As at the start, they fail: the failure still counts.
expect_run 10 md gate run --all
expect_status gates-green refused

# The honest flow: the sums made right, both gates run as at the start, green.
sed -i 's/1 + 2, 4/2 + 2, 4/' tests/sum.test.js t/sum.t
commit_all "fixed"
expect_run 0 md gate run --all
expect_answer gates-green pass "2 passing"
