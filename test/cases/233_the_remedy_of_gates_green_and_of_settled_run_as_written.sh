# gates-green's remedy (a gate never run) and settled's (a bisect left in
# progress), each taken from check --json and run as written, settle their
# question.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "test -f src/lib.rs"
inputs = ["src/**"]
TOML
echo one > src/lib.rs
commit_all "initial"
echo two >> src/lib.rs
commit_all "second"
majordomus_on_path
expect_run 0 md start "the gate"

echo three >> src/lib.rs
expect_open gates-green "unit" "owed"
follow_remedy gates-green
expect_status gates-green pass

git bisect start -q HEAD HEAD~2 > /dev/null 2>&1 || git bisect start HEAD HEAD~2 > /dev/null
expect_open settled "bisect" "owed"
follow_remedy settled
expect_status settled pass
