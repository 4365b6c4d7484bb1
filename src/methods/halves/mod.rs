//! The half-board join: a second counting method, for the larger boards.
//!
//! # The identity
//! On an even board, `n = 2w`, split the columns into West `[0, w)` and East `[w, n)`. A
//! solution is exactly a set `R` of `w` rows (those whose queen stands in East), an
//! *east half-board* (a queen on each row of `R` and each column of East, no two on a
//! diagonal), a *west half-board* on the other rows, and no diagonal shared between the
//! halves. Rows and columns take care of themselves:
//!
//! ```text
//! total = sum over R of #{ (e, w) : e and w share no diagonal }
//! ```
//!
//! Only a band of `n - 1` diagonals of each direction can hold queens of both halves, so a
//! half-board's *contact key* (its diagonals inside the two bands) has `2n - 2` bits, and
//! for one `R` the count is the number of (east key, west key) pairs whose AND is zero:
//! [`pairs`] counts those in bulk.
//!
//! An odd board, `n = 2m + 1`, is split around its centre row and column (see `cross`):
//! their two queens are placed first, and the others form halves of `m` columns (one
//! less where the centre row's queen stands), barred from those queens' diagonals. The
//! bands are then `n - 2` diagonals wide.
//!
//! # Half-boards from quadrants
//! Rows split into North `[0, w)` and South (the rest, past the centre row on an odd
//! board). An east half-board is a north-east quadrant placement on the rows of `R` in
//! North and some `k` columns of East, and a south-east placement on the rest of `R` and
//! the other columns, sharing no diagonal. Every quadrant is a `w` x `w` square (`m` x `m`
//! on an odd board), so one table of that square's placements ([`quadrants`]) serves all
//! four quadrants and every `R`.
//!
//! # Symmetry
//! On an even board, let `m` say where the queen on the main diagonal (`r = c`) stands,
//! `a` where the queen on the anti-diagonal (`r + c = n - 1`) stands: West, East, or none.
//! - The transpose fixes the main diagonal square by square and maps the anti-diagonal
//!   square `(i, n-1-i)` to `(n-1-i, i)`, which is in the other half. So
//!   `#(m, a = W) = #(m, a = E)`. Likewise the anti-transpose gives
//!   `#(m = W, a) = #(m = E, a)`. Hence
//!   `total = #(-,-) + 2 #(-,W) + 2 #(W,-) + 4 #(W,W)`: east half-boards with a queen on
//!   either long diagonal are dropped, and a west half-board counts 2 for each long
//!   diagonal it occupies.
//! - The north-south reflection maps the solutions on `R` one to one onto those on its
//!   reverse, keeping East east and swapping `m` and `a` (sides kept): the weights above
//!   are symmetric in `m` and `a`, so only row sets `R <= reverse(R)` are counted, with
//!   weight 2 when `R < reverse(R)` (the sub-problem weight).
//! - The east-west reflection maps the solutions on `R` onto those on its complement, and
//!   the class `(-,-)` onto itself. Among counted row sets the partner of `R` is
//!   `R' = reverse(complement(R))`, also counted and with the same weight; so the west
//!   half-boards of class `(-,-)` count 2 on the smaller of `R` and `R'`, 0 on the larger
//!   (their matching is skipped), 1 when `R = R'`. Over each orbit of row sets the
//!   weights add up to the orbit's size; the tests check the total against brute force.
//!
//! An odd board uses all eight symmetries on the queens of its centre row and column
//! (see `cross`). An even board's large row sets are counted queen by queen of West's
//! inner column (see `inner`), and from N = 28 each of those pins against East queen by
//! queen of East's inner column, which changes no weight: each pair is met once.
//!
//! The unique count and the orbit split come, as for backtracking, from the
//! rotation-fixed searches and Burnside: this method delivers the total.
//!
//! # Sub-problems
//! On an even board, sub-problem `i` is the `i`-th counted row set in increasing order
//! (from N = 28, whose row sets take up to twenty minutes, sub-problem `i * w + j` is the
//! `i`-th row set's `j`-th pin, see `inner` and `join`); on an odd board, the `i`-th of
//! East's row sets (`cross`; from N = 27, each row set's pins apart by the centre
//! column's queen): a pure function of `n`. The
//! quadrant table is shared by the workers and built by need, one slab of pieces per
//! quadrant row set, the first time a row set asks for it: a shard of a few row sets
//! builds a few slabs. Each worker keeps its own buffers for the keys of the row set it is
//! counting.
//!
//! # Files
//! [`geometry`] says where halves, quadrants and keys lie; [`quadrants`] holds the table of
//! quadrant placements; [`half_boards`] builds a row set's half-boards from it (pairing pieces by
//! `piece_pairs`' kernels); [`pairs`] counts the disjoint pairs, loading the side
//! `load_side` chooses (`cuts` sorts keys into buckets, `blocks` slices a bucket, `sliced`
//! counts its blocks); `cross` splits an odd board around its centre; `inner` splits
//! an even board's large row sets by West's inner-column queen (and East's); [`join`] is
//! the method: its sub-problems, weights and worker loop, [`scratch`] each worker's
//! buffers; `memory` what it needs; [`sample`] its projection.

mod blocks;
mod cross;
mod cuts;
pub mod geometry;
pub mod half_boards;
mod inner;
pub mod join;
mod load_side;
mod meet;
pub mod memory;
pub mod method;
pub mod pairs;
mod partition;
mod piece_pairs;
pub mod quadrants;
pub mod sample;
pub mod scratch;
mod sliced;
