//! How a block's masks lie: the chunks a load's keys are cut into ([`Layout`]: 6 or 7
//! bits, up to 10 for a part that many items meet), the blocks of 512 patterns
//! ([`Bits512`] masks), and where an item's masks lie in a block; shared by every kernel.

/// Patterns per block: one bit of a [`Bits512`] each.
pub const BLOCK: usize = 512;
/// Patterns per lane, the unit a weighted count weighs by: half a word of each mask
/// (the AVX-512 kernel counts a lane by VPOPCNTD).
pub(in crate::methods::halves) const LANE: usize = 32;
/// Lanes per block.
pub(in crate::methods::halves) const LANES: usize = BLOCK / LANE;

/// The widest chunks of [`Layout::for_visits`]: 10 bits, 1,024 masks (64 KB) a chunk,
/// so that keys of 30 bits past their cuts (N = 24 to 26) take three chunks, not four.
/// Against 9, one thread, medians of 3 alternating: `count 25 --shard 7/200000` 6.34 ->
/// 5.98 s, `count 26 --shard 7/1000000` 10.27 -> 10.01 s, a pin of N = 28 and shards of
/// N = 24 and 27 level. With 11, level with 10. (10 once made a pin of N = 28 take 60 s:
/// the kernels' tiles had lost their target features, see `avx512::by_tiles`.)
pub(in crate::methods::halves) const MAX_WIDTH: u32 = 10;
/// What building a mask costs, in loads of a mask by a kernel's visit. The kernels are
/// bound by their loads (on a Zen 4, masks always in L1 made a pin of N = 28 only 3%
/// faster), so a chunk fewer saves a visit a load. With 4, against 5 chunks of 7 bits
/// or 6 of 6 for all: pins of N = 28 (`count 28 --method halves --shard k/280840224
/// --threads 1`) 8 to 14% faster, `count 26 --shard 7/1000000 --threads 1` 12%, a pin
/// of N = 27 4%, shards of N = 23 and 24 level; count 18 level (with 2, 5% slower: its
/// parts are met by fewer items). With 1, 2 or 4, the large cases were level.
const MASK_COST: f64 = 4.0;

/// How a load's keys are cut into chunks: each chunk of `width` neighbouring key bits
/// selects one of `2^width` precomputed masks of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub chunks: usize,
    pub width: u32,
}

/// The most chunks of 7 bits a block has: 5 make 40 KB of masks a block; 6 (48 KB)
/// made count 21's shards 8% slower than 7 chunks of 6 bits (28 KB).
const MAX_WIDE_CHUNKS: u32 = 5;

impl Layout {
    /// The layout for keys of `bits` bits: chunks of 6 bits, or of 7 where that takes
    /// a chunk fewer (a load and AND less per item and block, for twice the masks of a
    /// chunk to build and hold), up to [`MAX_WIDE_CHUNKS`]. Count 18 by halves (keys of
    /// 32 to 34 bits: 5 chunks of 7 instead of 6 of 6), 2 threads, medians of 5: 1.05 ->
    /// 0.98 s on AVX-512, 1.16 -> 1.13 s on the AVX2 path; count 20 --shard 3/40: 1.38 ->
    /// 1.34 s and 1.54 -> 1.49 s; shards of N = 21 unchanged.
    pub fn for_bits(bits: u32) -> Layout {
        let (six, seven) = (bits.div_ceil(6).max(1), bits.div_ceil(7).max(1));
        if seven < six && seven <= MAX_WIDE_CHUNKS {
            Layout {
                chunks: seven as usize,
                width: 7,
            }
        } else {
            Layout {
                chunks: six as usize,
                width: 6,
            }
        }
    }

    /// The layout for a part of keys of `bits` bits whose blocks `visits` items will
    /// each visit: [`Layout::for_bits`]'s, or chunks of up to [`MAX_WIDTH`]
    /// bits where they take fewer chunks and the loads a visit saves outweigh the masks
    /// more to build (see [`MASK_COST`]).
    pub fn for_visits(bits: u32, visits: usize) -> Layout {
        let cost = |layout: &Layout| {
            visits as f64 * layout.chunks as f64 + MASK_COST * layout.block() as f64
        };
        // The first of equal costs: the load's own layout.
        let cheapest = Layout::choices(bits).min_by(|a, b| cost(a).total_cmp(&cost(b)));
        cheapest.expect("a layout for any width")
    }

    /// The layout of [`Layout::for_visits`] whose blocks are the largest.
    pub fn largest(bits: u32) -> Layout {
        let largest = Layout::choices(bits).max_by_key(|layout| layout.block());
        largest.expect("a layout for any width")
    }

    /// [`Layout::for_bits`]'s layout, then those of fewer chunks, each with the narrowest
    /// chunks that fit, up to [`MAX_WIDTH`] bits.
    fn choices(bits: u32) -> impl Iterator<Item = Layout> {
        let own = Layout::for_bits(bits);
        let fewest = bits.div_ceil(MAX_WIDTH).max(1) as usize;
        let wider = (fewest..own.chunks).map(move |chunks| Layout {
            chunks,
            width: bits.div_ceil(chunks as u32),
        });
        std::iter::once(own).chain(wider)
    }

    /// Masks per block.
    pub fn block(self) -> usize {
        self.chunks << self.width
    }
}

/// 512 bits, one per pattern of a block.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Bits512(pub [u64; 8]);

/// Calls `$kernel::<CHUNKS, WIDTH>($args)` with the layout as constants, so that each
/// kernel's chunk loop unrolls with constant shifts (the index arithmetic, not the memory,
/// is what a variable count costs).
macro_rules! with_layout {
    ($layout:expr, $kernel:ident($($args:expr),*)) => {
        match ($layout.chunks, $layout.width) {
            (1, 6) => $kernel::<1, 6>($($args),*),
            (2, 6) => $kernel::<2, 6>($($args),*),
            (3, 6) => $kernel::<3, 6>($($args),*),
            (4, 6) => $kernel::<4, 6>($($args),*),
            (5, 6) => $kernel::<5, 6>($($args),*),
            (6, 6) => $kernel::<6, 6>($($args),*),
            (7, 6) => $kernel::<7, 6>($($args),*),
            (8, 6) => $kernel::<8, 6>($($args),*),
            (9, 6) => $kernel::<9, 6>($($args),*),
            (10, 6) => $kernel::<10, 6>($($args),*),
            (1, 7) => $kernel::<1, 7>($($args),*),
            (2, 7) => $kernel::<2, 7>($($args),*),
            (3, 7) => $kernel::<3, 7>($($args),*),
            (4, 7) => $kernel::<4, 7>($($args),*),
            (5, 7) => $kernel::<5, 7>($($args),*),
            (6, 7) => $kernel::<6, 7>($($args),*),
            (7, 7) => $kernel::<7, 7>($($args),*),
            (8, 7) => $kernel::<8, 7>($($args),*),
            (9, 7) => $kernel::<9, 7>($($args),*),
            (1, 8) => $kernel::<1, 8>($($args),*),
            (2, 8) => $kernel::<2, 8>($($args),*),
            (3, 8) => $kernel::<3, 8>($($args),*),
            (4, 8) => $kernel::<4, 8>($($args),*),
            (5, 8) => $kernel::<5, 8>($($args),*),
            (6, 8) => $kernel::<6, 8>($($args),*),
            (7, 8) => $kernel::<7, 8>($($args),*),
            (8, 8) => $kernel::<8, 8>($($args),*),
            (1, 9) => $kernel::<1, 9>($($args),*),
            (2, 9) => $kernel::<2, 9>($($args),*),
            (3, 9) => $kernel::<3, 9>($($args),*),
            (4, 9) => $kernel::<4, 9>($($args),*),
            (5, 9) => $kernel::<5, 9>($($args),*),
            (6, 9) => $kernel::<6, 9>($($args),*),
            (7, 9) => $kernel::<7, 9>($($args),*),
            (1, 10) => $kernel::<1, 10>($($args),*),
            (2, 10) => $kernel::<2, 10>($($args),*),
            (3, 10) => $kernel::<3, 10>($($args),*),
            (4, 10) => $kernel::<4, 10>($($args),*),
            (5, 10) => $kernel::<5, 10>($($args),*),
            (6, 10) => $kernel::<6, 10>($($args),*),
            other => unreachable!("{other:?}: keys have at most 58 bits"),
        }
    };
}

/// The sum over `$patterns`, taken `$lanes` patterns a register and at most `$most`
/// registers at a time, of `$kernel::<GROUPS>(held, $items)` with `GROUPS` the
/// registers the patterns held take (a constant, so that the registers stay registers).
#[cfg(target_arch = "x86_64")]
macro_rules! plain_by_groups {
    ($patterns:expr, $items:expr, $lanes:expr, $kernel:ident, [$($groups:literal),+], $most:expr) => {
        $patterns
            .chunks($most * $lanes)
            .map(|held| match held.len().div_ceil($lanes) {
                $($groups => $kernel::<$groups>(held, $items),)+
                _ => $kernel::<$most>(held, $items),
            })
            .sum()
    };
}

/// The sum over lanes of their weight times their count.
#[inline(always)]
pub(super) fn weigh<Count: Copy + Into<u64>>(lanes: [Count; LANES], weights: &[u64; LANES]) -> u64 {
    lanes
        .iter()
        .zip(weights)
        .map(|(&count, weight)| count.into() * weight)
        .sum()
}

/// Blocks an item meets in a row ([`item_masks`] once for them all). The chunks'
/// shifts and masks, done again for every block, were what bound the AVX-512 kernel;
/// four blocks (80 to 160 KB of masks) still sit in L2. `count 26 --shard 29/1000000`,
/// medians of 3: 13.5 s one block at a time, 11.8 s by four (8: 11.8, 16: 12.0, all
/// of a bucket: 12.2); count 18: 0.83 -> 0.78 s. The AVX2 kernel meets one block at a
/// time: the offsets of its eight items at once spill from the registers (tried: 19.7 ->
/// 21.8 s on that shard of N = 26, 1.09 -> 1.16 s on count 18).
#[cfg(target_arch = "x86_64")]
pub(super) const TILE_BLOCKS: usize = 4;

/// Where in a block the masks that `item` selects lie, chunk by chunk (indices of
/// `Bits512` from the block's start): [`chunk_mask`]'s masks, computed once for a tile.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn item_masks<const CHUNKS: usize, const WIDTH: u32>(item: u64) -> [usize; CHUNKS] {
    let masks = 1 << WIDTH;
    std::array::from_fn(|chunk| {
        chunk * masks + ((item >> (chunk as u32 * WIDTH)) as usize & (masks - 1))
    })
}

/// Whether the last of the blocks (`block_len` masks each) holds patterns in its low
/// four words only (its first mask, chunk 0's value 0, is the patterns present): its
/// visits then load the masks' low halves. The AVX2 kernel then loads and adds up half
/// as much; so does the AVX-512 one on a CPU that splits 512-bit loads in two (Zen 4).
/// The blocks met hold patterns in 68 to 79% of their words at N = 26 to 28.
#[cfg(target_arch = "x86_64")]
pub(super) fn half_last(sliced: &[Bits512], block_len: usize) -> bool {
    sliced.len() >= block_len && sliced[sliced.len() - block_len].0[4..] == [0; 4]
}

/// The mask of `block` that item `item` selects for chunk `chunk`.
#[inline(always)]
pub(super) fn chunk_mask<const CHUNKS: usize, const WIDTH: u32>(
    block: &[Bits512],
    item: u64,
    chunk: usize,
) -> &Bits512 {
    let masks = 1 << WIDTH;
    assert!(block.len() == CHUNKS * masks && chunk < CHUNKS);
    // The item's chunk as a byte offset, in two instructions (shift, and): the item is
    // scaled by the size of a mask first, once for all its chunks (keys have at most
    // `MAX_KEY_BITS` bits, so nothing is shifted out).
    const SCALE: u32 = size_of::<Bits512>().trailing_zeros();
    let scaled = item << SCALE;
    let offset = (scaled >> (chunk as u32 * WIDTH)) as usize & ((masks - 1) << SCALE);
    // SAFETY: `offset` is a multiple of the mask's size, below `masks` masks, and
    // chunk `chunk`'s masks lie inside `block` (asserted above, for constants).
    unsafe {
        &*block
            .as_ptr()
            .add(chunk * masks)
            .cast::<u8>()
            .add(offset)
            .cast::<Bits512>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_visits_take_fewer_wider_chunks() {
        // 36 bits: six chunks of 6 bits, or four of 9 (2,048 masks a block, not 384).
        assert_eq!(Layout::for_visits(36, 0), Layout::for_bits(36));
        assert_eq!(Layout::for_visits(36, 1_000), Layout::for_bits(36));
        let wide = Layout {
            chunks: 4,
            width: 9,
        };
        assert_eq!(Layout::for_visits(36, 100_000), wide);
        assert_eq!(Layout::largest(36), wide);
        // 37 bits: four chunks of 10 where four of 9 cannot hold them; 41 bits: five of 9.
        assert_eq!(
            Layout::for_visits(37, 100_000),
            Layout {
                chunks: 4,
                width: 10
            }
        );
        assert_eq!(
            Layout::for_visits(41, 100_000),
            Layout {
                chunks: 5,
                width: 9
            }
        );
        // Keys that one chunk of 7 holds have nothing wider to take.
        assert_eq!(Layout::for_visits(7, 1 << 30), Layout::for_bits(7));
        for bits in 1..=58 {
            let layout = Layout::for_visits(bits, 1 << 30);
            assert!(layout.chunks as u32 * layout.width >= bits && layout.width <= MAX_WIDTH);
            assert!(Layout::largest(bits).block() >= layout.block());
        }
    }
}
