//! The bookkeeping commands: todos, issues, background work.

use crate::common::Case;

#[test]
fn many_todo_adds_at_once_each_land_a_todo_with_a_number_of_its_own() {
    let case = Case::new();
    case.start("many hands");
    let texts: Vec<String> = (0..12).map(|i| format!("todo number {i}")).collect();
    let runs: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = texts.iter().map(|t| s.spawn(|| case.md(&["todo", "add", t.as_str()]))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for run in &runs {
        assert_eq!(run.code, 0, "{run:?}");
    }
    let list = case.md(&["todo", "list"]);
    assert_eq!(list.code, 0, "{list:?}");
    let mut numbers: Vec<u32> =
        list.stdout.lines().map(|l| l.trim().split(' ').next().unwrap().parse().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=12).collect::<Vec<u32>>(), "{}", list.stdout);
    for t in &texts {
        assert!(list.stdout.contains(&format!("{t}\n")), "{t} was lost: {}", list.stdout);
    }
}
