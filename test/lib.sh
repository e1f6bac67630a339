# Sourced by every behavioural case. Gives the case a disposable repository
# of its own (never the checkout it runs from), a hermetic git, and helpers:
#
#   md ARGS...                     run majordomus
#   expect_run CODE CMD...         run CMD, fail unless it exits CODE; output in $out
#   expect_done_line LINE          the last line of $out is LINE
#   expect_contains TEXT           $out contains TEXT
#   expect_not_contains TEXT       $out does not contain TEXT
#   commit_all MESSAGE             stage everything and commit
#   json_get FILE EXPR             read a value from a JSON file (python3)
#   expect_open ID REGEX [STATUSES]  check --json answers ID with one of STATUSES
#                                  (default: owed refused unknown), never pass or
#                                  exempt, its evidence matching REGEX (extended,
#                                  case aside)
#   expect_answer ID STATUSES REGEX  the same for any set of statuses
#   judge_answer ID STATUSES REGEX   expect_answer on the last document, not measuring again
#   evidence_of ID                 the evidence check --json last gave ID
#   expect_also ID REGEX [STATUSES]  expect_open on the document the last check
#                                  wrote, without measuring again (the same state)
#   with_origin                    a bare origin beside the repository, main
#                                  pushed, main tracking it, origin/HEAD set
#   exempt_forge                   appends to the policy an exemption of
#                                  backlog-not-grown (no forge here)
#   stop_hook DIR [ARGS...]        runs `hook stop` for a Stop payload whose cwd
#                                  is DIR (from the current directory); its stdout in $out
#   hook_decision                  the decision field of the last stop_hook's output
#   fake_gh_with_issues            a gh on PATH answering issues from $fake/issues;
#                                  on_forge OWNER/REPO N STATE [LABEL...] writes one
#   scratch_task DIR               a repository at DIR inside, a task session s-1 started
#                                  there, work left in it
#   project_with_scratch_task      this repository committed and pushed, tmp/ ignored,
#                                  then scratch_task tmp/scratch
#   stop_hook_of SESSION DIR       stop_hook for another session's payload
#   started_hours_ago_observed_minutes_ago H M [ISSUES]
#                                  the task started H hours ago, a typed-in forge
#                                  observation taken M minutes ago
#   start_with_unit_gate           a policy with a gate `unit` (grep for "fixed" in
#                                  src/lib.rs), committed, and a task started
#   start_and_break_fix_a          (a gate `unit` passing only with "fixed" in
#                                  src/lib.rs, committed) a task "fix a" started, then
#                                  src/lib.rs broken and a test added, committed:
#                                  `gate run unit` exits 10
#   start_broken_sum [TOML]        a gate `unit` running python's unittest over tests/
#                                  (TOML appended to the policy: more gates), a passing
#                                  test committed, a task started, then the test broken
#                                  and committed: `gate run unit` exits 10
#   start_src_task_beside_docs     README and docs/x.md committed and pushed, a task
#                                  started scoped to src and tests
#   merge_a_feature_through_feat   the feature on a branch feat, pushed, merged into
#                                  main and main pushed, feat deleted here
#   start_broken_on_origin RUN     a gate `unit` running RUN over src/**, a task
#                                  started on a pushed main, then src/lib.rs
#                                  broken, committed and pushed
#   fake_program NAME              a do-nothing NAME in a directory of its own; prints it
#   pushed_project [--libsrc]     README committed and pushed (origin), the forge
#                                  exempted, .worktrees/ ignored; --libsrc: a
#                                  repository $case_root/libsrc to add as a submodule
#   task_left_in_deinit_lib        (after pushed_project --libsrc) lib added as a
#                                  submodule and pushed, a task started in lib with
#                                  a commit there, then `git submodule deinit -f lib`
#   lib_remote [ARGS...]           a bare $case_root/lib.git (git init ARGS) holding
#                                  one commit on main; file:// submodules allowed
#   lib_bumped URL                 (after lib_remote) README committed and pushed, lib
#                                  added as a submodule from URL and pushed, a task
#                                  started, a commit made in lib and its bump
#                                  committed and pushed in the superproject, not in lib
#   make_gate_built_after FN       (lib_c_project "make check") a task started, FN run
#                                  (what the case writes before the build), a second
#                                  later the test extended and `gate run unit` run
#                                  green (make builds tests/t_sum), a second later
#   refused_over_stale_sum         `gate run unit` refuses src/sum.c as dated back,
#                                  naming `touch -- src/sum.c`, running nothing
#   lib_bump_pushed_without_lib [URL]  lib_remote, lib_bumped URL (default ../lib.git):
#                                  pushed owed, naming lib
#   java_parser_project           src/main/java/org/x/Parser.java (limit() returns 1), a gate
#                                  `unit` running `true` over every path, the forge exempt,
#                                  committed and pushed (origin)
set -euo pipefail

: "${MAJORDOMUS:?MAJORDOMUS must name the majordomus binary (test/run.sh sets it)}"

case_root=$(mktemp -d "${TMPDIR:-/tmp}/majordomus-case.XXXXXX")
trap 'rm -rf "$case_root"' EXIT

# A hermetic git: nothing of the developer's configuration or environment.
while IFS= read -r var; do unset "$var"; done < <(env | sed -n 's/^\(GIT_[A-Za-z_]*\)=.*/\1/p')
export HOME="$case_root/home"
mkdir -p "$HOME"
# The global configuration is an empty file of the case's own, not
# /dev/null: `git config --global` writes through a lock file renamed over
# it, and as root that replaces the machine's /dev/null.
: > "$HOME/.gitconfig"
export GIT_CONFIG_GLOBAL="$HOME/.gitconfig" GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Case Author" GIT_AUTHOR_EMAIL=case@example.com
export GIT_COMMITTER_NAME="Case Author" GIT_COMMITTER_EMAIL=case@example.com
export NO_COLOR=1
unset GITHUB_STEP_SUMMARY CLAUDE_PROJECT_DIR CLAUDECODE CLAUDE_CODE_SESSION_ID CLAUDE_CODE_EXECPATH CODEX_THREAD_ID

repo="$case_root/repo"
git init -q -b main "$repo"
cd "$repo"

md() { "$MAJORDOMUS" "$@"; }

fail() {
  printf 'FAIL: %s\n' "$*" >&2
  if [ -n "${out-}" ]; then printf -- '--- output ---\n%s\n--------------\n' "$out" >&2; fi
  exit 1
}

# expect_run CODE CMD...: runs CMD, keeps stdout and stderr in $out.
expect_run() {
  local want=$1
  shift
  set +e
  out=$("$@" 2>&1)
  local got=$?
  set -e
  [ "$got" -eq "$want" ] || fail "expected exit $want from '$*', got $got"
}

expect_done_line() {
  local last
  last=$(printf '%s\n' "$out" | tail -n 1)
  [ "$last" = "$1" ] || fail "expected the done line '$1', got '$last'"
}

expect_contains() {
  case "$out" in *"$1"*) ;; *) fail "expected the output to contain '$1'" ;; esac
}

expect_not_contains() {
  case "$out" in *"$1"*) fail "expected the output not to contain '$1'" ;; *) ;; esac
}

commit_all() {
  git add -A
  git commit -q --allow-empty -m "$1"
}

json_get() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$1" "$2"
}

# status_of ID: runs check --json (its document kept in $case_root/doc.json)
# and prints the question's status.
status_of() {
  md check --json > "$case_root/doc.json" || true
  json_get "$case_root/doc.json" "{q['id']: q['status'] for q in d['questions']}['$1']"
}

# expect_status ID STATUS: fails unless check answers ID with STATUS.
expect_status() {
  local got
  got=$(status_of "$1")
  [ "$got" = "$2" ] || { out=$(cat "$case_root/doc.json"); fail "expected $1=$2, got $1=$got"; }
}

evidence_of() {
  json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == '$1'][0]['evidence']"
}

expect_answer() {
  status_of "$1" > /dev/null
  judge_answer "$@"
}

judge_answer() {
  local id=$1 statuses=$2 regex=$3 got ev
  got=$(json_get "$case_root/doc.json" "{q['id']: q['status'] for q in d['questions']}['$id']")
  ev=$(evidence_of "$id")
  case " $statuses " in *" $got "*) ;; *) out="$id=$got: $ev"; fail "expected $id to be one of ($statuses), got $got" ;; esac
  printf '%s' "$ev" | grep -Eqi -- "$regex" || { out="$id=$got: $ev"; fail "expected $id's evidence to match /$regex/"; }
}

expect_open() {
  expect_answer "$1" "${3:-owed refused unknown}" "$2"
}

# More of the assertions and fixtures of the cases that say what a pass is
# worth (README.md, "The questions"):
#
#   expect_also ID REGEX [STATUSES]   expect_open on the document the last check wrote,
#                                     without measuring again (the same state)
#   with_origin                       a bare origin beside the repository, main pushed,
#                                     main tracking it, origin/HEAD set
#   exempt_forge                      appends to the policy an exemption of
#                                     backlog-not-grown (no forge here)

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

# The remedies, followed to the letter (README.md, "Remedies that run as
# written"):
#
#   remedy_of ID                   the remedy the last document gave ID
#   follow_remedy ID               fails unless the last document marks ID's
#                                  remedy a command, then runs it as written
#                                  by sh in the working tree's root (with an
#                                  editor that writes a commit message); its
#                                  output in $out
#   expect_advice ID               the last document marks ID's remedy advice
#   majordomus_on_path             puts the binary on PATH as `majordomus`, as
#                                  a user has it (before the start: the start
#                                  records PATH for the gates' runs)

remedy_field() {
  json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == '$1'][0].get('$2')"
}

remedy_of() { remedy_field "$1" remedy; }

follow_remedy() {
  local id=$1 kind remedy top
  kind=$(remedy_field "$id" remedy_kind)
  remedy=$(remedy_of "$id")
  [ "$kind" = command ] || { out="$id: $remedy"; fail "expected $id's remedy to be a command, got $kind"; }
  top=$(git rev-parse --show-toplevel)
  set +e
  out=$(cd "$top" && GIT_EDITOR='printf "the remedy as written\n" >' sh -c "$remedy" 2>&1)
  local got=$?
  set -e
  [ "$got" -eq 0 ] || fail "the remedy of $id failed as written (exit $got): $remedy"
}

expect_advice() {
  local kind
  kind=$(remedy_field "$1" remedy_kind)
  [ "$kind" = advice ] || { out="$1: $(remedy_of "$1")"; fail "expected $1's remedy to be marked advice, got $kind"; }
}

majordomus_on_path() {
  mkdir -p "$case_root/bin"
  ln -sf "$MAJORDOMUS" "$case_root/bin/majordomus"
  export PATH="$case_root/bin:$PATH"
}

# start_with_unit_gate: a policy whose gate `unit` passes only when
# src/lib.rs says "fixed" (inputs src/**), src/lib.rs without it, committed,
# and a task "fix a" started.
# unit_gate_policy [RUN]: .ai/repo/majordomus.toml with backlog-not-grown
# exempt (no forge here) and a gate `unit` running RUN (default: `grep -q
# fixed src/lib.rs`) over src/**; nothing committed.
unit_gate_policy() {
  mkdir -p .ai/repo src tests
  cat > .ai/repo/majordomus.toml <<TOML
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "$(printf '%s' "${1:-grep -q fixed src/lib.rs}" | sed 's/\\/\\\\/g; s/"/\\"/g')"
inputs = ["src/**"]
TOML
}

# nested_lib_remotes: bare inner.git (one commit) and lib.git (one commit,
# then inner added as its submodule), file:// transport allowed.
nested_lib_remotes() {
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
  for name in inner lib; do git init -q --bare -b main "$case_root/$name.git"; done
  git clone -q "$case_root/inner.git" "$case_root/inner-seed" 2> /dev/null
  (cd "$case_root/inner-seed" && git commit -q --allow-empty -m inner && git push -q origin HEAD:main)
  git clone -q "$case_root/lib.git" "$case_root/lib-seed" 2> /dev/null
  (
    cd "$case_root/lib-seed"
    git commit -q --allow-empty -m lib
    git submodule --quiet add "$case_root/inner.git" inner
    git commit -qm "inner"
    git push -q origin HEAD:main
  )
}

# superproject_with_lib [FILE CONTENT]: a bare lib.git holding one commit
# (FILE with CONTENT, default l.txt "l"), and this repository (README,
# backlog-not-grown exempt, a bare origin) with lib added as a submodule,
# committed and pushed; file:// transport allowed for the submodule.
superproject_with_lib() {
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
  git init -q --bare -b main "$case_root/lib.git"
  git clone -q "$case_root/lib.git" "$case_root/lib-seed" 2> /dev/null
  (cd "$case_root/lib-seed" && echo "${2:-l}" > "${1:-l.txt}" && git add -A && git commit -qm lib && git push -q origin HEAD:main)
  echo base > README
  exempt_forge
  commit_all "initial"
  with_origin
  git submodule --quiet add "$case_root/lib.git" lib
  commit_all "lib"
  git push -q origin main
}

# colleague MESSAGE SCRIPT: a colleague's clone of origin (made at the
# first call), brought up to date, runs SCRIPT, commits as Colleague (the
# author and the committer) and pushes main.
colleague() {
  [ -d "$case_root/colleague" ] || git clone -q "$case_root/origin.git" "$case_root/colleague"
  (cd "$case_root/colleague" &&
    export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com \
      GIT_COMMITTER_EMAIL=c@example.com &&
    git pull -q --rebase && sh -c "$2" && git add -A && git commit -q -m "$1" && git push -q origin main)
}

# fake_gh: a stand-in for gh first on PATH, for the repository acme/widgets,
# whose `pr list` prints $case_root/fake-gh/prs.json (written by the case);
# prints that directory.
fake_gh() {
  local dir="$case_root/fake-gh"
  mkdir -p "$dir/bin"
  cat > "$dir/bin/gh" <<'GH'
#!/usr/bin/env bash
case "$1 $2" in
  "repo view") echo '{"nameWithOwner":"acme/widgets"}' ;;
  "pr list") cat "$(dirname "$0")/../prs.json" ;;
  *) echo "unknown command \"$1\" for \"gh\"" >&2; exit 1 ;;
esac
GH
  chmod +x "$dir/bin/gh"
  printf '%s\n' "$dir"
}

# fake_gh_with_issues: a gh on PATH (from now: before a start, as the
# start's PATH is the one that counts) that answers as `gh ... --json`
# documents, its pull requests none and each issue what
# $fake/issues/OWNER/REPO/N.json says (none where there is no such file);
# `on_forge OWNER/REPO N STATE [LABEL...]` writes one (a pull request when
# STATE is pr-open or pr-merged). Its calls are kept in $fake/calls.
fake_gh_with_issues() {
  fake="$case_root/fake-gh"
  mkdir -p "$fake/bin" "$fake/issues"
  cat > "$fake/bin/gh" <<'GH'
#!/usr/bin/env bash
dir=$(dirname "$0")/..
printf '%s\n' "$*" >> "$dir/calls"
case "$1 $2" in
  "repo view") echo '{"nameWithOwner":"acme/widgets"}' ;;
  "pr list") echo '[]' ;;
  "issue view")
    [ "$4" = "--repo" ] || { echo "expected --repo" >&2; exit 1; }
    if [ -f "$dir/issues/$5/$3.json" ]; then cat "$dir/issues/$5/$3.json"
    else echo "GraphQL: Could not resolve to an issue or pull request with the number of $3. (repository.issue)" >&2; exit 1
    fi ;;
  *) echo "unknown command \"$1\" for \"gh\"" >&2; exit 1 ;;
esac
GH
  chmod +x "$fake/bin/gh"
  export PATH="$fake/bin:$PATH"
}

on_forge() {
  local repo=$1 n=$2 state=$3 kind=issues labels="" l
  shift 3
  case "$state" in pr-*) kind=pull; state=${state#pr-} ;; esac
  for l in "$@"; do labels="$labels${labels:+,}{\"id\":\"LA_$l\",\"name\":\"$l\",\"description\":\"\",\"color\":\"ededed\"}"; done
  mkdir -p "$fake/issues/$repo"
  printf '{"labels":[%s],"number":%s,"state":"%s","title":"issue %s","url":"https://github.com/%s/%s/%s"}\n' \
    "$labels" "$n" "$(echo "$state" | tr a-z A-Z)" "$n" "$repo" "$kind" "$n" > "$fake/issues/$repo/$n.json"
}

# started_hours_ago_observed_minutes_ago H M [ISSUES_JSON]: the task's record
# (and its copy) says it started H hours ago, and a forge observation typed
# in (`forge record`, the policy's provider "recorded") was taken M minutes
# ago, holding the issues ISSUES_JSON (a JSON list; none by default).
started_hours_ago_observed_minutes_ago() {
  python3 - "$1" "$2" "${3:-[]}" <<'PY'
import json, datetime, sys
hours, minutes, issues = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
p = ".ai/local/state/task.json"
d = json.load(open(p))
now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
d["started_at"] = (now - datetime.timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(d, open(p, "w"), indent=2)
json.dump(d, open(".git/majordomus/task.json", "w"), indent=2)  # its copy says the same
obs = {"schema": "majordomus/forge/v1", "repository": "acme/widgets",
       "observed_at": (now - datetime.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "pull_requests": [], "issues": issues}
json.dump(obs, open("obs.json", "w"))
PY
  expect_run 0 md forge record obs.json
  rm obs.json
}

# project_with_scratch_task: this repository committed (tmp/ ignored) and
# pushed to an origin, then scratch_task tmp/scratch.
project_with_scratch_task() {
  echo base > README
  echo "/tmp/" > .gitignore
  exempt_forge
  commit_all "initial"
  with_origin
  scratch_task tmp/scratch
}

# scratch_task DIR: a repository made at DIR inside this one, a commit, a
# task "scratch work" started there by the agent session s-1 (Claude Code),
# and work left in it.
scratch_task() {
  git init -q -b main "$1"
  (
    cd "$1"
    echo a > a.txt && git add a.txt && git commit -qm "a"
    expect_run 0 env CLAUDECODE=1 CLAUDE_CODE_SESSION_ID=s-1 "$MAJORDOMUS" start "scratch work" --owner-pid $$
    echo b > b.txt
  )
}

# stop_hook_of SESSION DIR: stop_hook for another session's Stop payload.
stop_hook_of() {
  local payload
  payload=$(printf '{"session_id":"%s","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$1" "$2")
  expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
}

start_with_unit_gate() {
  mkdir -p .ai/repo src tests
  cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
  echo "fn a() {}" > src/lib.rs
  commit_all "initial"
  expect_run 0 md start "fix a"
}

# start_and_break_fix_a: see the list at the top.
start_and_break_fix_a() {
  expect_run 0 md start "fix a"
  echo "fn a() { broken }" > src/lib.rs
  echo t > tests/a.rs
  commit_all "work"
  expect_run 10 md gate run unit
}

# start_broken_sum [TOML]: see the list at the top.
start_broken_sum() {
  mkdir -p .ai/repo tests
  {
    printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "no forge here"\n\n'
    printf '[gates.unit]\nrun = "python3 -m unittest discover -s tests -q"\ninputs = ["**"]\n'
    printf '%s' "${1-}"
  } > .ai/repo/majordomus.toml
  printf 'import unittest\n\nclass Sum(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(sum([1, 2]), 3)\n' \
    > tests/test_sum.py
  commit_all "initial"
  expect_run 0 md start "break the sum"
  sed -i 's/, 3)/, 4)/' tests/test_sum.py
  commit_all "work"
  expect_run 10 md gate run unit
}

# start_broken_on_origin RUN: a policy whose gate `unit` runs RUN over
# src/** (backlog-not-grown exempt: no forge here), src/lib.rs without
# "fixed", committed and pushed to a bare origin, a task "fix a" started,
# then a commit that still breaks src/lib.rs and adds a test, pushed.
start_broken_on_origin() {
  unit_gate_policy "$1"
  echo "fn a() {}" > src/lib.rs
  commit_all "initial"
  with_origin
  md start "fix a" >/dev/null
  echo "fn a() { broken }" > src/lib.rs
  echo "#[test] fn a_test() {}" > tests/a.rs
  commit_all "still broken"
  git push -q origin main
}

# fake_program NAME: a program NAME that does nothing and exits 0, in a
# directory of its own under the case's root; prints the directory.
fake_program() {
  local dir="$case_root/fake"
  mkdir -p "$dir"
  printf '#!/bin/bash\nexit 0\n' > "$dir/$1"
  chmod +x "$dir/$1"
  printf '%s\n' "$dir"
}

# start_with_pushed_branch NAME: a first commit, an origin holding main and
# a branch NAME made there, and a task "work on NAME" started on main.
start_with_pushed_branch() {
  echo base > README
  commit_all "initial"
  with_origin
  git branch "$1"
  git push -q origin "$1"
  expect_run 0 md start "work on $1"
}

# observe_one_open_pr FAKE: with the fake gh at FAKE/bin/gh first on PATH
# (it lists FAKE/prs.json), a first commit, an origin and a task started;
# then pull request #5, opened a minute after the start, observed by
# `forge refresh`: backlog-not-grown is owed naming it.
observe_one_open_pr() {
  chmod +x "$1/bin/gh"
  export PATH="$1/bin:$PATH"
  echo base > README
  commit_all "initial"
  with_origin
  expect_run 0 md start "a feature"
  local opened
  opened=$(python3 -c "import datetime; print((datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=1)).strftime(\"%Y-%m-%dT%H:%M:%SZ\"))")
  printf '[{"number":5,"title":"my feature","author":{"login":"me"},"headRefName":"feature","createdAt":"%s","state":"OPEN"}]\n' "$opened" > "$1/prs.json"
  expect_run 0 md forge refresh
  expect_open backlog-not-grown "#5" "owed"
}

# start_on_origin: a first commit (with backlog-not-grown exempt: no
# forge), an origin holding main, and a task "a feature" started.
start_on_origin() {
  echo base > README
  exempt_forge
  commit_all "initial"
  with_origin
  expect_run 0 md start "a feature"
}

# commit_a_feature [BRANCH]: src/a.rs and its test committed, on a new
# branch BRANCH where one is named.
commit_a_feature() {
  [ -z "${1-}" ] || git checkout -q -b "$1"
  mkdir -p src tests
  echo a > src/a.rs
  echo t > tests/a.rs
  commit_all "feature"
}

# merge_a_feature_through_feat: the feature committed on a branch feat,
# pushed (tracking origin/feat), merged into main, main pushed, feat
# deleted here (origin/feat left on the remote).
merge_a_feature_through_feat() {
  commit_a_feature feat
  git push -q -u origin feat
  git checkout -q main
  git merge -q --ff-only feat
  git push -q origin main
  git branch -q -d feat
}

# start_src_task_beside_docs: README and docs/x.md committed and pushed
# (origin), the forge exempted, a task started scoped to src and tests.
start_src_task_beside_docs() {
  echo base > README
  exempt_forge
  mkdir -p docs
  echo d > docs/x.md
  commit_all "initial"
  with_origin
  expect_run 0 md start "the src work" --scope src --scope tests
}

# serve_by_git_daemon NAME: the case's root served over git:// on
# 127.0.0.1 (a remote across a network, as far as git can tell: read only
# through the protocol), receive-pack on, once the repository NAME in it
# answers; sets $port, and stops the daemon when the case ends.
serve_by_git_daemon() {
  port=$((20000 + RANDOM % 20000))
  git daemon --reuseaddr --export-all --enable=receive-pack --base-path="$case_root" \
    --listen=127.0.0.1 --port=$port --pid-file="$case_root/daemon.pid" --detach "$case_root"
  trap 'kill "$(cat "$case_root/daemon.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$case_root"' EXIT
  for _ in $(seq 20); do
    git ls-remote "git://127.0.0.1:$port/$1" >/dev/null 2>&1 && break
    sleep 0.3
  done
}

# serve_origin_by_git_daemon: a bare origin.git in the case's root, served
# (serve_by_git_daemon).
serve_origin_by_git_daemon() {
  git init -q --bare -b main "$case_root/origin.git"
  serve_by_git_daemon origin.git
}

# fix_lib_js_on_feat: a task started, lib.js fixed and a test added on a
# new branch feat, committed and pushed to origin as feat's upstream.
fix_lib_js_on_feat() {
  expect_run 0 md start "fix"
  git switch -q -c feat
  echo b > lib.js
  mkdir -p tests && echo 'test b' > tests/test_lib.js
  commit_all "fix"
  git push -q -u origin feat
}

# land_feat_on TRUNK: feat fast-forwarded onto TRUNK and pushed there,
# then feat deleted on origin and here (the honest way out of a task on
# feat).
land_feat_on() {
  git switch -q "$1"
  git merge -q --ff-only feat
  git push -q origin "$1"
  git push -q origin --delete feat
  git branch -q -d feat
}

# parse_project_beside_a_fake_gh: $L the marker word, a fake gh with
# issues on PATH, the forge exempt, src/lib.rs committed and pushed to
# origin.
parse_project_beside_a_fake_gh() {
  L="LIMIT""ATION"
  fake_gh_with_issues
  exempt_forge
  mkdir -p src tests
  echo 'pub fn parse() {}' > src/lib.rs
  commit_all "initial"
  with_origin
}

# with_daemon_origin: serve_origin_by_git_daemon, then an initial commit
# (README, the forge exempt) pushed to it as origin's main, origin/HEAD set;
# sets $project to origin's URL.
with_daemon_origin() {
  serve_origin_by_git_daemon
  project="git://127.0.0.1:$port/origin.git"
  echo base > README
  exempt_forge
  commit_all "initial"
  git remote add origin "$project"
  git push -q -u origin main
  git remote set-head origin main
}

# lib_sh_beside_a_test [TEST]: src/lib.sh setting a=1, and a test of it
# at TEST (default tests/a_test.sh), not yet committed.
lib_sh_beside_a_test() {
  local test=${1:-tests/a_test.sh}
  mkdir -p src "$(dirname "$test")"
  echo 'a=1' > src/lib.sh
  printf '. src/lib.sh; [ -n "$a" ]\n' > "$test"
}

# fix_lib_sh_pushed: what the case wrote (src/lib.sh setting a=1, its
# tests) committed with origin, a task started, a set to 2 in src/lib.sh,
# committed and pushed.
fix_lib_sh_pushed() {
  commit_all "initial"
  with_origin
  expect_run 0 md start "fix a"
  echo 'a=2' > src/lib.sh
  commit_all "fix a"
  git push -q origin main
}

# start_fixing_a_beside_a_test_file: the unit gate, src/lib.rs and a test
# file tests/a.rs committed and pushed (origin), a task started and its fix
# of src/lib.rs committed.
start_fixing_a_beside_a_test_file() {
  unit_gate_policy
  printf 'fn a() {}\n\n\n\nfn b() {}\n' > src/lib.rs
  printf '#[test]\nfn old() {}\n\n\n\n// end\n' > tests/a.rs
  commit_all "initial"
  with_origin
  expect_run 0 md start "fix a"
  sed -i 's/fn a() {}/fn a() { fixed }/' src/lib.rs
  commit_all "fix a"
}

# write_tiny_sds: sds.c, a function and its tests in the same file, as
# antirez/sds keeps them (`test_cond` lines under SDS_TEST_MAIN).
write_tiny_sds() {
  cat > sds.c <<'C'
#include <ctype.h>
#include <string.h>
void lower(char *s) { for (; *s; s++) *s = tolower(*s); }
#ifdef SDS_TEST_MAIN
#include <stdio.h>
#define test_cond(d,c) do { if (!(c)) { printf("FAIL %s\n", d); return 1; } } while (0)
int main(void) {
    char a[] = "AbC";
    lower(a);
    test_cond("lower", strcmp(a, "abc") == 0);
    return 0;
}
#endif
C
}

# push_a_feature: src/a.rs and its test committed and pushed to origin's
# main (pushed and regression-tested answered).
push_a_feature() {
  commit_a_feature
  git push -q origin main
}

pushed_project() {
  if [ "${1-}" = --libsrc ]; then
    git init -q -b main "$case_root/libsrc"
    (cd "$case_root/libsrc" && echo l > l.txt && git add -A && git commit -qm "lib")
  fi
  echo base > README
  exempt_forge
  commit_all "initial"
  with_origin
  echo "/.worktrees/" >> .git/info/exclude
}

task_left_in_deinit_lib() {
  git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" lib 2>/dev/null
  git commit -qm "add lib"
  git push -q origin main
  (
    cd lib
    expect_run 0 md start "the lib work"
    echo w > w.txt && git add w.txt && git commit -qm "the lib work"
  )
  git submodule deinit -q -f lib
}

lib_remote() {
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
  git init -q --bare -b main "$@" "$case_root/lib.git"
  git clone -q "$case_root/lib.git" "$case_root/seed" 2> /dev/null
  (cd "$case_root/seed" && git commit -q --allow-empty -m lib && git push -q origin HEAD:main)
}

lib_bumped() {
  echo base > README
  exempt_forge
  commit_all "initial"
  with_origin
  git submodule --quiet add "$1" lib
  commit_all "lib"
  git push -q origin main
  expect_run 0 md start "use lib's new function"

  (cd lib && echo 'pub fn new() {}' > new.rs && git add new.rs && git commit -qm "lib: new")
  mkdir -p tests
  echo t > tests/new.rs
  git add lib tests
  git commit -qm "use lib's new function"
  git push -q origin main
}

lib_bump_pushed_without_lib() {
  lib_remote
  lib_bumped "${1:-../lib.git}"
  expect_open pushed "lib" "owed"
}

# Owners for `majordomus carry`: real processes, killed when the case ends
# (before lib.sh's own clean-up). `lib_owners` once, then `lib_owner`
# starts one; its pid is `$!`.
lib_owners() {
  owners=()
  local lib_trap
  lib_trap=$(trap -p EXIT | sed "s/^trap -- '\(.*\)' EXIT\$/\1/")
  trap 'kill "${owners[@]}" 2>/dev/null || true; '"$lib_trap" EXIT
}
lib_owner() { sleep 120 & owners+=("$!"); }

# lib_c_project RUN: a C project whose one test is an `assert` compiled by
# make's built-in rule, src/sum.c correct, and a policy whose gate `unit`
# runs RUN over every file (no forge here); committed.
lib_c_project() {
  mkdir -p .ai/repo src tests
  {
    printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "no forge here"\n\n'
    printf '[gates.unit]\nrun = "%s"\ninputs = ["**"]\n' "$1"
  } > .ai/repo/majordomus.toml
  printf 'check: tests/t_sum\n\t./tests/t_sum\ntests/t_sum: tests/t_sum.c src/sum.c\n' > Makefile
  printf 'tests/t_sum\n' > .gitignore
  printf 'int sum(int a, int b) { return a + b; }\n' > src/sum.c
  printf '#include <assert.h>\nint sum(int, int);\nint main(void) { assert(sum(1, 2) == 3); return 0; }\n' > tests/t_sum.c
  commit_all "initial"
}

# make_gate_built_after FN: a C project whose gate `unit` is `make check`, a
# task started; FN writes what is to be older than the build; a second
# later the test is extended and the gate run (make builds tests/t_sum),
# green; then a second passes, so what is written next is newer than it.
make_gate_built_after() {
  lib_c_project "make check"
  expect_run 0 md start "rework the sum"
  "$1"
  sleep 1
  printf '#include <assert.h>\nint sum(int, int);\nint main(void) { assert(sum(1, 2) == 3); assert(sum(2, 2) == 4); return 0; }\n' > tests/t_sum.c
  expect_run 0 md gate run unit
  sleep 1
}

# refused_over_stale_sum: `gate run unit` names src/sum.c as dated back,
# its remedy `touch -- src/sum.c`, and runs nothing, records nothing.
refused_over_stale_sum() {
  expect_run 10 md gate run unit
  expect_contains "src/sum.c"
  expect_contains "dated back"
  expect_contains "touch -- src/sum.c && majordomus gate run unit"
  expect_not_contains "verdict recorded"
  expect_not_contains "./tests/t_sum"
}

java_parser_project() {
  mkdir -p src/main/java/org/x .ai/repo
  echo 'class Parser { int limit() { return 1; } }' > src/main/java/org/x/Parser.java
  printf '[gates.unit]\nrun = "true"\ninputs = ["**"]\n' >> .ai/repo/majordomus.toml
  exempt_forge
  commit_all "initial"
  with_origin
}
