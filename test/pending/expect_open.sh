# Sourced by the pending cases (before test/lib.sh, whose helpers these
# call): the assertions a case of issue 10 ("A pass that can be believed")
# makes. When a case moves to test/cases/, move what it uses of this file
# into test/lib.sh. Already moved there: expect_open, expect_answer,
# judge_answer, expect_also, evidence_of, with_origin, exempt_forge.
#
#   stop_hook DIR [ARGS...]           runs `hook stop` for a Stop payload whose cwd is
#                                     DIR (from the current directory); its stdout in $out
#   hook_decision                     the decision field of the last stop_hook's output

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
