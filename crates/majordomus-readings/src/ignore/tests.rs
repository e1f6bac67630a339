use super::*;

fn source(text: &str) -> Option<Source> {
    Some(Source { origin: PathBuf::from("given"), bytes: text.as_bytes().to_vec() })
}

#[test]
fn a_literal_negation_in_a_deeper_file_re_includes_what_a_shallower_one_ignored() {
    let m = Matcher::new(&Sources::default(), false);
    let rules = Rules::default().with("", b"*.log\n").with("sub", b"keep.log\n!keep.log\n");
    assert!(!m.is_ignored(&rules, "sub/keep.log", Kind::NotDir));
    let rules = Rules::default().with("", b"*.log\n").with("sub", b"!keep.log\n");
    assert!(!m.is_ignored(&rules, "sub/keep.log", Kind::NotDir), "it negates no line of its own file");
    assert!(m.is_ignored(&rules, "sub/other.log", Kind::NotDir));
}

#[test]
fn gitignore_outranks_info_exclude_which_outranks_the_excludes_file() {
    let both = Sources::given(source("*.log\n!b.log\n"), source("*.tmp\n!a.log\nb.log\n"));
    let m = Matcher::new(&both, false);
    let none = Rules::default();
    assert!(!m.is_ignored(&none, "a.log", Kind::NotDir), "info/exclude's negation wins over the excludes file");
    assert!(m.is_ignored(&none, "b.log", Kind::NotDir), "info/exclude's pattern wins over the excludes file");
    assert!(m.is_ignored(&none, "c.log", Kind::NotDir));
    let rules = Rules::default().with("", b"!important.log\n!x.tmp\n");
    assert!(!m.is_ignored(&rules, "important.log", Kind::NotDir));
    assert!(!m.is_ignored(&rules, "x.tmp", Kind::NotDir));
    assert!(m.is_ignored(&rules, "y.tmp", Kind::NotDir));
}

#[test]
fn case_is_folded_only_under_ignore_case() {
    let rules = Rules::default().with("", b"*.LOG\nBuild/\n");
    assert!(Matcher::new(&Sources::default(), true).is_ignored(&rules, "a.log", Kind::NotDir));
    assert!(Matcher::new(&Sources::default(), true).is_ignored(&rules, "build", Kind::Dir));
    assert!(!Matcher::new(&Sources::default(), false).is_ignored(&rules, "a.log", Kind::NotDir));
}

#[test]
fn the_current_sources_are_info_exclude_and_the_configured_excludes_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("common/info")).expect("mkdir");
    std::fs::write(dir.path().join("common/info/exclude"), "*.x\n").expect("write");
    std::fs::write(dir.path().join("mine"), "*.y\n").expect("write");
    std::fs::write(dir.path().join("config"), "[core]\n\texcludesFile = mine\n").expect("write");
    let config = git2::Config::open(&dir.path().join("config")).expect("config");
    let sources = Sources::current(&config, &dir.path().join("common"), dir.path());
    assert_eq!(sources.info_exclude.expect("read").bytes, b"*.x\n");
    let excludes = sources.excludes_file.expect("read");
    assert_eq!(excludes.bytes, b"*.y\n");
    assert_eq!(excludes.origin, dir.path().join("mine"), "relative to the working tree's root");
}
