//! Numbers and board sizes given on the command line: one parser for every subcommand, so
//! every bad value gets the same kind of message, naming the value (cut short if long)
//! and the allowed range, written "1 to 32".

use crate::app::system::available_cpus;
use nqueens::MAX_N;
use nqueens::schedule::MAX_THREADS;
use nqueens::words::{shorten, thousands};
use std::time::Duration;

/// Largest board `find` and `check` take.
pub const MAX_FIND_N: u64 = 100_000_000;

/// An inclusive, non-empty range of supported board sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardRange {
    pub first: usize,
    pub last: usize,
}

impl BoardRange {
    /// Parses `N` or `A..B`, naming what is wrong and the allowed range on failure.
    pub fn parse(text: &str) -> Result<BoardRange, String> {
        let (first, last) = match text.split_once("..") {
            Some((a, b)) if a.trim().is_empty() || b.trim().is_empty() => {
                let missing = if a.trim().is_empty() { "first" } else { "last" };
                return Err(format!(
                    "the range '{}' has no {missing} board size: write A..B with A <= B (both \
                     1 to {MAX_N})",
                    shorten(text)
                ));
            }
            Some((a, b)) => (board_size(a)?, board_size(b)?),
            None => {
                let n = board_size(text)?;
                (n, n)
            }
        };
        if first > last {
            return Err(format!(
                "the range {first}..{last} is empty: write A..B with A <= B (both 1 to {MAX_N})"
            ));
        }
        Ok(BoardRange { first, last })
    }

    /// The board sizes, in increasing order.
    pub fn sizes(&self) -> impl Iterator<Item = usize> {
        self.first..=self.last
    }
}

/// One board size for the counting commands: 1 to 32.
pub fn board_size(text: &str) -> Result<usize, String> {
    one_board(text, MAX_N as u64)
}

/// One board size for `find` and `check`: 1 to 100,000,000.
pub fn large_board_size(text: &str) -> Result<usize, String> {
    one_board(text, MAX_FIND_N)
}

fn one_board(text: &str, max: u64) -> Result<usize, String> {
    let text = text.trim();
    if text.contains("..") {
        return Err(format!(
            "'{}' is a range, but this takes one board size: N must be 1 to {}",
            shorten(text),
            thousands(max)
        ));
    }
    whole(text, "board size", 1, max)
        .map(|n| n as usize)
        .map_err(|e| e.replace("it must be", "N must be"))
}

/// Worker threads per CPU a command accepts. Measured on 2 CPUs: `count 8` with 256
/// threads takes 0.05-0.07 s, with 384 0.15-0.46 s, with 512 0.5-0.9 s and with 1,024
/// 1-4 s (rayon's idle workers yield to one another), so past this many threads per CPU
/// a small count takes seconds for nothing.
pub const THREADS_PER_CPU: usize = 128;

/// The most worker threads accepted here: [`THREADS_PER_CPU`] per CPU this process may
/// use, and at most the scheduler's bound.
pub fn max_threads() -> usize {
    (THREADS_PER_CPU * available_cpus()).min(MAX_THREADS)
}

/// A worker thread count: 1 to [`max_threads`].
pub fn threads(text: &str) -> Result<usize, String> {
    let max = max_threads();
    whole(text, "thread count", 1, max as u64)
        .map(|t| t as usize)
        .map_err(|e| {
            if max < MAX_THREADS && e.contains("out of range") {
                format!(
                    "{e} ({THREADS_PER_CPU} per CPU, and this process may use {})",
                    available_cpus()
                )
            } else {
                e
            }
        })
}

/// A split depth: 0 to the engine's maximum.
pub fn split_depth(text: &str) -> Result<usize, String> {
    whole(
        text,
        "split depth",
        0,
        nqueens::methods::MAX_SPLIT_DEPTH as u64,
    )
    .map(|d| d as usize)
}

/// A count of at least 1 (solutions, steps).
pub fn positive(text: &str) -> Result<u64, String> {
    whole(text, "count", 1, u64::MAX)
}

/// Timed runs of a benchmark: 1 to 1000.
pub fn runs(text: &str) -> Result<u32, String> {
    whole(text, "run count", 1, 1000).map(|r| r as u32)
}

/// Warm-up runs of a benchmark: 0 to 100.
pub fn warmups(text: &str) -> Result<u32, String> {
    whole(text, "warm-up count", 0, 100).map(|r| r as u32)
}

/// A random seed: any whole number from 0 to 2^64 - 1.
pub fn seed(text: &str) -> Result<u64, String> {
    whole(text, "seed", 0, u64::MAX)
}

/// A share in percent, as `1%` or `1`: more than 0, at most 100.
pub fn percent(text: &str) -> Result<f64, String> {
    let text = text.trim();
    let number = text.strip_suffix('%').unwrap_or(text);
    real_shown(number, text, "share", 100.0, "percent")
}

/// A time budget in seconds: more than 0, at most a day.
pub fn budget_seconds(text: &str) -> Result<f64, String> {
    real(text, "budget", 86_400.0, "seconds")
}

/// Steps per second for `trace`: more than 0, at most 1,000,000.
pub fn speed(text: &str) -> Result<f64, String> {
    real(text, "speed", 1e6, "steps per second")
}

/// The longest interval between checkpoints: a year.
const MOST_INTERVAL: Duration = Duration::from_secs(365 * 24 * 3600);

/// How often to write a checkpoint: more than 0 and at most a year, e.g. `60s`, `5m`,
/// `500ms`.
pub fn interval(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let out_of_range = || {
        format!(
            "interval {} is out of range: it must be more than 0 and at most a year \
             (365 days), e.g. 60s",
            shorten(text)
        )
    };
    let every = humantime::parse_duration(text).map_err(|e| match e {
        humantime::DurationError::NumberOverflow => out_of_range(),
        _ => format!(
            "'{}' is not a duration: write a number with a unit, e.g. 60s, 5m or 500ms",
            shorten(text)
        ),
    })?;
    if every.is_zero() || every > MOST_INTERVAL {
        return Err(out_of_range());
    }
    Ok(every)
}

/// A whole number in `min..=max`, or a message naming `what`, the value and the range.
fn whole(text: &str, what: &str, min: u64, max: u64) -> Result<u64, String> {
    let text = text.trim();
    let allowed = allowed(min, max);
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{}' is not a {what}: it must be a whole number, {allowed}",
            shorten(text)
        ));
    }
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{what} {} is out of range: it must be {allowed}",
            shorten(text)
        )),
    }
}

/// A finite number more than 0 and at most `max`.
fn real(text: &str, what: &str, max: f64, unit: &str) -> Result<f64, String> {
    let text = text.trim();
    real_shown(text, text, what, max, unit)
}

/// [`real`] of `text`, a message quoting `shown` (the argument as given, `text` with its
/// unit).
fn real_shown(text: &str, shown: &str, what: &str, max: f64, unit: &str) -> Result<f64, String> {
    let range = format!("more than 0 and at most {} {unit}", thousands(max as u64));
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= max => Ok(x),
        Ok(_) => Err(format!(
            "{what} {} is out of range: it must be {range}",
            shorten(shown)
        )),
        Err(_) => Err(format!(
            "'{}' is not a {what}: it must be a number {range}",
            shorten(shown)
        )),
    }
}

/// "1 to 32", or "at least 1" when there is no useful upper end.
fn allowed(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("at least {}", thousands(min))
    } else {
        format!("{} to {}", thousands(min), thousands(max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each message quotes the argument as given, and says "out of range" for a value
    /// of the right kind past the allowed range.
    #[test]
    fn messages_quote_the_value_as_given() {
        let cases: [(Result<(), String>, &str); 6] = [
            (percent("1%%").map(drop), "'1%%' is not a share"),
            (percent("0%").map(drop), "share 0% is out of range"),
            (percent("101").map(drop), "share 101 is out of range"),
            (
                interval("99999999999999999999999h").map(drop),
                "interval 99999999999999999999999h is out of range",
            ),
            (
                interval("400days").map(drop),
                "interval 400days is out of range",
            ),
            (
                interval("5 parsecs").map(drop),
                "'5 parsecs' is not a duration",
            ),
        ];
        for (got, want) in cases {
            let message = got.expect_err(want);
            assert!(message.contains(want), "{message} (want {want})");
        }
        assert_eq!(percent("2.5%"), Ok(2.5));
        assert_eq!(interval("500ms"), Ok(Duration::from_millis(500)));
    }

    #[test]
    fn parses_sizes_and_ranges() {
        assert_eq!(BoardRange::parse("8"), Ok(BoardRange { first: 8, last: 8 }));
        assert_eq!(
            BoardRange::parse("4..6")
                .unwrap()
                .sizes()
                .collect::<Vec<_>>(),
            [4, 5, 6]
        );
        for bad in ["0", "33", "x", "", "9..8", "1..", "..4", "-1"] {
            assert!(BoardRange::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn messages_name_the_value_and_the_range_in_words() {
        assert_eq!(
            board_size("abc").unwrap_err(),
            "'abc' is not a board size: N must be a whole number, 1 to 32"
        );
        assert_eq!(
            board_size("-1").unwrap_err(),
            "board size -1 is out of range: N must be 1 to 32"
        );
        assert!(
            large_board_size("8..9")
                .unwrap_err()
                .contains("100,000,000")
        );
        assert!(threads("0").unwrap_err().starts_with(&format!(
            "thread count 0 is out of range: it must be 1 to {}",
            max_threads()
        )));
        assert!(positive("0").unwrap_err().contains("at least 1"));
        assert!(speed("NaN").is_err() && speed("0").is_err() && speed("inf").is_err());
        assert!(interval("0s").unwrap_err().contains("more than 0"));
        let huge = "9".repeat(10_000_000);
        assert!(threads(&huge).unwrap_err().len() < 200);
        for message in [
            threads("99999999999999999999999").unwrap_err(),
            positive("x").unwrap_err(),
            split_depth("9").unwrap_err(),
        ] {
            assert!(
                !message.contains("..=") && !message.contains("1844674"),
                "{message}"
            );
        }
    }
}
