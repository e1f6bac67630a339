# Sourced by the pending cases (before test/lib.sh, whose helpers these
# call): the assertions a case of issue 10 ("A pass that can be believed")
# makes. When a case moves to test/cases/, move what it uses of this file
# into test/lib.sh.
#
#   (expect_open, expect_answer, judge_answer and evidence_of live in
#   test/lib.sh now: the cases that moved to test/cases/ use them)
#   expect_also ID REGEX [STATUSES]   expect_open on the document the last check wrote,
#                                     without measuring again (the same state)
#   with_origin                       a bare origin beside the repository, main pushed,
#                                     main tracking it, origin/HEAD set
#   exempt_forge                      appends to the policy an exemption of
#                                     backlog-not-grown (no forge here)
#   stop_hook DIR [ARGS...]           runs `hook stop` for a Stop payload whose cwd is
#                                     DIR (from the current directory); its stdout in $out
#   hook_decision                     the decision field of the last stop_hook's output

expect_also() {
  judge_answer "$1" "${3:-owed refused unknown}" "$2"
}

with_origin() {
  git init -q --bare -b main "$case_root/origin.git"
  git remote add origin "$case_root/origin.git"
  git push -q -u origin main
  git remote set-head origin main
}

exempt_forge() {
  mkdir -p .ai/repo
  cat >> .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "this repository has no forge"
TOML
}

stop_hook() {
  local dir=$1
  shift
  local payload
  payload=$(printf '{"session_id":"s-1","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"All done."}' "$dir")
  expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop "${@:2}" 2>/dev/null' _ "$payload" "$@"
}

hook_decision() {
  [ -n "$out" ] || { echo ""; return; }
  printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("decision", ""))'
}
