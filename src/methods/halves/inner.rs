//! An even board's large row sets, counted queen by queen of West's inner column.
//!
//! # The split
//! On an even board, `n = 2w`, West's inner column (`w - 1`, beside East) holds one queen,
//! on one of West's rows `a`. Placing it first splits a row set's West half-boards by `a`:
//! the others form a half of `w - 1` columns on West's other rows, barred from that
//! queen's diagonals, and only East's half-boards clear of those diagonals can pair with
//! them. Every pair is still met once (under its `a`), but East's half-boards that clash
//! with a pin's queen are never compared with that pin's West: at N = 22 a pin keeps
//! about half of East, and the pair counter's instructions on a sample shard fell from
//! 10.6 G to 6.5 G.
//!
//! The pin's queen stands on the main diagonal when `a = w - 1` and on the anti-diagonal
//! when `a = w`: it then adds one to the class of every West half-board of its pin (the
//! long diagonals a half-board holds, see the `join` docs), which the weights follow.
//!
//! # When
//! Each pin loads East's keys anew (`w` loads of about half of them, instead of one of
//! all), and West is built pin by pin: worth it only where the halves are large. Row sets
//! whose West has fewer than [`PIN_FROM`] candidate half-boards are counted whole.
//!
//! # East's inner column too
//! East's inner column (`w`) likewise holds one queen, on one of East's rows `b`. From
//! [`EAST_QUEENS_FROM`] a row set's East is built queen by queen of that column (each
//! part's keys hold their queen's diagonals, so together they are East as built whole),
//! and each pin of West is counted against each part apart: West's half-boards of the pin
//! clear of the part's queen against the part's half-boards clear of the pin's queen
//! (two queens that attack each other meet nothing). Every pair is still met once, under
//! its `(a, b)`; about half of the pairs a pin would meet are never compared. A split
//! side is smaller, and a smaller load takes fewer cut bits, so this pays only where even
//! the split side reaches the pair counter's most cut bits: a pin of N = 28 has millions
//! of half-boards a side, one of N = 26 hundreds of thousands (`count 28 --shard
//! 100000007/280840224 --threads 1`: 9.9 -> 8.0 s; `count 26 --shard 7/200000`:
//! 40.1 s -> 40.5 to 41.8 s, East's parts also cost more to build than East whole).

use super::cuts;
use super::geometry::{Bars, Geometry, Half};
use super::pairs::presorted::{Presorted, sort_bits_for};
use super::pairs::{LISTS, PairCounter};
use super::partition::partition_clear;
use super::piece_pairs::Plain;
use super::quadrants::QuadrantTable;
use super::scratch::{EastPart, Scratch};
use crate::cpu::Kernel;

/// West's candidate half-boards (north and south pieces on complementary columns, see
/// `HalfScratch::candidates`) from which a row set is counted pin by pin: below it, one
/// load of the whole row set skips about as many pairs by its cut bits as the pins
/// would, in one load instead of one a pin. Row sets timed both ways (one thread, counting
/// only; 882 of N = 22, 204 of N = 24, 26 of N = 26): whole 5.11 / 17.72 / 62.32 s,
/// pinned 7.17 / 22.49 / 46.53 s, the faster way each time 5.06 / 17.11 / 42.45 s, by
/// this bound 5.11 / 17.72 / 44.32 s. The largest loads are where pins pay: their cut
/// bits run out (`pairs`'s most), and a pin skips half of East's keys exactly.
pub(super) const PIN_FROM: u64 = 32_000_000;

/// From this board up, East is built and counted queen by queen of its inner column
/// (see the module docs).
pub(super) const EAST_QUEENS_FROM: usize = 28;

/// Keys of West and of each of East's parts sampled to choose the bits West is sorted
/// by, once per pin (see `pairs::presorted`).
const PRESORT_SAMPLE: usize = 8192;

/// West's keys from which a pin's West is sorted once for all of East's parts (a pin of
/// N = 28 has 4 to 10 million): each load then reads 2^16 runs a list, nothing beside a
/// load of millions, but more than a small load's own sort. Against sorting West for
/// each part, `count 28 --method halves --shard 1000003/20058300 --threads 1` (14 pins)
/// took 62.7 and 67.8 s against 70.7 and 70.3 s, peak 1.14 to 1.16 GB both ways.
const PRESORT_FROM: usize = 1_000_000;

/// West's inner-column queen on one row: West's half and rows without it, the key bits
/// East's half-boards must lack (its diagonals), and the classes it adds (0 or 1).
pub(super) struct InnerPin {
    pub(super) west: Half,
    pub(super) west_rows: u32,
    pub(super) east_bars: u64,
    pub(super) class: usize,
}

impl InnerPin {
    /// No queen placed first: West whole on its `rows`.
    pub(super) fn none(g: &Geometry, rows: u32) -> InnerPin {
        InnerPin {
            west: g.half(false),
            west_rows: rows,
            east_bars: 0,
            class: 0,
        }
    }
}

/// The pins of West's inner column on West's `rows`, by row.
pub(super) fn inner_pins(g: &Geometry, rows: u32) -> impl Iterator<Item = InnerPin> + '_ {
    let w = g.side;
    (0..g.n).filter(move |a| rows >> a & 1 != 0).map(move |a| {
        let queen = Bars::of_queen(g, a, w - 1);
        InnerPin {
            west: queen.half(g, false, Some(w - 1)),
            west_rows: rows ^ 1 << a,
            east_bars: queen.key(g),
            class: usize::from(a == w - 1 || a == w),
        }
    })
}

/// East's inner-column queen on one row: East's half and rows without it, and the key
/// bits of its diagonals.
pub(super) struct EastQueen {
    pub(super) east: Half,
    pub(super) east_rows: u32,
    pub(super) bars: u64,
}

/// The queens of East's inner column on East's `rows` that East keeps (none on a long
/// diagonal: on row `w` the queen would stand on the main one, on row `w - 1` on the
/// anti-diagonal), by row.
pub(super) fn east_queens(g: &Geometry, rows: u32) -> impl Iterator<Item = EastQueen> + '_ {
    let w = g.side;
    let kept = move |b: &u32| rows >> b & 1 != 0 && *b != w && *b + 1 != w;
    (0..g.n).filter(kept).map(move |b| {
        let queen = Bars::of_queen(g, b, w);
        EastQueen {
            // East's inner column is its quadrants' column 0.
            east: queen.half(g, true, Some(0)),
            east_rows: rows ^ 1 << b,
            bars: queen.key(g),
        }
    })
}

/// Sets the scratch's East to the keys of East's half-boards on `rows`: built whole
/// into `patterns`, or `by_queen` of its inner column into `east_parts` ([`east_queens`]:
/// each part's keys with its queen's bars); `None` if halted.
///
/// Each part is built in a buffer of its own and copied into one of exactly its size,
/// the previous row set's parts let go of first. East built into one buffer grown by
/// doubling held the old copy and the new one at once, and kept the pages of the
/// largest East for the smaller ones after it: the largest Easts of N = 28 hold 107 M
/// keys (854 MB), and a shard of five row sets (`count 28 --shard 1000003/4012003
/// --threads 2`) peaked at 4.5 to 4.6 GB: 3.99 GB built so, 3.56 to 3.60 GB with
/// West's south pieces let go of through each pin's count and West cleared in place
/// (`count_by_east_queen`). Each part given room first for its candidates took four to
/// five times East in address space (measured 2026-11-27, 945fb62).
#[inline(always)]
pub(super) fn collect_east(
    g: &Geometry,
    table: &QuadrantTable,
    rows: u32,
    by_queen: bool,
    scratch: &mut Scratch,
    halted: &dyn Fn() -> bool,
) -> Option<()> {
    let Scratch {
        patterns: keys,
        east_parts: parts,
        half,
        ..
    } = scratch;
    keys.clear();
    parts.clear();
    if !by_queen {
        return half.collect(
            g,
            table,
            g.half(true),
            rows,
            Plain::Apart,
            std::slice::from_mut(keys),
            halted,
        );
    }
    let mut building = Vec::new();
    for queen in east_queens(g, rows) {
        building.clear();
        let out = std::slice::from_mut(&mut building);
        half.collect(
            g,
            table,
            queen.east,
            queen.east_rows,
            Plain::Apart,
            out,
            halted,
        )?;
        // Collected from a slice, the keys take a buffer of exactly their number.
        let keys = building.iter().map(|key| key | queen.bars).collect();
        let bars = queen.bars;
        parts.push(EastPart { keys, bars });
    }
    Some(())
}

/// Counts one pin's West (`west`'s lists of keys, each of its `weights`) against East's
/// keys, part by part of `parts`, `None` if halted: each part's keys clear of the pin's
/// `bars` (copied into `cleared`, a buffer) against West's clear of the part's queen.
/// A large West is sorted once, in place, for all the parts (`presorted`, a buffer of
/// the sort's runs), and each load gathers its keys from the runs (where PEXT is fast);
/// a smaller one (or any, where PEXT is slow) has its keys clear of the queen moved to
/// the front of West's own buffers (`partition`: copied out, they took a buffer of
/// West's size, a sixth of a worker's memory at N = 28).
/// East's parts are copied, not moved: they serve the row set's other pins, and their
/// order (the order they were built in, which keeps alike keys together) is left as it
/// is.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn count_by_east_queen(
    kernel: Kernel,
    counter: &mut PairCounter,
    parts: &[EastPart],
    bars: u64,
    (west, weights): (&mut [Vec<u64>], [u64; LISTS]),
    (cleared, presorted): (&mut Vec<u64>, &mut Presorted),
    per_load: usize,
    halted: &dyn Fn() -> bool,
) -> Option<u64> {
    let (mut total, counted) = (0, west.len());
    let west_len: usize = west.iter().map(Vec::len).sum();
    // A large West sorted once for every part (see `pairs::presorted`), by the cut bits
    // the loads would choose on samples, where loads can be gathered from it.
    let sorted = presorted.gathers() && (PRESORT_FROM..=per_load).contains(&west_len) && {
        let step = west_len / PRESORT_SAMPLE + 1;
        let west_sample: Vec<u64> = west
            .iter()
            .flat_map(|l| l.iter().step_by(step))
            .copied()
            .collect();
        let samples: Vec<(Vec<u64>, u64)> = parts
            .iter()
            .filter(|part| part.bars & bars == 0)
            .map(|part| {
                let step = part.keys.len() / PRESORT_SAMPLE + 1;
                let keys = part.keys.iter().step_by(step).copied();
                (keys.filter(|&key| key & bars == 0).collect(), part.bars)
            })
            .collect();
        let by = sort_bits_for(&west_sample, &samples, !bars);
        presorted.sort(kernel, west, &weights[..counted], by)
    };
    let mut apart: [Vec<u64>; LISTS] = Default::default();
    for part in parts {
        let queen = part.bars;
        // The two queens attack each other.
        if queen & bars != 0 {
            continue;
        }
        let east = cuts::clear_of(kernel, &part.keys, bars, cleared);
        if east.is_empty() {
            continue;
        }
        let mut lists: [(&[u64], u64); LISTS] = [(&[], 0); LISTS];
        if sorted {
            for ((list, weight), counted) in west.iter().zip(weights).zip(&mut lists) {
                *counted = (list.as_slice(), weight);
            }
            let found =
                counter.count_presorted(presorted, &lists[..counted], queen, east, halted)?;
            if let Some(found) = found {
                total += found;
                continue;
            }
            // A load the runs cannot give: West clear of the queen copied apart, in
            // order (the runs serve the parts after it).
            for ((list, out), counted) in west.iter().zip(&mut apart).zip(&mut lists) {
                out.clear();
                cuts::append_clear(kernel, list, queen, out);
                counted.0 = out.as_slice();
            }
        } else {
            for ((list, weight), counted) in west.iter_mut().zip(weights).zip(&mut lists) {
                let kept = partition_clear(kernel, list, queen);
                *counted = (&list[..kept], weight);
            }
        }
        let lists = &lists[..counted];
        total += counter.count_weighted_disjoint(east, lists, per_load, halted)?;
    }
    Some(total)
}

/// How many of East's keys (of `parts`) are clear of a pin's `bars`.
pub(super) fn clear_by_east_queen(parts: &[EastPart], bars: u64) -> usize {
    let clear = |part: &EastPart| part.keys.iter().filter(|&&key| key & bars == 0).count();
    parts.iter().map(clear).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pin's queen holds a long diagonal exactly when its class says, and its bars
    /// are its two diagonals, inside the bands but on the first row (whose d1 East
    /// cannot reach) and the last (likewise its d2).
    #[test]
    fn a_pin_knows_its_queen() {
        for n in (4..=16).step_by(2) {
            let g = Geometry::new(n);
            let w = g.side;
            let all = ((1u64 << n) - 1) as u32;
            for (a, pin) in (0..n as u32).zip(inner_pins(&g, all)) {
                let long = a == w - 1 || a + w - 1 == n as u32 - 1;
                assert_eq!(pin.class, usize::from(long), "n = {n}, a = {a}");
                let edge = a == 0 || a == n as u32 - 1;
                let bars = if edge { 1 } else { 2 };
                assert_eq!(pin.east_bars.count_ones(), bars, "n = {n}, a = {a}");
                assert_eq!(pin.west_rows, all ^ 1 << a);
                assert_eq!(pin.west.columns, (1 << (w - 1)) - 1);
            }
        }
    }

    /// East's inner-column queens skip the two rows whose square is on a long diagonal;
    /// each one's bars are its two diagonals (one on the last row, whose d1 West cannot
    /// reach, and on the first, likewise its d2), and it attacks West's inner-column
    /// queen exactly on the rows beside its own, as their bars say.
    #[test]
    fn an_east_queen_knows_its_queen() {
        for n in (4..=16).step_by(2) {
            let g = Geometry::new(n);
            let w = g.side;
            let all = ((1u64 << n) - 1) as u32;
            let rows: Vec<u32> = (0..n as u32).filter(|&b| b != w && b + 1 != w).collect();
            let queens: Vec<EastQueen> = east_queens(&g, all).collect();
            assert_eq!(queens.len(), rows.len(), "n = {n}");
            for (&b, queen) in rows.iter().zip(&queens) {
                let edge = b == 0 || b == n as u32 - 1;
                assert_eq!(queen.bars.count_ones(), if edge { 1 } else { 2 });
                assert_eq!(queen.east_rows, all ^ 1 << b);
                assert_eq!(queen.east.columns, ((1 << w) - 1) ^ 1, "n = {n}, b = {b}");
                for (a, pin) in (0..n as u32).zip(inner_pins(&g, all)) {
                    let attacks = a + 1 == b || b + 1 == a;
                    assert_eq!(pin.east_bars & queen.bars != 0, attacks, "{n} {a} {b}");
                }
            }
        }
    }
}
