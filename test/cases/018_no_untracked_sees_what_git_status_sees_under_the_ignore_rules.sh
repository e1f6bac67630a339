# `no-untracked` counts exactly the files `git status -uall` lists: a
# deeper .gitignore's negation re-includes what the root ignored, a
# .gitignore negation outranks info/exclude and core.excludesFile, a
# directory-only pattern does not hide a symbolic link, and nothing under
# an ignored directory is re-included. `committed` sees tracked files whose
# directory a link replaced, and leaves alone a file the user marked
# assume-unchanged before the task began, as git does.
source "$(dirname "$0")/../lib.sh" || exit 2

printf '*.log\nbuild/\na/\n!*.txt\n!important.tmp\n' > .gitignore
mkdir -p sub lib src
printf '!keep.log\n' > sub/.gitignore
echo 'conf' > local.conf
echo 'fn a() {}' > lib/a.rs
commit_all "initial"
printf '*.tmp\n' >> .git/info/exclude
git config core.excludesFile "$case_root/excludes"
printf '*.bak\n!x.bak\n' > "$case_root/excludes"
git update-index --assume-unchanged local.conf
echo 'my local setting' > local.conf

expect_run 0 md start "a task under ignore rules"
expect_status committed pass
expect_status no-untracked pass

# Each of these is untracked to git, so owed here.
for made in sub/keep.log important.tmp; do
  echo x > "$made"
  expect_status no-untracked owed
  grep -q "$made" "$case_root/doc.json" || fail "no-untracked does not name $made"
  git status --porcelain -uall | grep -q "$made" || fail "git does not list $made either"
  rm "$made"
done
ln -s src build
expect_status no-untracked owed
rm build

# What git ignores stays ignored.
mkdir -p a
echo x > a/k.txt
echo x > other.log
echo x > y.bak
expect_status no-untracked pass
[ -z "$(git status --porcelain -uall)" ] || fail "git lists something: $(git status --porcelain -uall)"

# A tracked directory replaced by a link to a copy of it: its files are gone.
mv lib lib-copy
ln -s lib-copy lib
expect_status committed owed
grep -q "lib/a.rs" "$case_root/doc.json" || fail "committed does not name lib/a.rs"
