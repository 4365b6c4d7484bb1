//! The join as a counting method: its sub-problems (the counted row sets), their weights,
//! and the worker loop that counts one row set at a time.

use super::geometry::{CENTRAL, Geometry, for_each_subset, reverse_rows};
use super::half_boards::HalfScratch;
use super::pairs::PairCounter;
use super::quadrants::QuadrantTable;
use crate::cpu::KernelLevel;
use crate::schedule::Solver;
use crate::tally::Tally;

/// The smallest board the join counts (smaller ones go to backtracking).
pub const MIN_N: usize = 4;
/// The largest board it counts, memory allowing: its quadrants are the largest the table
/// holds.
pub const MAX_N: usize = 2 * QuadrantTable::MAX_SIDE as usize;

/// Why the join cannot count a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Outside `MIN_N ..= MAX_N`.
    BoardSize,
    /// The quadrant table would need this many bytes, more than the budget (`None`: more
    /// than this build tabulates, past [`MAX_N`]).
    Memory {
        /// Bytes the table needs (for the largest boards, a lower bound).
        needed: u64,
        /// The memory budget, in bytes.
        budget: Option<u64>,
    },
}

/// All the work of one count by halves, split into row sets.
pub struct Join {
    /// Board side.
    pub n: usize,
    geometry: Geometry,
    table: QuadrantTable,
    /// The counted row sets (East's rows), in increasing order: sub-problem `i` is the
    /// `i`-th.
    row_sets: Vec<u32>,
}

impl Join {
    /// Bytes the quadrant table for `n` needs: its lasting slabs (for an odd board, those
    /// of the north quadrants: a third of the table).
    pub fn table_bytes(n: usize) -> u64 {
        let g = Geometry::new(n);
        QuadrantTable::bytes(g.side, g.west)
    }

    /// Bytes one worker's buffers (the keys of a row set, the bit-sliced patterns, the
    /// south pieces) may reach on board `n`: an envelope of what was measured (peak
    /// memory with 8 or 16 workers less with 1, per worker, on shards): N = 18: 1 MB,
    /// 20: 7.5 MB, 21: 29 to 40 MB, 22: 37 MB. It is 15 MB at N = 20 and grows 2.5x per N.
    /// On an odd board, a worker also holds two passing slabs of the table.
    pub fn worker_bytes(n: usize) -> u64 {
        let g = Geometry::new(n);
        let buffers = (15e6 * 2.5f64.powi(n as i32 - 20)) as u64;
        let held = if g.side > g.west {
            2 * QuadrantTable::slab_bytes(g.side)
        } else {
            0
        };
        buffers + held
    }

    /// Bytes of the table a run needs that counts one of `parts` shares of the `row_sets`:
    /// at most the slabs those touch (four per row set: north and south, east and west),
    /// never more than the whole table.
    fn table_bytes_for(n: usize, row_sets: usize, parts: usize) -> u64 {
        let touched = row_sets.div_ceil(parts.max(1)) as u64;
        let slab = QuadrantTable::slab_bytes(Geometry::new(n).side);
        Join::table_bytes(n).min(touched.saturating_mul(4 * slab))
    }

    /// Bytes this plan's run of one of `parts` shares (1: the whole count) needs with
    /// `workers` workers: its part of the table and every worker's buffers.
    pub fn memory_need_for_part(&self, workers: usize, parts: usize) -> u64 {
        Join::table_bytes_for(self.n, self.row_sets.len(), parts)
            .saturating_add((workers as u64).saturating_mul(Join::worker_bytes(self.n)))
    }

    /// Whether this build can count board `n` by halves, memory allowing.
    pub fn takes(n: usize) -> bool {
        (MIN_N..=MAX_N).contains(&n)
    }

    /// Lists the row sets and makes the (unbuilt) table, if `n` is in range and the table
    /// fits in `budget` bytes (`None`: no limit). A run that counts one of `parts` shares
    /// of the row sets needs at most the slabs those touch (four per row set: north and
    /// south, east and west), so a small shard of a large board fits where the whole
    /// table would not.
    pub fn new(n: usize, budget: Option<u64>, parts: usize) -> Result<Join, Refusal> {
        if n > MAX_N {
            return Err(Refusal::Memory {
                needed: Join::table_bytes(n),
                budget: None,
            });
        }
        if !Join::takes(n) {
            return Err(Refusal::BoardSize);
        }
        let geometry = Geometry::new(n);
        let mut row_sets = Vec::new();
        for_each_subset(n as u32, geometry.side, |rows| {
            if rows <= reverse_rows(rows, n as u32) {
                row_sets.push(rows);
            }
        });
        let needed = Join::table_bytes_for(n, row_sets.len(), parts);
        if budget.is_some_and(|budget| needed > budget) {
            return Err(Refusal::Memory { needed, budget });
        }
        Ok(Join {
            n,
            geometry,
            table: QuadrantTable::new(geometry.side, geometry.west),
            row_sets,
        })
    }

    /// Sub-problems: counted row sets.
    pub fn len(&self) -> usize {
        self.row_sets.len()
    }

    /// Whether there are none (never, for a board in range).
    pub fn is_empty(&self) -> bool {
        self.row_sets.is_empty()
    }

    /// The row set of sub-problem `id` (East's rows, bit `r` for row `r`).
    pub fn row_set(&self, id: usize) -> u32 {
        self.row_sets[id]
    }

    /// The weight of sub-problem `id`: 2 when its reverse is counted with it, else 1.
    pub fn weight(&self, id: usize) -> u32 {
        let rows = self.row_sets[id];
        if rows < reverse_rows(rows, self.n as u32) {
            2
        } else {
            1
        }
    }

    /// How the west half-boards of class (-,-) count on this row set (see the module
    /// docs): 0, 1 or 2 by the east-west reflection for even `n`, 1 for odd `n`.
    fn plain_weight(&self, rows: u32) -> u64 {
        let n = self.n as u32;
        if n % 2 == 1 {
            return 1;
        }
        let partner = reverse_rows(rows ^ (((1u64 << n) - 1) as u32), n);
        match rows.cmp(&partner) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 0,
        }
    }

    /// Bytes held by the shared table now.
    pub fn heap_bytes(&self) -> u64 {
        self.table.heap_bytes() + self.row_sets.len() as u64 * 4
    }

    /// Bytes the largest slab of this board's table takes: a row set in hand adds at most
    /// four.
    pub fn slab_bytes(&self) -> u64 {
        QuadrantTable::slab_bytes(Geometry::new(self.n).side)
    }

    /// Bytes of every slab of the table built so far, those dropped since included.
    pub fn built_bytes(&self) -> u64 {
        self.table.built_bytes()
    }

    /// Counts sub-problem `id` (not yet weighted); `nodes` are the half-boards built. The
    /// kernel level of `scratch` decides what the half-boards are built with and which
    /// pair counter runs.
    pub fn solve(&self, id: usize, scratch: &mut Scratch) -> Tally {
        self.solve_until(id, scratch, &|| false)
            .expect("never halted")
    }

    /// [`Join::solve`], abandoned (`None`) once `halted` says so: the pair counter asks
    /// it every few milliseconds, so a stop never waits for a row set (tens of seconds
    /// at N = 26).
    pub fn solve_until(
        &self,
        id: usize,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        match scratch.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Scratch` only holds an available kernel, and every level from
            // AVX2 up has these features (see `crate::cpu`).
            KernelLevel::Avx2 => unsafe { self.solve_avx2(id, scratch, halted) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for the AVX-512 level.
            KernelLevel::Avx512 => unsafe { self.solve_avx512(id, scratch, halted) },
            _ => self.solve_body(id, scratch, halted),
        }
    }

    /// [`Join::solve_body`] compiled for the AVX-512 level.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn solve_avx512(
        &self,
        id: usize,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        self.solve_body(id, scratch, halted)
    }

    /// [`Join::solve_body`] compiled for AVX2, BMI1/2, POPCNT and LZCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn solve_avx2(
        &self,
        id: usize,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        self.solve_body(id, scratch, halted)
    }

    #[inline(always)]
    fn solve_body(
        &self,
        id: usize,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        let g = &self.geometry;
        let east_rows = self.row_sets[id];
        let west_rows = east_rows ^ (((1u64 << g.n) - 1) as u32);

        let patterns = &mut scratch.patterns;
        patterns.clear();
        g.collect_half_boards(
            &self.table,
            g.east(),
            east_rows,
            true,
            &mut scratch.half,
            std::slice::from_mut(patterns),
        );
        let mut nodes = patterns.len() as u64;
        if patterns.is_empty() {
            return Some(Tally {
                solutions: 0,
                nodes,
            });
        }
        for key in patterns.iter_mut() {
            *key &= !CENTRAL;
        }

        // The west keys by class (how many long diagonals they hold), class 0 only
        // where it counts.
        let plain_weight = self.plain_weight(east_rows);
        let classes = &mut scratch.classes;
        classes.iter_mut().for_each(Vec::clear);
        g.collect_half_boards(
            &self.table,
            g.west(),
            west_rows,
            plain_weight > 0,
            &mut scratch.half,
            classes,
        );
        nodes += classes.iter().map(|c| c.len() as u64).sum::<u64>();
        let [plain, one, both] = classes.each_ref().map(Vec::as_slice);
        scratch.counter.load(patterns, &[plain, one, both]);
        let counter = &mut scratch.counter;
        let mut count = |items: &[u64]| {
            if items.is_empty() {
                Some(0)
            } else {
                counter.count_until(items, halted)
            }
        };
        let (plain, one, both) = (count(plain)?, count(one)?, count(both)?);
        Some(Tally {
            solutions: plain_weight * plain + 2 * one + 4 * both,
            nodes,
        })
    }

    /// Buffers for one thread's counts.
    pub fn scratch(&self, kernel: KernelLevel) -> Scratch {
        Scratch {
            kernel,
            counter: PairCounter::new(self.geometry.key_bits(), kernel),
            patterns: Vec::new(),
            classes: Default::default(),
            half: HalfScratch::new(kernel),
        }
    }
}

impl Solver for Join {
    fn solve_all(
        &self,
        kernel: KernelLevel,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Tally),
        halted: &dyn Fn() -> bool,
    ) {
        let mut scratch = self.scratch(kernel);
        while let Some(id) = next() {
            match self.solve_until(id, &mut scratch, halted) {
                Some(tally) => done(id, tally),
                None => return,
            }
        }
    }
}

/// One thread's buffers: the east keys of the row set in hand, the west keys by weight.
pub struct Scratch {
    kernel: KernelLevel,
    counter: PairCounter,
    patterns: Vec<u64>,
    /// The west keys by class (0, 1 or 2 long diagonals held).
    classes: [Vec<u64>; 3],
    half: HalfScratch,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known::known;

    fn total(n: usize, kernel: KernelLevel) -> u128 {
        let plan = Join::new(n, None, 1).unwrap();
        let mut scratch = plan.scratch(kernel);
        (0..plan.len())
            .map(|id| {
                u128::from(plan.weight(id)) * u128::from(plan.solve(id, &mut scratch).solutions)
            })
            .sum()
    }

    #[test]
    fn totals_match_the_table_with_every_kernel() {
        for kernel in KernelLevel::available() {
            for n in MIN_N..=12 {
                assert_eq!(
                    Some(total(n, kernel)),
                    known(n).map(|k| k.total),
                    "n = {n}, {kernel:?}"
                );
            }
        }
    }

    #[test]
    fn a_halted_row_set_is_abandoned_and_an_unhalted_one_counts_as_usual() {
        let plan = Join::new(16, None, 1).unwrap();
        let mut scratch = plan.scratch(KernelLevel::detect());
        let (mut abandoned, asked) = (0usize, std::cell::Cell::new(0usize));
        for id in 0..plan.len() {
            let halted = || {
                asked.set(asked.get() + 1);
                true
            };
            match plan.solve_until(id, &mut scratch, &halted) {
                // Only a row set with nothing to count finishes: it never asks.
                Some(tally) => assert_eq!(tally.solutions, 0, "row set {id}"),
                None => abandoned += 1,
            }
            let never = plan.solve_until(id, &mut scratch, &|| false);
            assert_eq!(never, Some(plan.solve(id, &mut scratch)), "row set {id}");
        }
        assert!(abandoned > plan.len() / 2, "{abandoned} of {}", plan.len());
        assert_eq!(asked.get(), abandoned, "asked once each, then stopped");
    }

    #[test]
    fn a_row_set_counts_the_same_with_the_whole_table_built_or_only_its_slabs() {
        let n = 13;
        let warm = Join::new(n, None, 1).unwrap();
        let mut scratch = warm.scratch(KernelLevel::Portable);
        // Build every slab first, by counting everything once.
        let all: Vec<Tally> = (0..warm.len())
            .map(|id| warm.solve(id, &mut scratch))
            .collect();
        let full_bytes = warm.heap_bytes();
        for id in [0, 7, warm.len() / 2, warm.len() - 1] {
            let cold = Join::new(n, None, 1).unwrap();
            let mut scratch = cold.scratch(KernelLevel::Portable);
            assert_eq!(cold.solve(id, &mut scratch), all[id], "row set {id}");
            assert!(
                cold.heap_bytes() < full_bytes,
                "only the slabs of row set {id}"
            );
        }
    }

    /// What the module docs say each row set's count must be, from the solutions
    /// themselves: central ones count 1; a queen on a long diagonal in East counts 0; else
    /// 2 per long diagonal occupied in West, and the row set's plain weight when none is.
    #[test]
    fn each_row_set_counts_what_the_symmetry_argument_says() {
        for n in MIN_N..=10 {
            let plan = Join::new(n, None, 1).unwrap();
            let mut scratch = plan.scratch(KernelLevel::detect());
            let west = n / 2;
            let mut want = std::collections::HashMap::<u32, u64>::new();
            for solution in crate::oracle::all_solutions(n) {
                let rows = (0..n)
                    .filter(|&r| solution[r] >= west)
                    .fold(0u32, |set, r| set | 1 << r);
                let main = (0..n).find(|&r| solution[r] == r);
                let anti = (0..n).find(|&r| solution[r] == n - 1 - r);
                let east = |r: Option<usize>| r.is_some_and(|r| solution[r] >= west);
                let central = n % 2 == 1 && solution[n / 2] == n / 2;
                let weight = if central {
                    1
                } else if east(main) || east(anti) {
                    0
                } else if main.is_none() && anti.is_none() {
                    plan.plain_weight(rows)
                } else {
                    1 << (u32::from(main.is_some()) + u32::from(anti.is_some()))
                };
                *want.entry(rows).or_default() += weight;
            }
            for id in 0..plan.len() {
                let rows = plan.row_set(id);
                let got = plan.solve(id, &mut scratch).solutions;
                assert_eq!(
                    got,
                    want.get(&rows).copied().unwrap_or(0),
                    "n = {n}, rows {rows:b}"
                );
            }
        }
    }

    #[test]
    fn a_small_shard_needs_only_the_slabs_its_row_sets_touch() {
        let gigabyte = Some(1u64 << 30);
        assert!(matches!(
            Join::new(23, gigabyte, 1),
            Err(Refusal::Memory { needed, .. }) if needed > 1 << 30
        ));
        let shard = Join::new(23, gigabyte, 200_000).expect("a shard of 4 row sets fits");
        assert_eq!(
            shard.heap_bytes(),
            Join::new(23, None, 1).unwrap().heap_bytes()
        );
        assert!(
            Join::new(23, Some(10 << 20), 200_000).is_err(),
            "but not in 10 MB"
        );
    }

    #[test]
    fn subsets_come_in_increasing_order() {
        let mut seen = Vec::new();
        for_each_subset(6, 3, |s| seen.push(s));
        assert_eq!(seen.len(), 20);
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert!(seen.iter().all(|s| s.count_ones() == 3 && *s < 64));
    }
}
