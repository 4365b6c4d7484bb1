//! How a block's masks lie: the chunks a load's keys are cut into ([`Layout`]), the
//! blocks of 512 patterns ([`Bits512`] masks), and where an item's masks lie in a block;
//! shared by every kernel.

/// Patterns per block: one bit of a [`Bits512`] each.
pub const BLOCK: usize = 512;

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

    /// Masks per chunk.
    pub fn masks(self) -> usize {
        1 << self.width
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
            other => unreachable!("{other:?}: keys have at most 58 bits"),
        }
    };
}

/// The sum over lanes of their weight times their count.
#[inline(always)]
pub(super) fn weigh(lanes: [u64; 8], weights: &[u64; 8]) -> u64 {
    lanes
        .iter()
        .zip(weights)
        .map(|(count, weight)| count * weight)
        .sum()
}

/// Blocks an item meets in a row ([`item_masks`] once for them all). The chunks'
/// shifts and masks, done again for every block, were what bound the AVX-512 kernel;
/// four blocks (80 to 160 KB of masks) still sit in L2. `count 26 --shard 29/1000000`,
/// medians of 3: 13.5 s one block at a time, 11.8 s by four (8: 11.8, 16: 12.0, all
/// of a bucket: 12.2); count 18: 0.83 -> 0.78 s. The AVX2 kernel meets one block at a
/// time: the offsets of its eight items at once spill from the registers (tried: 19.7 ->
/// 21.8 s on that shard of N = 26, 1.09 -> 1.16 s on count 18).
pub(super) const TILE_BLOCKS: usize = 4;

/// Where in a block the masks that `item` selects lie, chunk by chunk (indices of
/// `Bits512` from the block's start): [`chunk_mask`]'s masks, computed once for a tile.
#[inline(always)]
pub(super) fn item_masks<const CHUNKS: usize, const WIDTH: u32>(item: u64) -> [usize; CHUNKS] {
    let masks = 1 << WIDTH;
    std::array::from_fn(|chunk| {
        chunk * masks + ((item >> (chunk as u32 * WIDTH)) as usize & (masks - 1))
    })
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
