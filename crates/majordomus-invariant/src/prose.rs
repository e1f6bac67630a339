//! The words every family's evidence is built from: counts with their
//! nouns, the first few names of a list, a reason made a sentence, a commit
//! id or a ref shortened. Only sentences are made here; what they say is
//! each family's.

/// `1 path`, `3 paths`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let plural = match noun {
        "stash entry" => "stash entries".to_string(),
        "local branch" => "local branches".to_string(),
        "path is" => "paths are".to_string(),
        n if n.ends_with('s') || n.ends_with("ch") => format!("{n}es"),
        n if n.ends_with('y') && !n.ends_with("ay") && !n.ends_with("ey") && !n.ends_with("oy") => {
            format!("{}ies", &n[..n.len() - 1])
        }
        n => format!("{n}s"),
    };
    format!("{n} {plural}")
}

/// `1 tracks`, `2 track`.
pub fn count_verb(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `is` for one, `are` for more.
pub fn are(n: usize) -> &'static str {
    if n == 1 {
        "is"
    } else {
        "are"
    }
}

/// `remains` for one, `remain` for more.
pub fn remain(n: usize) -> &'static str {
    if n == 1 {
        "remains"
    } else {
        "remain"
    }
}

/// Names the first few items: `a, b, c and 4 more`.
pub fn names<S: std::fmt::Display>(items: &[S]) -> String {
    const SHOWN: usize = 5;
    let shown: Vec<String> = items.iter().take(SHOWN).map(ToString::to_string).collect();
    let mut out = shown.join(", ");
    if items.len() > SHOWN {
        out.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    out
}

/// A reason as a sentence: capitalised, ending in a full stop.
pub fn sentence(reason: &str) -> String {
    let mut chars = reason.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

/// The first twelve characters of a hash.
pub fn short(hash: &str) -> &str {
    &hash[..12.min(hash.len())]
}

/// `origin/main` for `refs/remotes/origin/main`, `main` for `refs/heads/main`.
pub fn short_ref(name: &str) -> &str {
    name.strip_prefix("refs/remotes/").or_else(|| name.strip_prefix("refs/heads/")).unwrap_or(name)
}

pub use majordomus_readings::shell_word;

/// Words as shell words, space-separated.
pub fn shell_words<S: AsRef<str>>(words: &[S]) -> String {
    words.iter().map(|w| shell_word(w.as_ref())).collect::<Vec<_>>().join(" ")
}
