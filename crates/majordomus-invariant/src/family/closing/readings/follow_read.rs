//! Reading a file a baseline gone since the start may have gone to
//! ([`super::follow`]): whole where it is small, a piece at a time where it
//! is not, so that a file grown past a limit with lines that are no entries
//! is still read, in bounded memory, and one that cannot be read says so
//! rather than let the baseline read as paid off (test/cases/502).

use std::collections::HashSet;
use std::io::Read;

use majordomus_readings::baselines::{self, Baselines, Entry};
use majordomus_readings::file::{self, FileError, MAX_WHOLE};
use majordomus_readings::{Reading, Repo, Unread};

/// How much of a large file is read at a time.
const PIECE: usize = 1 << 20;

/// A byte-order mark, which [`baselines::entries`] takes off the start of
/// what it is given: a piece that begins with one mid-file keeps it.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// The entries of the file at `rel` read as a baseline, `None` where no
/// regular file is there (through a link: as [`baselines::read_file`]).
/// One of at most `whole` bytes is read whole; a larger one a piece at a
/// time up to [`MAX_WHOLE`], keeping its entries while they come to at most
/// `whole` bytes ([`streamed`]). A file past the one limit is not read, and
/// one past the other that holds any of the `gone` baselines' entries is
/// not followed; the reading says so, for some of a gone baseline may have
/// gone there (test/cases/526).
pub fn entries(repo: &Repo, rel: &str, whole: u64, gone: &Baselines) -> Reading<Option<Vec<Entry>>> {
    let full = repo.root().join(rel);
    let Ok(meta) = std::fs::metadata(&full) else { return Ok(None) };
    if !meta.is_file() {
        return Ok(None);
    }
    let is_link = std::fs::symlink_metadata(&full).is_ok_and(|m| m.file_type().is_symlink());
    // A link is read as the baselines' walk reads one (inside the working
    // tree only), whole.
    if meta.len() <= whole || is_link {
        return baselines::read_file(repo, rel);
    }
    streamed(&full, rel, whole, gone)
}

/// The reason a file that could hold a gone baseline's entries was not
/// read, and the way out.
fn unread(rel: &str, why: &str) -> Unread {
    Unread::repository(format!(
        "{rel} {why}, so whether a baseline gone since the start was moved into it was not read; \
         keep the baseline, emptied, rather than delete it"
    ))
}

/// The entries of the large regular file at `full`, read a piece at a time
/// and cut at line ends, keeping only its entries, at most `kept` bytes of
/// them. Past that (a data set's rows, a line longer than `kept`), the rest
/// is only compared with the `gone` baselines' entries: where it holds any,
/// some of one may have gone there and it is not read (an error, saying
/// why); where it holds none, it is none of them (`None`).
fn streamed(full: &std::path::Path, rel: &str, kept: u64, gone: &Baselines) -> Reading<Option<Vec<Entry>>> {
    let io = |e: FileError| Unread::io(e.to_string());
    let (file, size) = file::open(full).map_err(io)?;
    if size > MAX_WHOLE {
        return Err(unread(rel, &format!("is {size} bytes, more than {MAX_WHOLE}")));
    }
    let wanted: HashSet<&[u8]> = gone.values().flatten().map(Vec::as_slice).collect();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut file = file.take(MAX_WHOLE + 1);
    let (mut out, mut held, mut read) = (Vec::new(), 0u64, 0u64);
    let (mut buf, mut first, mut overflowed, mut skipping) = (Vec::new(), true, false, false);
    loop {
        let from = buf.len();
        buf.resize(from + PIECE, 0);
        let n = file.read(&mut buf[from..]).map_err(|e| Unread::io(format!("could not read {rel}: {e}")))?;
        buf.truncate(from + n);
        read += n as u64;
        if read > MAX_WHOLE {
            return Err(unread(rel, &format!("grew past {MAX_WHOLE} bytes while it was read")));
        }
        let done = n == 0;
        // The rest of a line longer than `kept`, which is no entry kept and
        // none a baseline read whole could hold beside it: passed over.
        if skipping {
            match buf.iter().position(|b| *b == b'\n') {
                Some(i) => {
                    buf.drain(..=i);
                    skipping = false;
                }
                None => buf.clear(),
            }
        }
        let cut = match buf.iter().rposition(|b| *b == b'\n') {
            _ if done => buf.len(),
            Some(i) => i + 1,
            None if buf.len() as u64 > kept => {
                (overflowed, skipping) = (true, true);
                buf.clear();
                continue;
            }
            None => continue,
        };
        let piece = &buf[..cut];
        let got = if !first && piece.starts_with(BOM) {
            // A blank line first, so that the mark stays on its line.
            baselines::entries(&[b"\n", piece].concat())
        } else {
            baselines::entries(piece)
        };
        first = false;
        for e in got {
            if wanted.contains(e.as_slice()) {
                seen.insert(e.clone());
            }
            held += e.len() as u64;
            overflowed |= held > kept;
            if !overflowed {
                out.push(e);
            }
        }
        if overflowed {
            out = Vec::new();
        }
        buf.drain(..cut);
        if done {
            break;
        }
    }
    if !overflowed {
        return Ok(Some(out));
    }
    if !seen.is_empty() {
        return Err(unread(rel, &format!("holds more than {kept} bytes of entries, among them a gone baseline's")));
    }
    Ok(None)
}

/// The entries of the blob the start commit's tree holds at `rel`: none for
/// a link (its blob is a name) or what is no blob; one larger than
/// [`MAX_WHOLE`] is not read, and the reading says so.
pub fn blob_entries(repo: &Repo, at_start: &git2::TreeEntry<'_>, rel: &str) -> Reading<Vec<Entry>> {
    if at_start.kind() != Some(git2::ObjectType::Blob) || at_start.filemode() == 0o120000 {
        return Ok(Vec::new());
    }
    let what = format!("{rel} at the start commit");
    let odb = repo.git.odb().map_err(|e| Unread::git(&what, &e))?;
    let (size, _) = odb.read_header(at_start.id()).map_err(|e| Unread::git(&what, &e))?;
    if size as u64 > MAX_WHOLE {
        return Err(unread(rel, &format!("was {size} bytes at the start commit, more than {MAX_WHOLE}")));
    }
    let blob = repo.git.find_blob(at_start.id()).map_err(|e| Unread::git(&what, &e))?;
    Ok(baselines::entries(blob.content()))
}
