//! Words in messages: counts with the right plural, values cut short.

/// `count` and the noun, singular for exactly one: "1 step", "2 steps", "135,207,800
/// sub-problems".
pub fn plural(count: impl Into<u128>, noun: &str) -> String {
    let count = count.into();
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(count))
    }
}

/// A value quoted in a message, cut short if it is long (a 10 MB token is not echoed),
/// with control characters escaped (`\u{1b}`, `\u{0}`): text from a file or an argument
/// must not drive the terminal it is shown on.
pub fn shorten(text: &str) -> String {
    const KEEP: usize = 40;
    let mut shown = String::new();
    for c in text.chars().take(KEEP) {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    if text.chars().nth(KEEP).is_some() {
        shown += &format!("... ({} bytes)", text.len());
    }
    shown
}

/// The first `keep` items joined by ", ", then ", ..." if there are more: a list in a
/// message that cannot grow without bound.
pub fn first_of<T: std::fmt::Display>(items: &[T], keep: usize) -> String {
    let mut words: Vec<String> = items.iter().take(keep).map(T::to_string).collect();
    if items.len() > keep {
        words.push("...".into());
    }
    words.join(", ")
}

/// Bytes in MB or GB, for messages: "64 MB", "12 GB".
pub fn human_bytes(bytes: u64) -> String {
    if bytes >= 10_000_000_000 {
        format!("{:.0} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.0} MB", (bytes as f64 / 1e6).ceil())
    }
}

/// Seconds in the unit a person would use: "42 s", "17 min", "3.2 h", "41 days", "6.1 years".
pub fn duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "h"),
        (60.0, "min"),
    ];
    for (size, unit) in UNITS {
        if seconds >= 2.0 * size {
            let value = seconds / size;
            return if value >= 100.0 {
                format!("{} {unit}", thousands(value.round() as u64))
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    format!("{seconds:.2} s")
}

/// Core-hours to about three significant figures (whole ones from 100 up): "3.42",
/// "48.1", "25,311"; "under 0.01" rather than a figure that reads as nothing.
pub fn core_hours(hours: f64) -> String {
    match hours {
        h if h >= 100.0 => thousands(h.round() as u64),
        h if h >= 10.0 => format!("{h:.1}"),
        h if h >= 0.01 => format!("{h:.2}"),
        _ => "under 0.01".to_string(),
    }
}

/// 100000000 as "100,000,000" (numbers below 10,000 as they are).
pub fn thousands(n: impl Into<u128>) -> String {
    let n = n.into();
    let digits = n.to_string();
    if n < 10_000 {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_short_values() {
        assert_eq!(plural(1u32, "step"), "1 step");
        assert_eq!(plural(0u32, "step"), "0 steps");
        assert_eq!(plural(2u64, "sub-problem"), "2 sub-problems");
        assert_eq!(plural(1024u64, "shard"), "1024 shards");
        assert_eq!(
            plural(135_207_800u64, "sub-problem"),
            "135,207,800 sub-problems"
        );
        assert_eq!(shorten("abc"), "abc");
        let long = shorten(&"x".repeat(1000));
        assert!(long.len() < 70 && long.ends_with("(1000 bytes)"), "{long}");
        assert_eq!(duration(42.0), "42.00 s");
        assert_eq!(duration(7200.0), "2.0 h");
        assert_eq!(duration(3.0 * 365.25 * 86400.0), "3.0 years");
        assert_eq!(core_hours(25_311.4), "25,311");
        assert_eq!(core_hours(311.4), "311");
        assert_eq!(duration(51_172.3 * 365.25 * 86400.0), "51,172 years");
        assert_eq!(thousands(0u32), "0");
        assert_eq!(thousands(1024u32), "1024");
        assert_eq!(thousands(50_000_000u32), "50,000,000");
        assert_eq!(thousands(100_000_000u64), "100,000,000");
        assert_eq!(core_hours(48.14), "48.1");
        assert_eq!(core_hours(0.023), "0.02");
        assert_eq!(core_hours(0.0003), "under 0.01");
    }
}
