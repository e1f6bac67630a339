//! Content kept in the working tree in another encoding than git stores
//! (`.gitattributes`: `*.txt text working-tree-encoding=UTF-16LE`).
//!
//! git converts such a file to UTF-8 on its way in (and back on checkout),
//! then applies the end-of-line conversion to the UTF-8 text; libgit2 has
//! no such conversion, so a file compared raw with its blob reads as
//! modified while `git status` lists nothing. Here the file is converted
//! as git converts it, for the encodings whose conversion is exact and
//! known (UTF-16 and UTF-32, either byte order, with git's rules for a
//! byte order mark); any other encoding is said, not guessed.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use git2::AttrValue;

use crate::index_file::{Entry, Paths};
use crate::{Reading, Repo, Unread};
use majordomus_records::RepoPath;

/// Whether any attributes file git reads could set `working-tree-encoding`:
/// one of them mentions it (the working tree's, a tracked one the working
/// tree lacks as the index holds it, `info/attributes`,
/// `core.attributesFile`, the user's). Read once the walk has found the
/// untracked ones, and only where some file needs its content compared.
pub(super) fn possible(
    repo: &Repo,
    config: &git2::Config,
    (entries, paths): (&[Entry], &Paths),
    untracked: &[RepoPath],
) -> bool {
    const NAME: &[u8] = b"working-tree-encoding";
    let mentions = |bytes: &[u8]| bytes.windows(NAME.len()).any(|w| w.eq_ignore_ascii_case(NAME));
    let on_disk = |path: &Path| crate::file::read(path).is_ok_and(|b| mentions(&b));
    let attributes = |p: &[u8]| p == b".gitattributes" || p.ends_with(b"/.gitattributes");
    let tracked = entries.iter().filter(|e| e.stage == 0 && attributes(e.path(paths))).any(|e| {
        let rel = RepoPath::from_bytes(e.path(paths));
        match crate::file::in_tree(repo.root(), &rel).and_then(|p| crate::file::read(&p).ok()) {
            Some(bytes) => mentions(&bytes),
            None => repo.git.find_blob(e.id).is_ok_and(|b| mentions(b.content())),
        }
    });
    let untracked = untracked
        .iter()
        .filter(|p| attributes(p.as_bytes()))
        .any(|p| crate::file::in_tree(repo.root(), p).is_some_and(|path| on_disk(&path)));
    let configured = config.get_path("core.attributesfile").ok().map(|p| expand_home(&p));
    tracked
        || untracked
        || on_disk(&repo.common_dir().join("info/attributes"))
        || configured.is_some_and(|p| on_disk(&p))
        || super::fast::global_attributes().is_some_and(|p| on_disk(&p))
}

/// `~/x` as git expands it in `core.attributesFile`.
fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// What the attributes say of one path's conversion into git.
pub(crate) struct Conversion {
    /// The `working-tree-encoding` named, where one is.
    pub encoding: Option<String>,
    /// The end-of-line conversion into git (`text`, `eol`, `core.autocrlf`).
    pub eol: Eol,
    /// `ident` set: `$Id$` is collapsed on the way in.
    pub ident: bool,
    /// Whether a checkout writes the text's line ends as CRLF (`convert.c`'s
    /// `output_eol`): `eol=crlf`, or text by `text`, `text=auto` or
    /// `core.autocrlf` where `core.autocrlf` is true or `core.eol` is crlf
    /// and neither says LF. On this platform that is never so otherwise.
    pub crlf_out: bool,
}

/// git's end-of-line action into the repository (`convert.c`'s
/// `crlf_action`, as it acts on the way in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Eol {
    /// Nothing converted (`-text`, or no setting and `core.autocrlf` false).
    None,
    /// `text` (or an `eol` setting): CRLF becomes LF.
    Text,
    /// `text=auto`, or `core.autocrlf` with no setting: CRLF becomes LF in
    /// content git takes for text whose staged blob holds no CR.
    Auto,
}

/// The conversion the attributes give `path`, looked up through `git`
/// (whose index holds the attributes files' entries), with `core.autocrlf`
/// and `core.eol` as configured.
pub(crate) fn conversion(
    git: &git2::Repository,
    path: &[u8],
    autocrlf: Option<&str>,
    core_eol: Option<&str>,
) -> Conversion {
    let path = Path::new(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(path));
    let flags = git2::AttrCheckFlags::FILE_THEN_INDEX;
    // Classified while libgit2's value is in hand: it tells set from unset
    // by the pointer it returns, which a copy would lose.
    let attr = |name: &str| match git.get_attr_bytes(path, name, flags).ok().flatten() {
        value @ Some(_) => match AttrValue::from_bytes(value) {
            AttrValue::True => Attr::Set,
            AttrValue::False => Attr::Unset,
            AttrValue::String(s) => Attr::Value(s.as_bytes().to_vec()),
            AttrValue::Bytes(b) => Attr::Value(b.to_vec()),
            AttrValue::Unspecified => Attr::Unspecified,
        },
        None => Attr::Unspecified,
    };
    let (text, eol, ident, encoding) = (attr("text"), attr("eol"), attr("ident"), attr("working-tree-encoding"));
    let (text, eol) = older_crlf(text, eol, || attr("crlf"));
    let autocrlf = autocrlf.map(str::to_ascii_lowercase);
    let autocrlf_true = matches!(autocrlf.as_deref(), Some("true" | "yes" | "on" | "1"));
    let text_eol_is_crlf = autocrlf_true
        || (autocrlf.as_deref() != Some("input") && core_eol.is_some_and(|e| e.eq_ignore_ascii_case("crlf")));
    let crlf_out = match (&text, &eol) {
        (Attr::Unset, _) => false,
        (_, Attr::Value(v)) if v == b"crlf" => true,
        (_, Attr::Value(v)) if v == b"lf" => false,
        (Attr::Set | Attr::Value(_), _) => text_eol_is_crlf,
        _ => autocrlf_true,
    };
    let eol = match text {
        Attr::Unset => Eol::None,
        Attr::Set => Eol::Text,
        Attr::Value(v) if v == b"auto" => Eol::Auto,
        _ if matches!(eol, Attr::Value(_)) => Eol::Text,
        _ => match autocrlf.as_deref() {
            Some("true" | "input" | "yes" | "on" | "1") => Eol::Auto,
            _ => Eol::None,
        },
    };
    let encoding = match encoding {
        Attr::Value(v) => Some(String::from_utf8_lossy(&v).into_owned()),
        _ => None,
    };
    Conversion { encoding, eol, ident: ident == Attr::Set, crlf_out }
}

/// `text` and `eol` as git reads them where `text` says nothing: from the
/// older `crlf` attribute (`convert.c`'s `convert_attrs`): `crlf` is
/// `text`, `-crlf` is `-text` (binary: no `eol` applies), `crlf=auto` is
/// `text=auto`, and `crlf=input` is `text` written LF on checkout unless
/// `eol=crlf` says otherwise; any other value is no setting.
fn older_crlf(text: Attr, eol: Attr, crlf: impl FnOnce() -> Attr) -> (Attr, Attr) {
    if text != Attr::Unspecified {
        return (text, eol);
    }
    match crlf() {
        Attr::Set => (Attr::Set, eol),
        Attr::Unset => (Attr::Unset, eol),
        Attr::Value(v) if v == b"auto" => (Attr::Value(v), eol),
        Attr::Value(v) if v == b"input" => match eol {
            Attr::Value(e) if e == b"crlf" => (Attr::Set, Attr::Value(e)),
            _ => (Attr::Set, Attr::Value(b"lf".to_vec())),
        },
        _ => (Attr::Unspecified, eol),
    }
}

/// An attribute's state for one path.
#[derive(Debug, PartialEq, Eq)]
enum Attr {
    Set,
    Unset,
    Value(Vec<u8>),
    Unspecified,
}

/// The blob git would store for `bytes`, a file kept in `encoding`: the
/// text decoded to UTF-8 (a byte order mark taken off), then its line ends
/// converted as `eol` says (`staged_has_cr`: whether the index's blob holds
/// a CR, which stops `text=auto` from converting). Refused, with the
/// reason, for an encoding this does not convert and for content git
/// itself would refuse to take.
pub(super) fn to_git(
    bytes: &[u8],
    encoding: &str,
    eol: Eol,
    staged_has_cr: impl FnOnce() -> bool,
) -> Result<Vec<u8>, String> {
    let text = decode(bytes, encoding)?;
    Ok(match eol {
        Eol::None => text.into_bytes(),
        Eol::Auto if binary(text.as_bytes()) || staged_has_cr() => text.into_bytes(),
        Eol::Text | Eol::Auto => crlf_to_lf(text.as_bytes()).into_owned(),
    })
}

/// `bytes` decoded from `encoding` as git decodes it (through iconv, with
/// its own rules for a byte order mark: required by `UTF-16` and `UTF-32`,
/// which it tells the byte order; refused by the names that carry one;
/// taken off by the `-BOM` names).
pub(crate) fn decode(bytes: &[u8], encoding: &str) -> Result<String, String> {
    let name = encoding.to_ascii_uppercase().replace('_', "-");
    let (width, order, bom) = match name.as_str() {
        "UTF-16LE" | "UTF16LE" => (2, Some(Order::Little), Bom::Refused),
        "UTF-16BE" | "UTF16BE" => (2, Some(Order::Big), Bom::Refused),
        "UTF-16LE-BOM" => (2, Some(Order::Little), Bom::Allowed),
        "UTF-16BE-BOM" => (2, Some(Order::Big), Bom::Allowed),
        "UTF-16" | "UTF16" => (2, None, Bom::Required),
        "UTF-32LE" | "UTF32LE" => (4, Some(Order::Little), Bom::Refused),
        "UTF-32BE" | "UTF32BE" => (4, Some(Order::Big), Bom::Refused),
        "UTF-32" | "UTF32" => (4, None, Bom::Required),
        "UTF-8" | "UTF8" => {
            return String::from_utf8(bytes.to_vec()).map_err(|_| format!("it is not valid {encoding}"));
        }
        _ => return Err(format!("majordomus does not convert from {encoding} as git does (UTF-16 and UTF-32 only)")),
    };
    let found = bom_of(bytes, width);
    let order = match (bom, found, order) {
        (Bom::Refused, Some(_), _) => {
            return Err(format!("git refuses a byte order mark in a file kept as {encoding}"))
        }
        (Bom::Required, None, _) => return Err(format!("git requires a byte order mark in a file kept as {encoding}")),
        (_, Some(o), None) => o,
        (_, _, Some(o)) => o,
        (_, None, None) => unreachable!("a byte order mark is required where the name gives no order"),
    };
    let body = if found.is_some() { &bytes[width..] } else { bytes };
    if body.len() % width != 0 {
        return Err(format!("its length is no whole number of {encoding} units"));
    }
    let invalid = || format!("it is not valid {encoding}");
    if width == 2 {
        let units = body.chunks_exact(2).map(|c| match order {
            Order::Little => u16::from_le_bytes([c[0], c[1]]),
            Order::Big => u16::from_be_bytes([c[0], c[1]]),
        });
        char::decode_utf16(units).collect::<Result<String, _>>().map_err(|_| invalid())
    } else {
        body.chunks_exact(4)
            .map(|c| {
                let unit = match order {
                    Order::Little => u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                    Order::Big => u32::from_be_bytes([c[0], c[1], c[2], c[3]]),
                };
                char::from_u32(unit).ok_or_else(invalid)
            })
            .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Little,
    Big,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bom {
    Refused,
    Required,
    Allowed,
}

/// The byte order a byte order mark at the start of `bytes` says.
fn bom_of(bytes: &[u8], width: usize) -> Option<Order> {
    match (width, bytes) {
        (2, [0xff, 0xfe, ..]) => Some(Order::Little),
        (2, [0xfe, 0xff, ..]) => Some(Order::Big),
        (4, [0xff, 0xfe, 0, 0, ..]) => Some(Order::Little),
        (4, [0, 0, 0xfe, 0xff, ..]) => Some(Order::Big),
        _ => None,
    }
}

/// Whether git's `text=auto` takes `bytes` for binary (`convert.c`'s
/// `convert_is_binary`): a NUL, a CR not before an LF, or more than one
/// non-printable byte in 128.
pub(crate) fn binary(bytes: &[u8]) -> bool {
    let (mut printable, mut nonprintable) = (0usize, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            0 => return true,
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => return true,
            b'\r' | b'\n' => {}
            127 => nonprintable += 1,
            b'\x08' | b'\t' | b'\x1b' | b'\x0c' => printable += 1,
            b if b < 32 => nonprintable += 1,
            _ => printable += 1,
        }
    }
    (printable >> 7) < nonprintable
}

/// Every CRLF made LF (a CR alone kept), as git's conversion into the
/// repository does.
fn crlf_to_lf(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.windows(2).any(|w| w == b"\r\n") {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        out.push(b);
    }
    Cow::Owned(out)
}

/// The working-tree file of `e` against its blob through `conversion`:
/// clean where git's conversion of it is the blob.
pub(super) fn compare(
    repo: &Repo,
    git: &git2::Repository,
    e: &Entry,
    path: &[u8],
    conversion: &Conversion,
    encoding: &str,
) -> Reading<super::stat::Found> {
    use super::stat::Found;
    let shown = String::from_utf8_lossy(path);
    if conversion.ident {
        return Err(Unread::repository(format!(
            "{shown} is kept as {encoding} with the ident attribute, a conversion majordomus does not make as git does"
        )));
    }
    let file = repo.root().join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(path));
    let bytes = match crate::file::read(&file) {
        Ok(bytes) => bytes,
        Err(err) if err.is_not_found() => return Ok(Found::Deleted),
        Err(err) => return Err(Unread::io(format!("could not read {shown}: {err}"))),
    };
    let staged_has_cr = || git.find_blob(e.id).is_ok_and(|b| b.content().contains(&b'\r'));
    let blob = to_git(&bytes, encoding, conversion.eol, staged_has_cr).map_err(|why| {
        Unread::repository(format!("{shown} is kept as {encoding} (working-tree-encoding), and {why}"))
    })?;
    let id = git2::Oid::hash_object(git2::ObjectType::Blob, &blob).map_err(|err| Unread::git("a blob id", &err))?;
    Ok(if id == e.id { Found::Clean } else { Found::Modified })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(text: &str) -> Vec<u8> {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    #[test]
    fn utf16_and_utf32_decode_as_git_decodes_them() {
        let le = utf16le("h\u{e9}llo\r\n");
        assert_eq!(to_git(&le, "UTF-16LE", Eol::None, || false).expect("converted"), "h\u{e9}llo\r\n".as_bytes());
        assert_eq!(to_git(&le, "utf-16le", Eol::Text, || false).expect("converted"), "h\u{e9}llo\n".as_bytes());
        let be: Vec<u8> = "hi\n".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(to_git(&be, "UTF-16BE", Eol::None, || false).expect("converted"), b"hi\n");
        let with_bom = [&[0xff, 0xfe][..], &le].concat();
        assert_eq!(to_git(&with_bom, "UTF-16", Eol::Text, || false).expect("converted"), "h\u{e9}llo\n".as_bytes());
        assert_eq!(
            to_git(&with_bom, "UTF-16LE-BOM", Eol::None, || false).expect("converted"),
            "h\u{e9}llo\r\n".as_bytes()
        );
        let le32: Vec<u8> = "a\n".chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
        assert_eq!(to_git(&le32, "UTF-32LE", Eol::None, || false).expect("converted"), b"a\n");
    }

    #[test]
    fn what_git_refuses_or_this_does_not_convert_is_said() {
        let le = utf16le("hi\n");
        assert!(to_git(&le, "UTF-16", Eol::None, || false)
            .expect_err("refused")
            .contains("requires a byte order mark"));
        let with_bom = [&[0xff, 0xfe][..], &le].concat();
        assert!(to_git(&with_bom, "UTF-16LE", Eol::None, || false).expect_err("refused").contains("refuses"));
        assert!(to_git(&le[..3], "UTF-16LE", Eol::None, || false).is_err());
        assert!(to_git(b"hi", "SHIFT-JIS", Eol::None, || false).expect_err("refused").contains("does not convert"));
    }

    #[test]
    fn the_older_crlf_attribute_reads_as_git_reads_it_where_text_says_nothing() {
        let value = |v: &str| Attr::Value(v.as_bytes().to_vec());
        let read = |text, eol, crlf| older_crlf(text, eol, || crlf);
        assert_eq!(read(Attr::Unspecified, Attr::Unspecified, Attr::Set), (Attr::Set, Attr::Unspecified));
        assert_eq!(read(Attr::Unspecified, value("crlf"), Attr::Unset), (Attr::Unset, value("crlf")));
        assert_eq!(read(Attr::Unspecified, Attr::Unspecified, value("auto")), (value("auto"), Attr::Unspecified));
        assert_eq!(read(Attr::Unspecified, Attr::Unspecified, value("input")), (Attr::Set, value("lf")));
        assert_eq!(read(Attr::Unspecified, value("crlf"), value("input")), (Attr::Set, value("crlf")));
        assert_eq!(read(Attr::Unspecified, Attr::Unspecified, value("other")), (Attr::Unspecified, Attr::Unspecified));
        // `text` said, `crlf` is not read.
        assert_eq!(read(Attr::Unset, Attr::Unspecified, Attr::Set), (Attr::Unset, Attr::Unspecified));
        assert_eq!(read(Attr::Set, Attr::Unspecified, Attr::Unset), (Attr::Set, Attr::Unspecified));
    }

    #[test]
    fn text_auto_leaves_binary_content_and_a_staged_cr_alone() {
        let le = utf16le("a\r\nb\r\n");
        assert_eq!(to_git(&le, "UTF-16LE", Eol::Auto, || false).expect("converted"), b"a\nb\n");
        assert_eq!(to_git(&le, "UTF-16LE", Eol::Auto, || true).expect("converted"), b"a\r\nb\r\n");
        let lone = utf16le("a\rb\n");
        assert_eq!(to_git(&lone, "UTF-16LE", Eol::Auto, || false).expect("converted"), b"a\rb\n");
        assert_eq!(to_git(&lone, "UTF-16LE", Eol::Text, || false).expect("converted"), b"a\rb\n");
    }
}
