//! Whether a fetch wrote a remote-tracking ref the way the remote maps it.
//!
//! A reflog line `fetch origin: fast-forward` says a fetch of origin
//! moved the ref, not which of origin's refs it wrote there. The remote's
//! fetch refspecs (`+refs/heads/*:refs/remotes/origin/*`) say that, and a
//! fetch can be told otherwise: `git fetch origin
//! feature:refs/remotes/origin/main`, `--refmap`, `git pull` with the same
//! refspec, or `remote.origin.fetch` set to map `feature` onto
//! `origin/main`. Each is a real fetch of origin, and each leaves
//! origin's `feature` in the ref that stands for origin's `main`: the trunk
//! then "holds" work its remote never saw (test/cases/280); a push under
//! such a configured refspec updates the ref the same way. So a fetch or
//! push counts for a ref only where every refspec that writes the ref (its
//! line's, and those configured now) maps it from the remote ref the
//! remote's refspecs at the start, or git's default, map onto it: `git
//! remote set-branches --add origin feature` adds a refspec that does, and
//! still counts.
//!
//! The reflog line keeps the command's words, so an explicit refspec is
//! seen; a refspec configured for one fetch and put back before the
//! check is not, and `FETCH_HEAD` is read for what that fetch said the
//! remote held (`fetch_head.rs`).

/// The options of `git fetch` and `git pull` that take their value as the
/// next word.
pub(super) const VALUED: &[&str] = &[
    "--depth",
    "--deepen",
    "--shallow-since",
    "--shallow-exclude",
    "--upload-pack",
    "--refmap",
    "-o",
    "--server-option",
    "--negotiation-tip",
    "-j",
    "--jobs",
    "--recurse-submodules-default",
    "-s",
    "--strategy",
    "-X",
    "--strategy-option",
];

/// The refspec git gives a remote added with `git remote add` or made by
/// `git clone`: a record that did not keep the start's refspecs is read
/// as holding this one.
pub(super) fn default_for(remote: &str) -> Vec<String> {
    vec![format!("+refs/heads/*:refs/remotes/{remote}/*")]
}

/// Whether every refspec configured now that writes `refname` takes it
/// from the remote ref `allowed` maps onto it.
pub(super) fn configured_agrees(now: &[String], refname: &str, allowed: &[String]) -> bool {
    now.iter().filter_map(|s| parse(s)).all(|(src, dst)| held_to(&src, &dst, refname, allowed))
}

/// Whether a refspec, where it writes `refname`, writes it from the remote
/// ref `allowed` maps onto it (one that does not write it agrees).
fn held_to(src: &str, dst: &str, refname: &str, allowed: &[String]) -> bool {
    match source_for(src, dst, refname) {
        Some(from) => {
            allowed.iter().filter_map(|s| parse(s)).any(|(s, d)| maps(&s, &d, &from).as_deref() == Some(refname))
        }
        None => true,
    }
}

/// Whether the fetch or pull `message` (a reflog line's message) wrote
/// `refname` only as `start` (the remote's refspecs at the start) maps it:
/// every refspec the line names (after the remote) and every `--refmap`
/// that writes `refname` takes it from the remote ref `start` maps onto
/// it. A line naming none is the configured mapping's, which the caller
/// compares with the start's.
pub(super) fn agrees(message: &str, refname: &str, start: &[String]) -> bool {
    named(message).into_iter().filter_map(parse).all(|(src, dst)| held_to(&src, &dst, refname, start))
}

/// The names a refspec of the fetch or pull `message`, or one configured
/// now (`now`), gives unqualified where it writes `refname`: `main` in
/// `main:refs/remotes/origin/main`. git resolves such a source on the
/// remote in its own order (`refs/NAME`, `refs/tags/NAME`, then
/// `refs/heads/NAME`), so it is the branch only where the remote has no
/// tag or other ref of that name, which a remote across a network does
/// not let us read: only the fetch's `FETCH_HEAD` says which it found
/// (test/cases/539). A wildcard source is matched as written, never
/// resolved so.
pub(super) fn unqualified(message: &str, now: &[String], refname: &str) -> Vec<String> {
    let specs = named(message).into_iter().chain(now.iter().map(String::as_str));
    specs
        .filter_map(parse)
        .filter(|(src, dst)| !src.starts_with("refs/") && !src.contains('*') && source_for(src, dst, refname).is_some())
        .map(|(src, _)| src)
        .collect()
}

/// The refspecs the fetch or pull `message` names: each after the remote
/// (`tag NAME` dropped: it writes a tag), and each `--refmap`.
pub(super) fn named(message: &str) -> Vec<&str> {
    let action = message.split_once(": ").map_or(message, |(a, _)| a);
    let mut words = action.split_whitespace();
    words.next();
    let (mut positional, mut named) = (Vec::new(), Vec::new());
    while let Some(word) = words.next() {
        if word == "--refmap" {
            named.extend(words.next());
        } else if let Some(map) = word.strip_prefix("--refmap=") {
            named.push(map);
        } else if VALUED.contains(&word) {
            words.next();
        } else if !word.starts_with('-') {
            positional.push(word);
        }
    }
    // The first word is the remote; `tag NAME` writes a tag, never a
    // remote-tracking ref.
    let mut rest = positional.into_iter().skip(1);
    while let Some(word) = rest.next() {
        if word == "tag" {
            rest.next();
        } else {
            named.push(word);
        }
    }
    named
}

/// A refspec's source and destination, `+` dropped; `None` for a negative
/// refspec or one that writes nothing locally (no `:DST`).
fn parse(spec: &str) -> Option<(String, String)> {
    let spec = spec.strip_prefix('+').unwrap_or(spec);
    if spec.starts_with('^') {
        return None;
    }
    let (src, dst) = spec.split_once(':')?;
    (!dst.is_empty()).then(|| (src.to_string(), dst.to_string()))
}

/// The remote ref a refspec writes into `refname`, when it writes it at
/// all. A destination not under `refs/` is tried as git completes it
/// (`remotes/origin/x` is `refs/remotes/origin/x`), a source not under
/// `refs/` as a branch.
fn source_for(src: &str, dst: &str, refname: &str) -> Option<String> {
    let full = |name: &str| if name.starts_with("refs/") { name.to_string() } else { format!("refs/heads/{name}") };
    let candidates = if dst.starts_with("refs/") {
        vec![dst.to_string()]
    } else {
        vec![format!("refs/{dst}"), format!("refs/heads/{dst}"), format!("refs/remotes/{dst}")]
    };
    candidates.iter().find_map(|d| match (d.split_once('*'), src.split_once('*')) {
        (Some((prefix, suffix)), Some(_)) => {
            let middle = refname.strip_prefix(prefix)?.strip_suffix(suffix)?;
            (!middle.is_empty()).then(|| full(&src.replacen('*', middle, 1)))
        }
        (None, _) if d == refname => Some(full(src)),
        _ => None,
    })
}

/// The remote refs `specs` write into `refname`.
pub(super) fn sources(specs: &[String], refname: &str) -> Vec<String> {
    specs.iter().filter_map(|s| parse(s)).filter_map(|(src, dst)| source_for(&src, &dst, refname)).collect()
}

/// The refs `specs` write the remote ref `from` into.
pub(super) fn maps_onto(specs: &[String], from: &str) -> Vec<String> {
    mapper(specs)(from)
}

/// [`maps_onto`] for many refs: `specs` parsed once.
pub(super) fn mapper(specs: &[String]) -> impl Fn(&str) -> Vec<String> {
    let parsed: Vec<(String, String)> = specs.iter().filter_map(|s| parse(s)).collect();
    move |from| parsed.iter().filter_map(|(src, dst)| maps(src, dst, from)).collect()
}

/// The ref a refspec writes `from` into, when it matches `from`.
fn maps(src: &str, dst: &str, from: &str) -> Option<String> {
    match (src.split_once('*'), dst.split_once('*')) {
        (Some((prefix, suffix)), Some(_)) => {
            let middle = from.strip_prefix(prefix)?.strip_suffix(suffix)?;
            (!middle.is_empty()).then(|| dst.replacen('*', middle, 1))
        }
        (None, None) if src == from => Some(dst.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetch_that_names_no_refspec_agrees_and_one_mapping_another_branch_onto_the_ref_does_not() {
        let start = default_for("origin");
        let main = "refs/remotes/origin/main";
        for (message, agreed) in [
            ("fetch: fast-forward", true),
            ("fetch -q origin: fast-forward", true),
            ("fetch origin main: storing head", true),
            ("fetch origin main:refs/remotes/origin/main: fast-forward", true),
            ("fetch origin +refs/heads/*:refs/remotes/origin/*: forced-update", true),
            ("fetch origin feature:refs/remotes/origin/feature: storing head", true),
            ("fetch origin tag v1: storing head", true),
            ("fetch -q origin feature:refs/remotes/origin/main: fast-forward", false),
            ("fetch origin feature:remotes/origin/main: fast-forward", false),
            ("fetch origin +refs/heads/*:refs/remotes/origin/x/*: storing head", true),
            ("fetch origin +refs/tags/*:refs/remotes/origin/*: forced-update", false),
            ("fetch origin 0123abcd:refs/remotes/origin/main: fast-forward", false),
            ("fetch -q origin --refmap=+refs/heads/feature:refs/remotes/origin/main feature: fast-forward", false),
            ("fetch origin --refmap +refs/heads/feature:refs/remotes/origin/main feature: fast-forward", false),
            ("pull -q origin feature:refs/remotes/origin/main: fast-forward", false),
            ("pull --rebase origin main: fast-forward", true),
        ] {
            assert_eq!(agrees(message, main, &start), agreed, "{message:?}");
        }
    }

    #[test]
    fn an_unqualified_source_that_writes_the_ref_is_named_for_fetch_head_to_confirm() {
        let main = "refs/remotes/origin/main";
        let none: Vec<String> = Vec::new();
        assert_eq!(unqualified("fetch -q origin main:refs/remotes/origin/main: storing head", &none, main), ["main"]);
        assert_eq!(unqualified("pull origin main:remotes/origin/main: fast-forward", &none, main), ["main"]);
        assert!(
            unqualified("fetch origin refs/heads/main:refs/remotes/origin/main: fast-forward", &none, main).is_empty()
        );
        assert!(unqualified("fetch origin main:refs/remotes/origin/other: storing head", &none, main).is_empty());
        assert!(unqualified("fetch origin: fast-forward", &default_for("origin"), main).is_empty());
        let configured = vec!["main:refs/remotes/origin/main".to_string()];
        assert_eq!(unqualified("fetch origin: fast-forward", &configured, main), ["main"]);
    }

    #[test]
    fn a_refspec_kept_at_the_start_is_the_mapping_a_fetch_is_held_to() {
        let start = vec!["+refs/heads/trunk:refs/remotes/up/main".to_string()];
        assert!(agrees("fetch up trunk:refs/remotes/up/main: fast-forward", "refs/remotes/up/main", &start));
        assert!(!agrees("fetch up main:refs/remotes/up/main: fast-forward", "refs/remotes/up/main", &start));
        let twice = "+refs/heads/*:refs/remotes/o/*".to_string();
        let added = vec![twice, "+refs/heads/feature:refs/remotes/o/feature".to_string()];
        assert!(configured_agrees(&added, "refs/remotes/o/feature", &default_for("o")));
        let crossed = vec!["+refs/heads/feature:refs/remotes/o/main".to_string()];
        assert!(!configured_agrees(&crossed, "refs/remotes/o/main", &default_for("o")));
        assert!(configured_agrees(&crossed, "refs/remotes/o/other", &default_for("o")));
    }
}
