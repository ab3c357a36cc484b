//! Bytes written as hex digits: how game ids, seat tokens, seat hashes and the cluster's seat
//! key are written down (in the store, in Redis, in links), in one place.

/// `bytes` as lowercase hex digits, two a byte.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(2 * bytes.len());
    for b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    text
}

/// The `N` bytes that `text` writes as `2 * N` hex digits (of either case); `None` for text of
/// another length or with anything but hex digits in it.
pub fn decode<const N: usize>(text: &str) -> Option<[u8; N]> {
    let digits = text.as_bytes();
    if digits.len() != 2 * N {
        return None;
    }
    let mut bytes = [0u8; N];
    for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
        *byte = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(bytes)
}

fn digit(c: u8) -> Option<u8> {
    char::from(c).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_back() {
        let bytes: Vec<u8> = (0..=255).collect();
        let text = encode(&bytes);
        assert_eq!(&text[..8], "00010203");
        assert_eq!(&text[text.len() - 4..], "feff");
        let read: [u8; 256] = decode(&text).unwrap();
        assert_eq!(read.as_slice(), bytes.as_slice());
        assert_eq!(decode::<2>("ABcd"), Some([0xab, 0xcd]), "either case reads");
    }

    #[test]
    fn only_hex_digits_of_the_length_read() {
        for bad in ["", "abc", "abcdef", "ab c", "+abc", "abcg", "ab\u{e9}"] {
            assert_eq!(decode::<2>(bad), None, "{bad:?}");
        }
    }
}
