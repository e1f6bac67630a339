# Where every program finds its user's own settings is part of what a gate
# ran under: `HOME=elsewhere majordomus gate run unit`, with a Python user
# site there whose `usercustomize` ends the interpreter at its start
# (`os._exit(0)`, before `unittest` runs a test), records a pass that is
# named and not green; as at the start, the gate fails.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo tests
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "python3 -m unittest discover -s tests -q"
inputs = ["**"]
TOML
cat > tests/test_sum.py <<'PY'
import unittest

class Sum(unittest.TestCase):
    def test_sum(self):
        self.assertEqual(sum([1, 2]), 3)
PY
commit_all "initial"
expect_run 0 md start "break the sum"
sed -i 's/, 3)/, 4)/' tests/test_sum.py
commit_all "work"
expect_run 10 md gate run unit

elsewhere="$case_root/elsewhere"
site=$(HOME="$elsewhere" python3 -c 'import site; print(site.getusersitepackages())')
mkdir -p "$site"
echo "import os; os._exit(0)" > "$site/usercustomize.py"
HOME="$elsewhere" expect_run 0 md gate run unit
expect_open gates-green "unit|HOME|differs from the start" "owed"
expect_run 10 md check

expect_run 10 md gate run unit
expect_status gates-green refused
