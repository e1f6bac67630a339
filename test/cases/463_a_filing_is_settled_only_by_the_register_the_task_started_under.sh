#!/usr/bin/env bash
# README, "The policy in force", through [markers]: one register, read by
# two questions in opposite directions. For markers-live a wider register
# (more directories or extensions scanned, an exclusion taken away) holds
# more markers to account, so it is in force at once; for filings-closed
# it settles more filings (an open filed issue labelled limitation is
# registered by a marker in a file the register scans), so it is not. The
# task files #2, widens the register to docs/*.md and writes the marker
# into docs/README.md: under the register it started under no scanned
# file names #2, and the filing stays owed. A marker where the start's
# register scans (src) registers it, as ever; markers-live keeps reading
# the widened register.
source "$(dirname "$0")/../lib.sh" || exit 2
L="LIMIT""ATION"

observe() {
  cat > "$case_root/forge.json" <<JSON
{"schema": "majordomus/forge/v1", "observed_at": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "repository": "case/repo", "pull_requests": [], "issues": $1}
JSON
  md forge record "$case_root/forge.json" > /dev/null
}
open_2='[{"repository": "case/repo", "number": 2, "state": "open", "labels": ["limitation"]},
 {"repository": "case/repo", "number": 9, "state": "closed", "labels": ["limitation"]}]'

mkdir -p src tests docs .ai/repo
echo 'pub fn parse() {}' > src/lib.rs
echo '# docs' > docs/README.md
printf '[forge]\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
commit_all "initial"
with_origin
expect_run 0 md start "parse the header"

expect_run 0 md issue file 2
echo 'pub fn parse() { /* header */ }' > src/lib.rs
echo '#[test] fn parses() {}' > tests/parse.rs
commit_all "parse the header"
git push -q origin main
observe "$open_2"
expect_open filings-closed "#2"

# The register widened by the task, the marker kept in a document.
cat >> .ai/repo/majordomus.toml <<'TOML'
[markers]
scan = ["src", "crates", "apps", "docs"]
extensions = ["rs", "sh", "py", "ts", "md"]
TOML
echo "- $L(#2): the header's extension fields are not parsed" >> docs/README.md
commit_all "note the limitation"
git push -q origin main
observe "$open_2"
expect_open filings-closed "#2.*no marker"
json_get "$case_root/doc.json" \
  "[c['how'] for c in d['policy']['changes'] if c['entry'] == '[markers] scan' and not c['in_force']]" |
  grep -q "filings-closed" || fail "the widened scan is not named a loosening for filings-closed"

# The same widening, an exclusion taken away instead: docs/tests/ is under
# **/tests/**, which the start's register excludes.
git checkout -q HEAD~1 -- .ai/repo/majordomus.toml docs/README.md
mkdir -p src/tests
cat >> .ai/repo/majordomus.toml <<'TOML'
[markers]
exclude = ["**/testdata/**"]
TOML
echo "// $L(#2): the header's extension fields are not parsed" > src/tests/limits.rs
commit_all "the limitation, next to the tests"
git push -q origin main
observe "$open_2"
expect_open filings-closed "#2.*no marker"

# Widened for markers-live all the same: a marker there naming a closed
# issue is refused at once.
echo "// $L(#9): closed, yet named" > src/tests/closed.rs
commit_all "a marker naming a closed issue"
git push -q origin main
observe "$open_2"
expect_open markers-live "src/tests/closed.rs.*#9" refused
git rm -q src/tests/closed.rs
commit_all "the stale marker taken out"

# Honest: the marker where the start's register scans registers #2.
echo "// $L(#2): the header's extension fields are not parsed" >> src/lib.rs
commit_all "the limitation, in the code"
git push -q origin main
observe "$open_2"
expect_answer filings-closed pass "#2.*registered limitation.*src/lib.rs"
