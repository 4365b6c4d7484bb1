//! Board sizes given on the command line: `N` or an inclusive range `A..B`.

use nqueens::MAX_N;

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

fn board_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let n: usize = text.parse().map_err(|_| {
        format!("'{text}' is not a board size: N must be a whole number from 1 to {MAX_N}")
    })?;
    if !(1..=MAX_N).contains(&n) {
        return Err(format!(
            "board size {n} is out of range: N must be 1 to {MAX_N}"
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
