#!/usr/bin/env bash
# The whole test suite: cargo's tests, then every behavioural case in
# test/cases/, each in its own disposable repository. Ends with the line
# `N passed, N failed` counting both.
#
#   bash test/run.sh              everything
#   bash test/run.sh --cases [PATTERN]   only the cases (whose name contains PATTERN)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

cases_only=0
pattern=""
if [ "${1-}" = "--cases" ]; then
  cases_only=1
  pattern=${2-}
fi

passed=0
failed=0

cargo build --quiet --bin majordomus || { echo "0 passed, 1 failed"; exit 1; }
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
export MAJORDOMUS="$target_dir/debug/majordomus"

if [ "$cases_only" -eq 0 ]; then
  log=$(mktemp)
  cargo test --workspace 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  read -r p f < <(sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\1 \2/p' "$log" |
    awk '{p += $1; f += $2} END {print p + 0, f + 0}')
  rm -f "$log"
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "cargo test failed without a failing test (a build error?)"
    failed=$((failed + 1))
  fi
fi

for case in test/cases/*.sh; do
  [ -e "$case" ] || continue
  name=$(basename "$case" .sh)
  case "$name" in *"$pattern"*) ;; *) continue ;; esac
  started=$(date +%s%N)
  # A case run without its lib.sh (copied elsewhere, run by hand) would run
  # its git commands wherever it stands: each stops at once instead.
  if ! grep -qx 'source "$(dirname "$0")/../lib.sh" || exit 2' "$case"; then
    failed=$((failed + 1))
    printf 'case %-60s FAILED\n%s\n' "$name" 'its lib.sh line is not `source "$(dirname "$0")/../lib.sh" || exit 2`'
    continue
  fi
  if output=$(cd "${TMPDIR:-/tmp}" && timeout 120 bash "$root/$case" 2>&1); then
    passed=$((passed + 1))
    printf 'case %-60s ok (%d ms)\n' "$name" $(( ($(date +%s%N) - started) / 1000000 ))
  else
    failed=$((failed + 1))
    printf 'case %-60s FAILED\n%s\n' "$name" "$output"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
