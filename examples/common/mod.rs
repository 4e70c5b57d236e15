//! Shared by the examples: read a capture, plain or gzipped JSON.
use std::io::Read;

pub fn read_capture(path: &str) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    if path.ends_with(".gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut s).expect("gzip");
        s
    } else {
        String::from_utf8(bytes).expect("utf-8")
    }
}
