# Not in issue 10 (a new class; judgement, see README.md): `majordomus
# forge record FILE` takes an observation the worker wrote, observed_at and
# all. After gh observed the task's pull request #5 open, a hand-written
# document saying nothing is open turns backlog-not-grown to pass. A typed
# observation is the worker's word: the answer names it as recorded, not
# observed, and it does not pass over what gh observed in this task.
source "$(dirname "$0")/../lib.sh" || exit 2

# A stand-in for gh (as in test/cases/052): one open pull request, #5,
# opened a minute after the start.
fake=$(fake_gh)
observe_one_open_pr "$fake"

python3 - "$case_root/typed.json" <<'PY'
import json, sys, datetime
now = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=2)
json.dump({"schema": "majordomus/forge/v1", "repository": "acme/widgets",
           "observed_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"), "pull_requests": [], "issues": []},
          open(sys.argv[1], "w"))
PY
expect_run 0 md forge record "$case_root/typed.json"
expect_open backlog-not-grown "record|#5"
expect_run 10 md check
