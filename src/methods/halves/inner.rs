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
//! whose East has fewer than [`PIN_FROM`] half-boards are counted whole.

use super::geometry::{Bars, Geometry, Half};

/// East's half-boards from which a row set is counted pin by pin. Instructions counted
/// (callgrind, slab building left out) on `count 22 --shard 3/8000`: 12.6 G whole, 10.1 G
/// pinned from 10,000 half-boards, 10.6 G from 30,000; on `count 20 --shard 3/400`
/// (East's largest: 27,311): 3.8 G whole, 4.5 G pinned from 10,000.
pub(super) const PIN_FROM: usize = 30_000;

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
}
