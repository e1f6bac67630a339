#!/usr/bin/env bash
# pytest makes `.pytest_cache/`, which ignores itself through its own
# `.gitignore` holding `*`: a rule that did not hold at the start, so its
# files count as a gate's inputs (`["**"]`, what `init` writes). pytest
# writes `v/cache/nodeids` again at every run, byte for byte: its stamp
# moves, and every `gate run` after the first said "1 input file changed
# while it ran" and recorded nothing; `majordomus gate run pytest`, the
# remedy, never worked as written. An input git ignores now, by a rule
# newer than the start, whose stamp moved during the run but which holds
# the content and mode it was hashed with, leaves the verdict standing:
# the remedy run as written records it, and gates-green passes. A tracked
# input rewritten the same way, and a cache file whose content changed,
# still record no verdict.
source "$(dirname "$0")/../lib.sh" || exit 2

majordomus_on_path
mkdir -p src tests
echo 'def f(): return 1' > src/m.py
printf 'import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))\nfrom m import f\ndef test_f(): assert f() == 1\n' > tests/test_m.py
printf '[pytest]\n' > pytest.ini
printf '__pycache__/\n' > .gitignore
md init > /dev/null
# Two optional gates (gates-green does not wait for them), each writing an
# input while it runs: src/m.py as it was, and the cache with new content.
cat >> .ai/repo/majordomus.toml <<'TOML'
[gates.touched]
run = "python3 -m pytest -q -p no:cacheprovider && touch src/m.py"
inputs = ["**"]
required = false
[gates.rewritten]
run = "printf '[]' > .pytest_cache/v/cache/nodeids"
inputs = ["**"]
required = false
TOML
commit_all "project and policy"; with_origin
md start "fix f" > /dev/null
echo 'def f(): return 2' > src/m.py
sed -i 's/== 1/== 2/' tests/test_m.py
commit_all "fix f"
git push -q origin main

# The first run makes the cache: new inputs, so its verdict is stale, and
# the remedy is to run the gate again.
expect_run 0 md gate run pytest
expect_open gates-green "pytest is stale" "owed"
[ "$(remedy_of gates-green)" = "majordomus gate run pytest" ] || fail "expected the remedy to run the gate again, got: $(remedy_of gates-green)"
# The remedy as written: pytest rewrites its nodeids as they were, and the
# run is recorded.
follow_remedy gates-green
case "$out" in *"changed while it ran"*) fail "the cache rewritten as it was voided the run" ;; esac
expect_answer gates-green "pass" "pytest"
expect_run 0 md gate run pytest
expect_answer gates-green "pass" "pytest"

# A tracked input rewritten as it was during the run: no verdict, as ever
# (said as a rewrite to the same bytes: test/cases/546).
expect_run 10 md gate run touched
expect_contains "written again while it ran (src/m.py), each with the bytes it was hashed with"
expect_contains "No verdict was recorded"
# The cache's content changed during the run: no verdict either.
expect_run 10 md gate run rewritten
expect_contains "changed while it ran (.pytest_cache/v/cache/nodeids)"
