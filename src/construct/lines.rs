//! The board's lines (columns and diagonals) as the local searches keep them: how many
//! queens stand on each, and who.

/// One line of the board (a column or a diagonal): how many queens stand on it, and the
/// XOR of their rows, which names the other queen the moment a second one arrives.
#[derive(Clone, Copy, Default)]
pub(super) struct Line {
    pub(super) queens: u32,
    rows_xor: u32,
}

/// Every line of the board, kept up to date as queens move.
pub(super) struct Lines {
    pub(super) n: usize,
    pub(super) cols: Vec<Line>,
    diag: Vec<Line>,
    anti: Vec<Line>,
    /// Columns a lifted queen left empty: once min-conflicts' greedy start has put a
    /// queen in every column, these are all the empty ones (where an unattacked square
    /// can be).
    pub(super) empty_cols: Vec<u32>,
}

impl Lines {
    pub(super) fn new(n: usize) -> Lines {
        Lines {
            n,
            cols: vec![Line::default(); n],
            diag: vec![Line::default(); 2 * n - 1],
            anti: vec![Line::default(); 2 * n - 1],
            empty_cols: Vec::new(),
        }
    }

    /// The indexes of the square's column, diagonal and anti-diagonal.
    fn of(&self, row: usize, col: usize) -> [usize; 3] {
        [col, row + self.n - 1 - col, row + col]
    }

    /// Queens on the square's three lines (one standing on it counts three times).
    pub(super) fn hits(&self, row: usize, col: usize) -> u32 {
        let [c, d, a] = self.of(row, col);
        self.cols[c].queens + self.diag[d].queens + self.anti[a].queens
    }

    /// Queens on the square's two diagonals: all of [`Lines::hits`] in a column with no
    /// queen, one memory access fewer.
    pub(super) fn diagonal_hits(&self, row: usize, col: usize) -> u32 {
        let [_, d, a] = self.of(row, col);
        self.diag[d].queens + self.anti[a].queens
    }

    /// Puts row `row`'s queen on column `col`, and returns the rows of queens that
    /// share a line with it and had none before (they are attacked from now on).
    pub(super) fn place(&mut self, row: usize, col: usize) -> [Option<usize>; 3] {
        let [c, d, a] = self.of(row, col);
        if self.cols[c].queens == 0
            && let Some(at) = self.empty_cols.iter().position(|&e| e as usize == col)
        {
            self.empty_cols.swap_remove(at);
        }
        let mut newly = [None; 3];
        for (line, slot) in [&mut self.cols[c], &mut self.diag[d], &mut self.anti[a]]
            .into_iter()
            .zip(&mut newly)
        {
            line.queens += 1;
            line.rows_xor ^= row as u32;
            if line.queens == 2 {
                *slot = Some((line.rows_xor ^ row as u32) as usize);
            }
        }
        newly
    }

    /// Takes row `row`'s queen off column `col`.
    pub(super) fn lift(&mut self, row: usize, col: usize) {
        let [c, d, a] = self.of(row, col);
        for line in [&mut self.cols[c], &mut self.diag[d], &mut self.anti[a]] {
            line.queens -= 1;
            line.rows_xor ^= row as u32;
        }
        if self.cols[c].queens == 0 {
            self.empty_cols.push(col as u32);
        }
    }
}
