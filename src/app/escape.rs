//! The one way untrusted text reaches the terminal: file names, fields read from files and
//! arguments are shown with control characters (an escape sequence that would retitle
//! the terminal or recolour it), bidirectional overrides and bytes that are not UTF-8
//! written as Rust escapes, so that what is printed is what is there.

use std::fmt;
use std::path::Path;

/// `text` with every control, format or otherwise invisible character escaped (`\e` as
/// `\u{1b}`, a tab as `\t`); letters of every script and spaces stay as they are.
pub fn escaped(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        push_char(&mut shown, c);
    }
    shown
}

fn push_char(shown: &mut String, c: char) {
    let invisible = c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || c == '\u{feff}';
    if c == '\\' {
        shown.push_str("\\\\");
    } else if invisible {
        shown.extend(c.escape_default());
    } else {
        shown.push(c);
    }
}

/// A path as [`escaped`] shows it; a byte that is not part of UTF-8 text as `\xNN`.
pub struct Shown<'a>(&'a Path);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = String::new();
        for chunk in self.0.as_os_str().as_encoded_bytes().utf8_chunks() {
            for c in chunk.valid().chars() {
                push_char(&mut shown, c);
            }
            for byte in chunk.invalid() {
                shown.push_str(&format!("\\x{byte:02x}"));
            }
        }
        f.write_str(&shown)
    }
}

/// `.shown()` where `.display()` would print a path raw.
pub trait ShowPath {
    /// The path, escaped for the terminal.
    fn shown(&self) -> Shown<'_>;
}

impl<P: AsRef<Path> + ?Sized> ShowPath for P {
    fn shown(&self) -> Shown<'_> {
        Shown(self.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn escapes_are_shown_not_obeyed() {
        assert_eq!(escaped("s5\u{1b}[31mred.json"), "s5\\u{1b}[31mred.json");
        assert_eq!(
            escaped("evil\u{1b}]0;PWNED\u{7}.json"),
            "evil\\u{1b}]0;PWNED\\u{7}.json"
        );
        assert_eq!(escaped("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(
            escaped("plain file, ünïcode.json"),
            "plain file, ünïcode.json"
        );
        assert_eq!(escaped("back\\slash"), "back\\\\slash");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_shown_as_bytes() {
        let path = Path::new(OsStr::from_bytes(b"shard-\xff\xfe.json"));
        assert_eq!(path.shown().to_string(), "shard-\\xff\\xfe.json");
        assert_eq!(Path::new("tab\there").shown().to_string(), "tab\\there");
    }
}
