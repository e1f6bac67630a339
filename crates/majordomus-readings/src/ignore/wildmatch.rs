//! git's glob matcher (`wildmatch`), as `.gitignore` patterns use it.
//!
//! The rules, from `git help gitignore` and `git help glob`: `?` and `*`
//! never match a `/` when matching a whole path (`*` and `**` do when
//! matching a base name, which holds none), `**` between slashes (or at
//! either end) matches any number of directories, `[...]` is a set with
//! ranges, `!`/`^` negation and `[:class:]` names, and `\` makes the next
//! character literal. Matching stops early where the text cannot match any
//! more (the two abort answers below), which keeps a pattern with several
//! stars linear in practice.
//!
//! Case folding (`core.ignoreCase`) folds ASCII only, as git does, and
//! folds neither an escaped character nor a set's members (a quirk of
//! git's matcher this one keeps, so that the two agree).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wild {
    Match,
    NoMatch,
    /// No suffix of the text can match: every enclosing star gives up.
    AbortAll,
    /// Only a `**` further out may still match, by taking a slash.
    AbortToStarStar,
}

/// Whether `text` matches `pattern`. `pathname`: `*`, `?` and sets never
/// match a `/` (a `**` between slashes still spans directories).
pub fn matches(pattern: &[u8], text: &[u8], pathname: bool, icase: bool) -> bool {
    wild(pattern, text, pathname, icase) == Wild::Match
}

fn is_special(c: u8) -> bool {
    matches!(c, b'*' | b'?' | b'[' | b'\\')
}

fn wild(p: &[u8], text: &[u8], pathname: bool, icase: bool) -> Wild {
    let fold = |c: u8| if icase { c.to_ascii_lowercase() } else { c };
    let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(0);
    let (mut pi, mut ti) = (0, 0);
    while pi < p.len() {
        let p_ch = fold(p[pi]);
        if ti >= text.len() && p_ch != b'*' {
            return Wild::AbortAll;
        }
        let t_ch = fold(at(text, ti));
        match p_ch {
            b'\\' => {
                // The next character literally (not folded); none left matches nothing.
                pi += 1;
                if pi >= p.len() || t_ch != p[pi] {
                    return Wild::NoMatch;
                }
            }
            b'?' => {
                if pathname && t_ch == b'/' {
                    return Wild::NoMatch;
                }
            }
            b'*' => {
                let first = pi;
                pi += 1;
                let match_slash;
                if at(p, pi) == b'*' {
                    while at(p, pi) == b'*' {
                        pi += 1;
                    }
                    let after = at(p, pi);
                    if !pathname {
                        match_slash = true;
                    } else if (first == 0 || p[first - 1] == b'/')
                        && (pi >= p.len() || after == b'/' || (after == b'\\' && at(p, pi + 1) == b'/'))
                    {
                        // `**/` may match no directory at all: try the rest here first.
                        if after == b'/' && wild(&p[pi + 1..], &text[ti..], pathname, icase) == Wild::Match {
                            return Wild::Match;
                        }
                        match_slash = true;
                    } else {
                        match_slash = false;
                    }
                } else {
                    match_slash = !pathname;
                }
                if pi >= p.len() {
                    // A trailing star takes the rest, a single one only within a directory.
                    if !match_slash && text[ti..].contains(&b'/') {
                        return Wild::NoMatch;
                    }
                    return Wild::Match;
                }
                if !match_slash && p[pi] == b'/' {
                    // One star then a slash: the rest of this directory's name.
                    match text[ti..].iter().position(|c| *c == b'/') {
                        Some(off) => ti += off,
                        None => return Wild::NoMatch,
                    }
                    pi += 1;
                    ti += 1;
                    continue;
                }
                loop {
                    if ti >= text.len() {
                        break;
                    }
                    if !is_special(p[pi]) {
                        // A literal follows: skip to where it next occurs.
                        let want = fold(p[pi]);
                        while ti < text.len() && (match_slash || text[ti] != b'/') && fold(text[ti]) != want {
                            ti += 1;
                        }
                        if ti >= text.len() || fold(text[ti]) != want {
                            return if match_slash { Wild::AbortAll } else { Wild::AbortToStarStar };
                        }
                    }
                    match wild(&p[pi..], &text[ti..], pathname, icase) {
                        Wild::NoMatch => {
                            if !match_slash && text[ti] == b'/' {
                                return Wild::AbortToStarStar;
                            }
                        }
                        Wild::AbortToStarStar if match_slash => {}
                        other => return other,
                    }
                    ti += 1;
                }
                return Wild::AbortAll;
            }
            b'[' => match set(p, &mut pi, t_ch, icase) {
                Some(true) if !(pathname && t_ch == b'/') => {}
                Some(_) => return Wild::NoMatch,
                None => return Wild::AbortAll,
            },
            _ => {
                if t_ch != p_ch {
                    return Wild::NoMatch;
                }
            }
        }
        pi += 1;
        ti += 1;
    }
    if ti < text.len() {
        Wild::NoMatch
    } else {
        Wild::Match
    }
}

/// A `[...]` set at `p[*pi]` against the text character `t_ch`: whether it
/// matches (`None`: the set is malformed, which matches nothing anywhere).
/// Leaves `*pi` on the closing `]`.
fn set(p: &[u8], pi: &mut usize, t_ch: u8, icase: bool) -> Option<bool> {
    let at = |i: usize| p.get(i).copied().unwrap_or(0);
    *pi += 1;
    let mut c = at(*pi);
    if c == b'^' {
        c = b'!';
    }
    let negated = c == b'!';
    if negated {
        *pi += 1;
        c = at(*pi);
    }
    let mut prev: u8 = 0;
    let mut matched = false;
    loop {
        if c == 0 {
            return None;
        }
        if c == b'\\' {
            *pi += 1;
            c = at(*pi);
            if c == 0 {
                return None;
            }
            matched |= t_ch == c;
        } else if c == b'-' && prev != 0 && at(*pi + 1) != 0 && at(*pi + 1) != b']' {
            *pi += 1;
            c = at(*pi);
            if c == b'\\' {
                *pi += 1;
                c = at(*pi);
                if c == 0 {
                    return None;
                }
            }
            if (prev..=c).contains(&t_ch)
                || (icase && t_ch.is_ascii_lowercase() && (prev..=c).contains(&t_ch.to_ascii_uppercase()))
            {
                matched = true;
            }
            c = 0;
        } else if c == b'[' && at(*pi + 1) == b':' {
            let start = *pi + 2;
            let mut end = start;
            while at(end) != 0 && at(end) != b']' {
                end += 1;
            }
            if at(end) == 0 {
                return None;
            }
            if end == start || p[end - 1] != b':' {
                // No `:]`: an ordinary `[` in the set.
                *pi = start - 2;
                c = b'[';
                matched |= t_ch == c;
            } else {
                matched |= class(&p[start..end - 1], t_ch, icase)?;
                *pi = end;
                c = 0;
            }
        } else {
            matched |= t_ch == c;
        }
        prev = c;
        *pi += 1;
        c = at(*pi);
        if c == b']' {
            break;
        }
    }
    Some(matched != negated)
}

/// A `[:name:]` class, ASCII only; an unknown name is malformed.
fn class(name: &[u8], c: u8, icase: bool) -> Option<bool> {
    Some(match name {
        b"alnum" => c.is_ascii_alphanumeric(),
        b"alpha" => c.is_ascii_alphabetic(),
        b"blank" => c == b' ' || c == b'\t',
        b"cntrl" => c.is_ascii_control(),
        b"digit" => c.is_ascii_digit(),
        b"graph" => c.is_ascii_graphic(),
        b"lower" => c.is_ascii_lowercase(),
        b"print" => c.is_ascii_graphic() || c == b' ',
        b"punct" => c.is_ascii_punctuation(),
        b"space" => c.is_ascii_whitespace() || c == 0x0b,
        b"upper" => c.is_ascii_uppercase() || (icase && c.is_ascii_lowercase()),
        b"xdigit" => c.is_ascii_hexdigit(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::matches;

    fn path(p: &str, t: &str) -> bool {
        matches(p.as_bytes(), t.as_bytes(), true, false)
    }

    #[test]
    fn stars_stay_within_a_directory_and_double_stars_span_them() {
        assert!(path("*.log", "a.log"));
        assert!(!path("*.log", "dir/a.log"));
        assert!(path("**/a.log", "a.log"));
        assert!(path("**/a.log", "x/y/a.log"));
        assert!(path("a/**/b", "a/b"));
        assert!(path("a/**/b", "a/x/y/b"));
        assert!(!path("a/**/b", "a/xb"));
        assert!(path("a/**", "a/x/y"));
        assert!(!path("a/**", "a"));
        assert!(path("a/*/c", "a/b/c"));
        assert!(!path("a/*/c", "a/b/x/c"));
        // `**` not between slashes is a plain star.
        assert!(path("a**b", "axxb"));
        assert!(!path("a**b", "ax/xb"));
        assert!(matches(b"a*b", b"ax/xb", false, false), "without pathname a star takes slashes");
    }

    #[test]
    fn sets_ranges_classes_and_escapes_are_gits() {
        assert!(path("[abc].txt", "b.txt"));
        assert!(!path("[!abc].txt", "b.txt"));
        assert!(path("[^abc].txt", "d.txt"));
        assert!(path("[a-c]x", "bx"));
        assert!(path("[]a]", "]"));
        assert!(path("[[:digit:]]*", "7up"));
        assert!(!path("[[:digit:]]*", "up"));
        assert!(path("[[:]", "["), "no `:]`: an ordinary bracket");
        assert!(!path("[[:nope:]]", "n"), "an unknown class matches nothing");
        assert!(path("\\*", "*"));
        assert!(!path("\\*", "x"));
        assert!(path("\\!keep", "!keep"));
        assert!(!path("[a-z]", "/"));
        assert!(!path("a[/]b", "a/b"), "a set never takes a slash in a path");
        assert!(!path("abc[", "abc["), "an unclosed set matches nothing");
        assert!(!path("x\\", "x\\"), "a trailing backslash matches nothing");
    }

    #[test]
    fn case_folding_is_ascii_and_spares_sets_as_gits_does() {
        assert!(matches(b"*.LOG", b"a.log", true, true));
        assert!(matches(b"[a-c]", b"B", true, true));
        assert!(!matches(b"[B]", b"b", true, true), "git folds the text, not a set's members");
        assert!(!matches(b"*.LOG", b"a.log", true, false));
    }
}
