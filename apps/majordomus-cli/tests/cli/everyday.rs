//! Everyday use: explain, completions.

use crate::common::Case;
use crate::snapshot_run;

#[test]
fn explain_says_what_a_question_asks_and_what_each_status_means() {
    let case = Case::new();
    let run = case.md(&["explain", "pushed"]);
    assert_eq!(run.code, 0, "{run:?}");
    snapshot_run!("explain_pushed", case.snapshot(&run));
}

#[test]
fn explain_names_the_questions_when_asked_about_one_that_does_not_exist() {
    let case = Case::new();
    let run = case.md(&["explain", "finished"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("no question is called \"finished\"") && run.stderr.contains("scoped, gates-green"),
        "{run:?}"
    );
}

#[test]
fn explain_knows_a_question_the_policy_adds() {
    let case = Case::new();
    case.repo.write(
        ".ai/repo/majordomus.toml",
        "[gates.docs-check]\nrun = \"true\"\n\n[[questions]]\nid = \"documented\"\nstage = \"documentation\"\nquestion = \"Were the documents updated?\"\ngate = \"docs-check\"\n",
    );
    let run = case.md(&["explain", "documented"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("Were the documents updated?") && run.stdout.contains("majordomus gate run docs-check"),
        "{run:?}"
    );
}

#[test]
fn completions_are_printed_for_bash_zsh_and_fish() {
    let case = Case::new();
    for (shell, mark) in [("bash", "complete -F"), ("zsh", "#compdef majordomus"), ("fish", "complete -c majordomus")] {
        let run = case.md(&["completions", shell]);
        assert_eq!(run.code, 0, "{run:?}");
        assert!(run.stdout.contains(mark), "{shell}: {}", &run.stdout[..200.min(run.stdout.len())]);
        assert!(run.stdout.contains("hook"), "{shell} completes the hook command");
    }
}

#[test]
fn explain_shows_the_cap_the_policy_puts_in_force_and_where_it_comes_from() {
    let case = Case::new();
    case.repo.write(
        ".ai/repo/majordomus.toml",
        "[gates.docs-check]\nrun = \"true\"\n\n[[questions]]\nid = \"documented\"\nstage = \"documentation\"\nquestion = \"Were the documents updated?\"\ngate = \"docs-check\"\n\n[caps]\npushed = 3\n",
    );
    let run = case.md(&["explain", "pushed"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("cap:    3, from [caps] in .ai/repo/majordomus.toml; built in: 8"), "{run:?}");
    let run = case.md(&["explain", "documented"]);
    assert!(run.stdout.contains("cap:    5, the default for a question the policy adds"), "{run:?}");
    case.repo.write(".ai/repo/majordomus.toml", "[caps]\npushed = 3\ncolour = \"blue\"\n");
    let run = case.md(&["explain", "pushed"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("cap:    8, built in; the policy is not valid"), "{run:?}");
    assert!(run.stderr.contains("the policy is not valid") && run.stderr.contains("colour"), "{run:?}");
}
