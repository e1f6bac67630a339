use std::cell::RefCell;

use super::*;

/// A file on a disk with `room` bytes left: a write past it goes in part,
/// then fails as a full disk does.
struct Disk {
    bytes: RefCell<Vec<u8>>,
    room: usize,
}

impl Disk {
    fn holding(text: &str, room: usize) -> Self {
        Self { bytes: RefCell::new(text.as_bytes().to_vec()), room }
    }

    fn text(&self) -> String {
        String::from_utf8(self.bytes.borrow().clone()).expect("utf8")
    }
}

impl Write for Disk {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let used = self.bytes.borrow().len();
        let free = self.room.saturating_sub(used);
        if free == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "No space left on device"));
        }
        let n = free.min(buf.len());
        self.bytes.borrow_mut().extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Appendable for Disk {
    fn size(&self) -> io::Result<u64> {
        Ok(self.bytes.borrow().len() as u64)
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let bytes = self.bytes.borrow();
        let from = &bytes[offset as usize..];
        let n = from.len().min(buf.len());
        buf[..n].copy_from_slice(&from[..n]);
        Ok(n)
    }

    fn truncate(&self, len: u64) -> io::Result<()> {
        self.bytes.borrow_mut().truncate(len as usize);
        Ok(())
    }
}

fn is_json(b: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(b).is_ok()
}

#[test]
fn a_line_that_does_not_fit_on_a_full_disk_leaves_the_file_as_it_was() {
    let before = "{\"n\":1}\n";
    let mut disk = Disk::holding(before, before.len() + 5);
    let err = append_whole(&mut disk, b"{\"n\":2,\"text\":\"longer than the room\"}\n", is_json).expect_err("full");
    assert_eq!(err.kind(), io::ErrorKind::StorageFull);
    assert_eq!(disk.text(), before, "a partial line was left behind");
    disk.room = 1 << 20;
    append_whole(&mut disk, b"{\"n\":2}\n", is_json).expect("room again");
    assert_eq!(disk.text(), "{\"n\":1}\n{\"n\":2}\n");
}

#[test]
fn a_torn_tail_is_cut_away_and_a_whole_value_without_its_newline_is_kept() {
    let mut torn = Disk::holding("{\"n\":1}\n{\"n\":2,\"te", 1 << 20);
    append_whole(&mut torn, b"{\"n\":3}\n", is_json).expect("append");
    assert_eq!(torn.text(), "{\"n\":1}\n{\"n\":3}\n");
    let mut unended = Disk::holding("{\"n\":1}\n{\"n\":2}", 1 << 20);
    append_whole(&mut unended, b"{\"n\":3}\n", is_json).expect("append");
    assert_eq!(unended.text(), "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n");
    let long = format!("{{\"n\":1,\"x\":\"{}", "y".repeat(30_000));
    let mut only_tail = Disk::holding(&long, 1 << 20);
    append_whole(&mut only_tail, b"{\"n\":3}\n", is_json).expect("append");
    assert_eq!(only_tail.text(), "{\"n\":3}\n", "a torn tail longer than one read chunk, at the file's start");
}

#[test]
fn whole_lines_and_the_tail_are_split_apart_with_their_numbers() {
    let s = split(b"a\n\nb\nc");
    assert_eq!(s.whole, vec![(1, &b"a"[..]), (2, &b""[..]), (3, &b"b"[..])]);
    assert_eq!(s.tail, Some((4, &b"c"[..])));
    assert_eq!(split(b"a\n").tail, None);
    assert_eq!(split(b""), Split { whole: vec![], tail: None });
}

#[test]
fn appends_through_a_real_file_from_many_threads_each_land_whole() {
    let base = tempfile::tempdir().expect("tempdir");
    let dir = crate::confined::open_dir(base.path(), std::path::Path::new("s"), true).expect("dir");
    std::fs::write(base.path().join("s/l.jsonl"), "{\"torn\":").expect("seed a torn tail");
    std::thread::scope(|s| {
        for t in 0..6 {
            let dir = &dir;
            s.spawn(move || {
                for i in 0..40 {
                    let line = format!("{{\"t\":{t},\"i\":{i},\"pad\":\"{}\"}}\n", "x".repeat(300));
                    append_locked(dir, "l.jsonl", line.as_bytes(), is_json).expect("append");
                }
            });
        }
    });
    let bytes = std::fs::read(base.path().join("s/l.jsonl")).expect("read");
    let parts = split(&bytes);
    assert_eq!(parts.tail, None);
    assert_eq!(parts.whole.len(), 240);
    assert!(parts.whole.iter().all(|(_, l)| is_json(l)));
}
