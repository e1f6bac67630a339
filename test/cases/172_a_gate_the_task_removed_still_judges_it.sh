# README, "The policy in force": a gate the task removes from the policy (or the whole policy
# file, deleted) is still in force for the task: gates-green is not `pass`
# and not `exempt` over a change its inputs select.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q fixed src/lib.rs"
inputs = ["src/**"]

[gates.docs]
run = "true"
inputs = ["docs/**"]
TOML
echo 'fn a() {}' > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
echo 'fn a() { broken }' > src/lib.rs
echo 'fn t() {}' > tests/a.rs
commit_all "work"

# The gate removed: only docs remains.
python3 - <<'PY'
p = ".ai/repo/majordomus.toml"
text = open(p).read()
start = text.index("[gates.unit]")
end = text.index("[gates.docs]")
open(p, "w").write(text[:start] + text[end:])
PY
expect_open gates-green "unit"
expect_run 10 md check

# The whole policy deleted, and the deletion committed.
git rm -q -f .ai/repo/majordomus.toml
git commit -q -m "no policy"
expect_open gates-green "unit"
expect_run 10 md check
