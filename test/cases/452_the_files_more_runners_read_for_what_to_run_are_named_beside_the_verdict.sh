#!/usr/bin/env bash
# The class of case 423 for more runners: what `prove` takes from
# `.proverc` (`--dry`: list the tests, run none, exit 0), pytest from a
# `.pytest.ini` or pytest 9's `pytest.toml` (`addopts = --co`), cargo from
# `rust-toolchain.toml` (which cargo runs), nox from `noxfile.py`, rspec
# from `.rspec`, just from its `justfile`. Edited by the task, each is
# named beside the gate's verdict. The runners are stand-ins here: what is
# read is the command's words and the change set, not the run.
source "$(dirname "$0")/../lib.sh" || exit 2

bin=$case_root/bin
mkdir -p "$bin"
for p in prove pytest cargo nox rspec just; do printf '#!/bin/sh\nexit 0\n' > "$bin/$p"; chmod +x "$bin/$p"; done
export PATH="$bin:$PATH"
mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "prove t/ && pytest -q && cargo test && nox && rspec && just test"
inputs = ["**"]
TOML
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
echo "fn a() { fixed }" > src/lib.rs
echo t > tests/a.rs
echo "--dry" > .proverc
printf '[pytest]\naddopts = --co\n' > .pytest.ini
printf '[pytest]\naddopts = ["--co"]\n' > pytest.toml
printf '[toolchain]\nchannel = "nightly"\n' > rust-toolchain.toml
echo "# nothing" > noxfile.py
echo "--dry-run" > .rspec
printf 'test:\n\ttrue\n' > justfile
commit_all "fix a, and the runners told to run nothing"
expect_run 0 md gate run unit
expect_answer gates-green "pass" "the runner its command names reads"
named=$(json_get "$case_root/doc.json" "' '.join([q for q in d['questions'] if q['id'] == 'gates-green'][0]['details']['commands_name_changed']['unit'])")
for f in .proverc .pytest.ini pytest.toml rust-toolchain.toml noxfile.py .rspec justfile; do
  case " $named " in *" $f "*) ;; *) fail "$f is not named beside the verdict: $named" ;; esac
done
