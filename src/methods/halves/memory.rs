//! How much memory the join needs: its quadrant table, a shard's part of it, and each
//! worker's buffers, told before any work so that a run that cannot fit is refused.

//!
//! All of it is a function of the board (and of the count's shares): a run can be sized
//! before its plan exists.

use super::geometry::Geometry;
use super::quadrants::QuadrantTable;

/// Bytes the quadrant table for `n` needs, every slab built.
pub fn table_bytes(n: usize) -> u64 {
    let g = Geometry::new(n);
    QuadrantTable::bytes(g.side)
}

/// Bytes one worker's buffers (the keys of a row set, the bit-sliced patterns, the
/// south pieces) may reach on board `n`: an envelope of what was measured (peak
/// memory with more workers less with 1, per worker, on shards). Even boards (8 or 16
/// workers): N = 18: 1 MB, 20: 7.5 MB, 22: 37 MB; the envelope is 15 MB at N = 20 and
/// grows 2.5x per N. Odd boards, whose halves are a column narrower and thinned by
/// the centre's queens (4 workers): N = 21: 6 MB, 23: 28 MB, 25: 80 MB; the envelope
/// is 10 MB at N = 21 and grows 1.8x per N.
pub fn worker_bytes(n: usize) -> u64 {
    if n % 2 == 1 {
        (10e6 * 1.8f64.powi(n as i32 - 21)) as u64
    } else {
        (15e6 * 2.5f64.powi(n as i32 - 20)) as u64
    }
}

/// Bytes of the table a run needs that counts one of `parts` shares of the
/// `subproblems`: at most the slabs those touch, never more than the whole table.
/// An even board's row set touches four (north and south, east and west), and one
/// more for each of West's rows when counted pin by pin (see `inner`): `side + 4`; an
/// odd board's `side + 3` (see `cross`).
pub fn table_bytes_for(n: usize, subproblems: usize, parts: usize) -> u64 {
    let touched = subproblems.div_ceil(parts.max(1)) as u64;
    table_bytes(n).min(touched.saturating_mul(row_set_bytes(n)))
}

/// Bytes of the largest slabs one sub-problem of board `n` may touch (and so add to
/// the table while in hand): `side + 4` on an even board, `side + 3` on an odd one
/// (see [`table_bytes_for`]).
pub fn row_set_bytes(n: usize) -> u64 {
    let g = Geometry::new(n);
    let slabs = u64::from(g.side) + if g.is_cross() { 3 } else { 4 };
    slabs * QuadrantTable::slab_bytes(g.side)
}

/// Bytes a run of one of `parts` shares (1: the whole count) of a plan of
/// `subproblems` needs with `workers` workers: its part of the table and every
/// worker's buffers.
pub fn need_for_part(n: usize, subproblems: usize, workers: usize, parts: usize) -> u64 {
    table_bytes_for(n, subproblems, parts)
        .saturating_add((workers as u64).saturating_mul(worker_bytes(n)))
}
