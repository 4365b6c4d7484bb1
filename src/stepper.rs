//! The backtracking search one step at a time, for watching and learning (`nqueens trace`).
//!
//! Queens go one per column, from the left. Rows are numbered from the bottom (row 0 is
//! the bottom row), and in each column the candidate square starts at the bottom and moves
//! up. One step does one thing:
//!
//! - tests the candidate: if no placed queen attacks it, the queen is placed and the next
//!   column's bottom square becomes the candidate; if one does, the candidate moves up;
//! - or, when the candidate has left the top of its column, backtracks: the last queen is
//!   removed and the square above it becomes the candidate;
//! - or, on a full board (a solution, counted when its last queen was placed), backtracks
//!   from it the same way.
//!
//! When the first column is exhausted the search is over: that step reports the total,
//! and the next one starts again from the empty board. Not on the engine's path.
//!
//! ```
//! use nqueens::stepper::Stepper;
//! let mut search = Stepper::new(4);
//! search.run_to_solution();
//! assert!(search.is_solution());
//! assert_eq!(search.queens(), [1, 3, 0, 2]);
//! assert_eq!(search.solutions(), 1);
//! ```

/// What the last step did. As JSON (`trace --json`), an object whose "action" names the
/// kind (`start`, `placed`, `rejected`, `backtracked`, `solution`, `finished`) beside its
/// fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Nothing yet: the empty board, before the first step.
    Start,
    /// A queen was placed.
    Placed {
        /// Its column.
        col: usize,
        /// Its row.
        row: usize,
    },
    /// The candidate square is attacked by a placed queen.
    Rejected {
        /// Candidate column.
        col: usize,
        /// Candidate row.
        row: usize,
        /// Column of the attacking queen.
        by_col: usize,
        /// Row of the attacking queen.
        by_row: usize,
        /// How it attacks.
        line: Attack,
    },
    /// A queen was removed; the square above it is next.
    Backtracked {
        /// Its column.
        col: usize,
        /// Its row.
        row: usize,
    },
    /// A queen was placed and the board is full: a solution.
    Solution {
        /// The last queen's column.
        col: usize,
        /// The last queen's row.
        row: usize,
        /// Solutions found so far, this one included.
        count: u64,
    },
    /// The search is over.
    Finished {
        /// Solutions found in all.
        total: u64,
    },
}

/// The line along which a placed queen attacks the candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Attack {
    /// The same row.
    Row,
    /// A diagonal.
    Diagonal,
}

/// The search state.
#[derive(Clone, Debug)]
pub struct Stepper {
    n: usize,
    /// Row of the queen in each column placed so far, from the left.
    queens: Vec<usize>,
    /// The square to test next, as (col, row); `row == n` means the column is exhausted.
    candidate: (usize, usize),
    steps: u64,
    solutions: u64,
    last: Action,
}

impl Stepper {
    /// The empty `n` x `n` board, `n >= 1` (a board of side 0 is taken as side 1: it
    /// has nothing to trace).
    pub fn new(n: usize) -> Stepper {
        let n = n.max(1);
        Stepper {
            n,
            queens: Vec::with_capacity(n),
            candidate: (0, 0),
            steps: 0,
            solutions: 0,
            last: Action::Start,
        }
    }

    /// Board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Rows of the placed queens, by column from the left.
    pub fn queens(&self) -> &[usize] {
        &self.queens
    }

    /// The square to be tested next, if any (none on a full board or after the end).
    pub fn candidate(&self) -> Option<(usize, usize)> {
        let (col, row) = self.candidate;
        (col < self.n && row < self.n && self.queens.len() == col && !self.is_finished())
            .then_some((col, row))
    }

    /// Steps taken since the start.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Solutions found since the start.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }

    /// What the last step did.
    pub fn last_action(&self) -> Action {
        self.last
    }

    /// True while a full board (a solution) is shown.
    pub fn is_solution(&self) -> bool {
        self.queens.len() == self.n
    }

    fn is_finished(&self) -> bool {
        matches!(self.last, Action::Finished { .. })
    }

    /// Squares attacked by the placed queens, as `(col, row)`, for shading.
    pub fn attacked(&self, col: usize, row: usize) -> bool {
        self.attacker(col, row).is_some()
    }

    /// The first placed queen (from the left) attacking `(col, row)`, and how.
    fn attacker(&self, col: usize, row: usize) -> Option<(usize, usize, Attack)> {
        self.queens.iter().enumerate().find_map(|(c, &r)| {
            if c == col {
                None
            } else if r == row {
                Some((c, r, Attack::Row))
            } else if c.abs_diff(col) == r.abs_diff(row) {
                Some((c, r, Attack::Diagonal))
            } else {
                None
            }
        })
    }

    /// Takes one step and returns what it did. Once the search is over it stays over:
    /// every further step returns the same `Finished` and counts nothing.
    pub fn step(&mut self) -> Action {
        if self.is_finished() {
            return self.last;
        }
        self.steps += 1;
        let (col, row) = self.candidate;
        self.last = if self.is_solution() || row == self.n {
            self.backtrack()
        } else if let Some((by_col, by_row, line)) = self.attacker(col, row) {
            self.candidate = (col, row + 1);
            Action::Rejected {
                col,
                row,
                by_col,
                by_row,
                line,
            }
        } else {
            self.queens.push(row);
            if self.queens.len() == self.n {
                self.solutions += 1;
                Action::Solution {
                    col,
                    row,
                    count: self.solutions,
                }
            } else {
                self.candidate = (col + 1, 0);
                Action::Placed { col, row }
            }
        };
        self.last
    }

    fn backtrack(&mut self) -> Action {
        match self.queens.pop() {
            Some(row) => {
                let col = self.queens.len();
                self.candidate = (col, row + 1);
                Action::Backtracked { col, row }
            }
            None => Action::Finished {
                total: self.solutions,
            },
        }
    }

    /// Steps until the next solution or the end of the search; returns what stopped it.
    pub fn run_to_solution(&mut self) -> Action {
        loop {
            let action = self.step();
            if matches!(action, Action::Solution { .. } | Action::Finished { .. }) {
                return action;
            }
        }
    }

    /// One line saying what the last step did.
    pub fn describe(&self) -> String {
        match self.last {
            Action::Start => "empty board".into(),
            Action::Placed { col, row } => format!("placed a queen at column {col}, row {row}"),
            Action::Rejected {
                col,
                row,
                by_col,
                by_row,
                line,
            } => {
                let how = match line {
                    Attack::Row => "row",
                    Attack::Diagonal => "diagonal",
                };
                format!(
                    "rejected column {col}, row {row}: attacked along a {how} by the queen at column {by_col}, row {by_row}"
                )
            }
            Action::Backtracked { col, row } => {
                format!("backtracked: removed the queen at column {col}, row {row}")
            }
            Action::Solution { count, .. } => format!("solution {count}"),
            Action::Finished { total } => format!(
                "search finished: {total} solution{}; r starts it again",
                if total == 1 { "" } else { "s" }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known::known;

    #[test]
    fn the_first_steps_for_n_4_by_hand() {
        let mut s = Stepper::new(4);
        let expected = [
            Action::Placed { col: 0, row: 0 },
            Action::Rejected {
                col: 1,
                row: 0,
                by_col: 0,
                by_row: 0,
                line: Attack::Row,
            },
            Action::Rejected {
                col: 1,
                row: 1,
                by_col: 0,
                by_row: 0,
                line: Attack::Diagonal,
            },
            Action::Placed { col: 1, row: 2 },
            Action::Rejected {
                col: 2,
                row: 0,
                by_col: 0,
                by_row: 0,
                line: Attack::Row,
            },
            Action::Rejected {
                col: 2,
                row: 1,
                by_col: 1,
                by_row: 2,
                line: Attack::Diagonal,
            },
            Action::Rejected {
                col: 2,
                row: 2,
                by_col: 0,
                by_row: 0,
                line: Attack::Diagonal,
            },
            Action::Rejected {
                col: 2,
                row: 3,
                by_col: 1,
                by_row: 2,
                line: Attack::Diagonal,
            },
            Action::Backtracked { col: 1, row: 2 },
            Action::Placed { col: 1, row: 3 },
        ];
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(s.step(), *want, "step {}", i + 1);
        }
        assert_eq!(s.candidate(), Some((2, 0)));
        assert_eq!(
            s.run_to_solution(),
            Action::Solution {
                col: 3,
                row: 2,
                count: 1
            }
        );
        assert_eq!(s.queens(), [1, 3, 0, 2]);
    }

    #[test]
    fn the_whole_search_finds_every_solution() {
        let mut steps_per_n = Vec::new();
        for n in 1..=10 {
            let mut s = Stepper::new(n);
            let total = loop {
                if let Action::Finished { total } = s.step() {
                    break total;
                }
            };
            assert_eq!(u128::from(total), known(n).unwrap().total, "N = {n}");
            steps_per_n.push(s.steps());
            // The search stays over: no restart, no step counted.
            assert_eq!(s.step(), Action::Finished { total });
            assert_eq!(s.steps(), steps_per_n[n - 1], "N = {n}");
        }
        let again: Vec<u64> = (1..=10)
            .map(|n| {
                let mut s = Stepper::new(n);
                while !matches!(s.step(), Action::Finished { .. }) {}
                s.steps()
            })
            .collect();
        assert_eq!(steps_per_n, again, "deterministic");
    }
}
