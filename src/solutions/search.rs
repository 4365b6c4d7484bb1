//! The row-by-row search behind every listing: each row's queen tried from column 0 up,
//! so placements come out in lexicographic order, from a fixed prefix of rows down to a
//! goal row. Nothing is allocated per step; a placement found is lent, not copied.

use crate::board::MAX_N;

/// The placements of the first `goal` rows that extend a fixed prefix, in lexicographic
/// order: with `goal = n` the solutions, with a smaller goal the partial placements a
/// listing splits its work by.
pub struct Search {
    all: u32,
    /// Rows fixed by the prefix: the search never backs up into them.
    base: usize,
    goal: usize,
    /// Per row: squares still to try, and the attacked columns and diagonals on entering it.
    free: [u32; MAX_N],
    cols: [u32; MAX_N],
    ld: [u32; MAX_N],
    rd: [u32; MAX_N],
    /// `queens[r]` is the column of row `r`'s queen, for the rows placed so far.
    queens: [usize; MAX_N],
    row: usize,
    placed: u128,
    done: bool,
}

impl Search {
    /// The placements of rows `0..goal` of the `n` x `n` board that begin with `prefix`
    /// (the columns of rows `0..prefix.len()`, no two attacking: a prefix the search
    /// itself found); `prefix.len() < goal <= n <= MAX_N`.
    pub fn new(n: usize, prefix: &[usize], goal: usize) -> Search {
        assert!(
            prefix.len() < goal && goal <= n && n <= MAX_N,
            "a search of rows {}..{goal} of N = {n}",
            prefix.len()
        );
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut search = Search {
            all,
            base: prefix.len(),
            goal,
            free: [0; MAX_N],
            cols: [0; MAX_N],
            ld: [0; MAX_N],
            rd: [0; MAX_N],
            queens: [0; MAX_N],
            row: prefix.len(),
            placed: 0,
            done: false,
        };
        let (mut c, mut l, mut r) = (0u32, 0u32, 0u32);
        for (row, &col) in prefix.iter().enumerate() {
            let bit = 1u32 << col;
            search.queens[row] = col;
            (c, l, r) = (c | bit, (l | bit) << 1, (r | bit) >> 1);
        }
        let base = prefix.len();
        (search.cols[base], search.ld[base], search.rd[base]) = (c, l, r);
        search.free[base] = all & !(c | l | r);
        search
    }

    /// Queens placed by the search so far (the prefix's not counted), the one just
    /// placed included: a measure of the search's work up to each placement it lends.
    pub fn placed(&self) -> u128 {
        self.placed
    }

    /// The next placement of rows `0..goal`, lent until the next call; `None` once the
    /// search is over.
    pub fn advance(&mut self) -> Option<&[usize]> {
        if self.done {
            return None;
        }
        let mut r = self.row;
        let mut placed = 0u64;
        let found = loop {
            let free = self.free[r];
            if free == 0 {
                // Row exhausted: back up one row, unless it is the prefix's.
                if r == self.base {
                    break false;
                }
                r -= 1;
                continue;
            }
            let bit = free & free.wrapping_neg();
            self.free[r] = free ^ bit;
            self.queens[r] = bit.trailing_zeros() as usize;
            placed += 1;
            if r + 1 == self.goal {
                break true;
            }
            let (c, l, d) = (
                self.cols[r] | bit,
                (self.ld[r] | bit) << 1,
                (self.rd[r] | bit) >> 1,
            );
            let next = self.all & !(c | l | d);
            // A dead end is left at once: no step into a row with no square to try.
            if next == 0 {
                continue;
            }
            r += 1;
            (self.cols[r], self.ld[r], self.rd[r]) = (c, l, d);
            self.free[r] = next;
        };
        self.row = r;
        self.placed += u128::from(placed);
        self.done = !found;
        found.then(|| &self.queens[..self.goal])
    }
}
