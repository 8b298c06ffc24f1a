//! Short strings (fixstr) are read on a fast path that tells ASCII eight bytes at a time and
//! leaves anything else to `std::str::from_utf8`: it accepts exactly the UTF-8 strings, at
//! every length and with a non-ASCII byte at every position.

use tuplet::wire::Reader;
use tuplet::Code;

fn read(body: &[u8]) -> Result<String, Code> {
    let mut input = vec![0xa0 | body.len() as u8];
    input.extend_from_slice(body);
    let mut r = Reader::new(&input);
    let s = r.read_str(0, 31).map_err(|e| e.code())?;
    assert_eq!(r.remaining(), 0);
    Ok(s.to_owned())
}

#[test]
fn fixstr_fast_path_accepts_exactly_utf8() {
    for len in 0..=31usize {
        let ascii: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        assert_eq!(read(&ascii).unwrap().as_bytes(), &ascii[..]);
        for at in 0..len {
            // A lone continuation byte, a lone lead byte, 0xff: never UTF-8.
            for bad in [0x80u8, 0xc3, 0xff] {
                let mut body = ascii.clone();
                body[at] = bad;
                assert_eq!(read(&body), Err(Code::InvalidUtf8), "{body:?}");
            }
            // A two-byte character ending at `at` (or starting at 0): valid UTF-8.
            if at >= 1 {
                let mut body = ascii.clone();
                body[at - 1..=at].copy_from_slice("é".as_bytes());
                let want = String::from_utf8(body.clone()).unwrap();
                assert_eq!(read(&body).unwrap(), want);
            }
        }
    }
    assert_eq!(read("ñandú wörld".as_bytes()).unwrap(), "ñandú wörld");
}
