# The class of PATH and BASH_ENV (test/cases/141), through the variables a
# test runner reads for itself: a pass recorded under a PYTHONPATH that
# puts a stand-in `unittest` before the real one (`python3 -m unittest`
# imports it and exits 0), or under MAKEFLAGS=n (`make test` prints its
# recipe and runs nothing), is named and not green; run as at the start,
# the same gate fails.
source "$(dirname "$0")/../lib.sh" || exit 2

printf 'test:\n\tpython3 -m unittest discover -s tests -q\n' > Makefile
start_broken_sum '
[gates.make]
run = "make -s test"
inputs = ["**"]
'
expect_run 10 md gate run make

# A stand-in that any `python3 -m unittest` now imports first.
mkdir -p "$case_root/stand-in/unittest"
echo "raise SystemExit(0)" > "$case_root/stand-in/unittest/__main__.py"
touch "$case_root/stand-in/unittest/__init__.py"
PYTHONPATH="$case_root/stand-in" expect_run 0 md gate run unit
MAKEFLAGS=n expect_run 0 md gate run make
expect_open gates-green "unit|make|PYTHONPATH|MAKEFLAGS|differ from the start" "owed"
expect_run 10 md check
remedy=$(remedy_of gates-green)
case "$remedy" in
    *"-u PYTHONPATH"*) case "$remedy" in *"-u MAKEFLAGS"*"gate run --all"*|*"-u MAKEFLAGS -u PYTHONPATH majordomus gate run --all"*) ;; *) fail "the remedy unsets both: $remedy" ;; esac ;;
    *) fail "the remedy runs the gates as at the start: $remedy" ;;
esac

# As at the start, they fail: refused, not green.
expect_run 10 md gate run --all
expect_status gates-green refused
