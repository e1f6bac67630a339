# README, "The policy in force", through an exemption's `until`: an exemption that expired
# before the task started does not hold again because the task moved its
# date (nor because the task took the date away).
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "measurable"
reason = "nothing to measure yet"
until = 2000-01-01
TOML
echo hello > README
commit_all "initial"
expect_run 0 md start "a"
expect_open measurable "expired|nothing measurable"

sed -i 's/^until = .*/until = 2999-01-01/' .ai/repo/majordomus.toml
expect_open measurable "expired|nothing measurable|policy"
sed -i '/^until = /d' .ai/repo/majordomus.toml
expect_open measurable "expired|nothing measurable|policy"
expect_run 10 md check
