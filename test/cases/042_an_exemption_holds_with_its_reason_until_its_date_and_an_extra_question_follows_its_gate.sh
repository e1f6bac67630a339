# An exemption answers its question exempt, with its reason, until its date;
# once expired the real answer stands and says the exemption expired. A
# policy question answered by a gate follows the built-in ones, in the
# document and on the done line, with the gate's verdict.
source "$(dirname "$0")/../lib.sh"

mkdir -p docs .ai/repo
echo '# guide' > docs/guide.md
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.docs-check]
run = "grep -q updated docs/guide.md"
inputs = ["docs/**"]
required = false

[[questions]]
id = "documented"
stage = "documentation"
question = "Were the documents a reader needs updated?"
gate = "docs-check"

[[exempt]]
question = "regression-tested"
reason = "a documentation-only repository has no tests"
until = "2999-12-31"

[[exempt]]
question = "measurable"
reason = "nothing to measure yet"
until = 2000-01-01
TOML
commit_all "initial"
expect_run 0 md start "document the guide"

answer() { json_get .ai/local/state/gates.completion.json "[q for q in d['questions'] if q['id'] == '$1'][0]['$2']"; }

echo '# guide, edited' > docs/guide.md
expect_run 10 md check --json
[ "$(answer regression-tested status)" = exempt ] || fail "regression-tested: $(answer regression-tested status)"
[ "$(answer regression-tested evidence)" = "Exempt by the policy until 2999-12-31: A documentation-only repository has no tests." ] ||
  fail "evidence: $(answer regression-tested evidence)"
[ "$(answer measurable status)" = owed ] || fail "an expired exemption still exempts: $(answer measurable status)"
case "$(answer measurable evidence)" in
  *'expired on 2000-01-01, so it no longer exempts.') ;;
  *) fail "evidence: $(answer measurable evidence)" ;;
esac

# The extra question is last, and owed while its gate never reported
# (it is optional for gates-green, but the question asks for it).
last=$(json_get .ai/local/state/gates.completion.json 'd["questions"][-1]["id"]')
[ "$last" = documented ] || fail "the last question is $last"
[ "$(answer documented stage)" = documentation ] || fail "stage: $(answer documented stage)"
[ "$(answer documented status)" = owed ] || fail "documented: $(answer documented status)"
[ "$(answer gates-green status)" = pass ] || fail "gates-green counted an optional gate: $(answer gates-green status)"
expect_run 10 md check
expect_contains " measurable=owed documented=owed"

expect_run 10 md gate run docs-check
expect_run 10 md check
expect_contains " measurable=owed documented=refused"

echo '# guide, updated' > docs/guide.md
expect_run 0 md gate run docs-check
expect_run 10 md check
expect_not_contains "documented="

# An exemption of an extra question is allowed too; a cap may name it.
cat >> .ai/repo/majordomus.toml <<'TOML'

[caps]
documented = 3
TOML
expect_run 10 md check
expect_not_contains "documented="

# The task exempting its own question mid-task: the exemption still holds,
# but says it was not in the policy at the start, committed or not.
detail() { json_get .ai/local/state/gates.completion.json "[q for q in d['questions'] if q['id'] == '$1'][0]['details'].get('$2')"; }
cat >> .ai/repo/majordomus.toml <<'TOML'

[[exempt]]
question = "committed"
reason = "later"
TOML
for step in uncommitted committed; do
  if [ "$step" = committed ]; then
    git add .ai/repo/majordomus.toml
    git commit -q -m "exempt committed"
    echo '# guide, updated again' > docs/guide.md
  fi
  expect_run 10 md check --json
  [ "$(answer committed status)" = exempt ] || fail "$step: committed: $(answer committed status)"
  [ "$(answer committed evidence)" = "Exempted by a policy entry added since the task started: Later." ] ||
    fail "$step: evidence: $(answer committed evidence)"
  [ "$(json_get .ai/local/state/gates.completion.json "[q for q in d['questions'] if q['id'] == 'committed'][0]['details']['measured']['status']")" = owed ] ||
    fail "$step: nothing left uncommitted to exempt"
  [ "$(detail committed exemption_added_since_start)" = True ] || fail "$step: $(detail committed exemption_added_since_start)"
  [ "$(detail regression-tested exemption_added_since_start)" = False ] ||
    fail "$step: an exemption there at the start counted as new"
  [ "$(answer regression-tested evidence)" = "Exempt by the policy until 2999-12-31: A documentation-only repository has no tests." ] ||
    fail "$step: evidence: $(answer regression-tested evidence)"
done
