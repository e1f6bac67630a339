# A repository whose index is split (`git update-index --split-index`) or
# sparse (`git sparse-checkout set --sparse-index`) is read like any other:
# start records its paths, check names the uncommitted and untracked work,
# and once the work is committed nothing of the working tree is left open.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src other
echo 'fn a() {}' > src/lib.rs
echo 'outside' > other/notes.txt
exempt_forge
commit_all "initial"

for form in split sparse; do
  case $form in
    split) git update-index --split-index ;;
    sparse) git sparse-checkout set --sparse-index src .ai ;;
  esac
  expect_run 0 md start "a task over a $form index"
  expect_not_contains "not read at the start"
  echo "fn b() {} // $form" >> src/lib.rs
  echo "new" > "src/new-$form.rs"
  mkdir -p src/tests && echo "#[test] fn a_${form}_test() {}" > "src/tests/$form.rs"
  expect_run 10 md check
  expect_contains "committed=owed"
  expect_contains "no-untracked=owed"
  expect_contains "src/new-$form.rs"
  commit_all "work over a $form index"
  expect_status committed pass
  expect_status no-untracked pass
  # Completed: a start after a task left open would continue it, and
  # this one must start afresh over its own index.
  expect_run 0 md finish --outcome completed
  case $form in
    split) git update-index --no-split-index ;;
  esac
done
