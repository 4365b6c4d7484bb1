//! Where the halves, quadrants and contact keys of a board lie (see the [`super`] docs).

/// Where the halves and quadrants lie on an `n` x `n` board.
///
/// An even board splits into four quadrants of side `n / 2`. An odd board (`n = 2m + 1`)
/// splits around its centre row and column into four quadrants of side `m`, the centre
/// row and column being placed apart (see `cross`): the south quadrants start at row
/// `m + 1`, the east ones at column `m + 1`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry {
    pub(super) n: u32,
    /// Columns of a half, rows of North, and the side of every quadrant.
    pub(super) side: u32,
    /// The first row of South, and the first column of East.
    pub(super) south_row: u32,
    /// The lowest diagonal of both contact bands (d1 and d2 alike).
    low: u32,
    /// Diagonals in one band.
    band_bits: u32,
    /// `band_bits` low bits: one band of diagonals.
    pub(super) band: u64,
}

/// One of the two halves, as the quadrant placements see it.
#[derive(Clone, Copy)]
pub(super) struct Half {
    /// First column.
    pub(super) column: u32,
    /// The columns it uses, in its quadrants' frame (all `side` of them, or all but the
    /// column of the centre row's queen).
    pub(super) columns: u32,
    pub(super) east: bool,
    /// Diagonals no queen of this half may take (those of the queens of the centre row
    /// and column), in its north and south quadrants' frames (`d1 | d2 << 32`).
    pub(super) blocked: [u64; 2],
}

impl Geometry {
    pub(super) fn new(n: usize) -> Geometry {
        let n = n as u32;
        let side = n / 2;
        // Each band holds the diagonals both halves reach: d1 in [low, n - 1 + side - 1]
        // (West's largest), d2 likewise; an odd board's middle column is neither's.
        let south_row = n - side;
        let low = south_row;
        // No band on a board of 0 or 1 (whose sizes are still asked for: `auto_method`
        // weighs the join's memory for every N); an unoptimized build stopped on the
        // overflow there.
        let band_bits = (n + side).saturating_sub(1 + low);
        Geometry {
            n,
            side,
            south_row,
            low,
            band_bits,
            band: (1u64 << band_bits) - 1,
        }
    }

    /// Whether the board is odd: split around its centre row and column.
    pub(super) fn is_cross(&self) -> bool {
        self.n % 2 == 1
    }

    /// A half with every column, nothing blocked.
    pub(super) fn half(&self, east: bool) -> Half {
        Half {
            column: if east { self.south_row } else { 0 },
            columns: (1 << self.side) - 1,
            east,
            blocked: [0; 2],
        }
    }

    /// Bits of the key: the d1 band, then the d2 band.
    pub(super) fn key_bits(&self) -> u32 {
        2 * self.band_bits
    }

    /// The key bit of the main diagonal (`r = c`, d2 = n - 1); an even board's.
    pub(super) fn main_diagonal(&self) -> u64 {
        1 << (self.band_bits + self.n - 1 - self.low)
    }

    /// The key bits of both long diagonals; an even board's.
    pub(super) fn long_diagonals(&self) -> u64 {
        self.main_diagonal() | self.anti_diagonal()
    }

    /// The key bit of the anti-diagonal (`r + c = n - 1`, d1 = n - 1); an even board's.
    pub(super) fn anti_diagonal(&self) -> u64 {
        1 << (self.n - 1 - self.low)
    }

    /// The contact key of a quadrant placement whose local square (0, 0) is the board's
    /// (`row`, `column`). Board diagonals: d1 = r + c, d2 = r - c + n - 1; a local d1 `i`
    /// is the board's `i + row + column`, a local d2 `j` the board's
    /// `j + row - column + n - side`; the key holds each band from `low`.
    pub(super) fn key_shape(&self, row: u32, column: u32) -> KeyShape {
        let (d1, d2) = self.local_offsets(row, column);
        let (d1, d2) = (d1 - i64::from(self.low), d2 - i64::from(self.low));
        KeyShape {
            d1_left: d1.max(0) as u32,
            d1_right: (-d1).max(0) as u32,
            d2_left: d2.max(0) as u32,
            d2_right: (-d2).max(0) as u32,
            band: self.band,
            d2_at: self.band_bits,
        }
    }

    /// The board's d1 and d2 of a quadrant's local diagonals 0, for the quadrant whose
    /// local (0, 0) is the board's (`row`, `column`).
    fn local_offsets(&self, row: u32, column: u32) -> (i64, i64) {
        let (row, column) = (i64::from(row), i64::from(column));
        let (n, side) = (i64::from(self.n), i64::from(self.side));
        (row + column, row - column + n - side)
    }

    /// The key bits of these board diagonals (bit sets over `0 .. 2n - 1`) inside the
    /// bands; those outside left out.
    pub(super) fn key_of_diagonals(&self, d1: u64, d2: u64) -> u64 {
        (d1 >> self.low & self.band) | (d2 >> self.low & self.band) << self.band_bits
    }

    /// Board diagonals (`d1`, `d2`: bit sets over `0 .. 2n - 1`) in the frame of the
    /// quadrant at (`row`, `column`): `d1 | d2 << 32`, those outside it dropped.
    pub(super) fn local_diagonals(&self, d1: u64, d2: u64, row: u32, column: u32) -> u64 {
        let (o1, o2) = self.local_offsets(row, column);
        let inside = (1u64 << (2 * self.side - 1)) - 1;
        let local = |set: u64, offset: i64| {
            let moved = if offset >= 0 {
                set >> offset
            } else {
                set << -offset
            };
            moved & inside
        };
        local(d1, o1) | local(d2, o2) << 32
    }
}

/// The diagonals some queens placed apart from the halves take, as board bit sets:
/// bit `r + c` of `d1`, bit `r - c + n - 1` of `d2`.
#[derive(Clone, Copy)]
pub(super) struct Bars {
    pub(super) d1: u64,
    pub(super) d2: u64,
}

impl Bars {
    /// The diagonals of the queen on (`row`, `column`).
    pub(super) fn of_queen(g: &Geometry, row: u32, column: u32) -> Bars {
        Bars {
            d1: 1 << (row + column),
            d2: 1 << (row + g.n - 1 - column),
        }
    }

    /// These diagonals and `other`'s.
    pub(super) fn and(self, other: Bars) -> Bars {
        Bars {
            d1: self.d1 | other.d1,
            d2: self.d2 | other.d2,
        }
    }

    /// The contact-key bits of these diagonals (those outside the bands left out).
    pub(super) fn key(self, g: &Geometry) -> u64 {
        g.key_of_diagonals(self.d1, self.d2)
    }

    /// A half with these diagonals barred in both its quadrants, without its column
    /// `lost` (in the quadrants' frame).
    pub(super) fn half(self, g: &Geometry, east: bool, lost: Option<u32>) -> Half {
        let mut half = g.half(east);
        if let Some(column) = lost {
            half.columns ^= 1 << column;
        }
        half.blocked =
            [0, g.south_row].map(|row| g.local_diagonals(self.d1, self.d2, row, half.column));
        half
    }
}

/// Calls `f` with every `k`-element subset of `0..width`, in increasing order.
#[inline(always)]
pub(super) fn for_each_subset(width: u32, k: u32, mut f: impl FnMut(u32)) {
    if k > width {
        return;
    }
    if k == 0 {
        f(0);
        return;
    }
    let end = 1u64 << width;
    let mut set = (1u64 << k) - 1;
    while set < end {
        f(set as u32);
        // Gosper's hack: the next larger set with as many bits.
        let low = set & set.wrapping_neg();
        let ripple = set + low;
        set = ripple | (((set ^ ripple) >> 2) / low);
    }
}

/// Calls `f` with every `k`-element subset of the set bits of `mask` (`mask < 2^31`), in
/// increasing order.
#[inline(always)]
pub(super) fn for_each_subset_of(mask: u32, k: u32, mut f: impl FnMut(u32)) {
    let width = 32 - mask.leading_zeros();
    for_each_subset(width, k, |set| {
        if set & !mask == 0 {
            f(set);
        }
    });
}

/// Reverses the low `n` bits: row `r` becomes row `n - 1 - r`.
pub(super) fn reverse_rows(rows: u32, n: u32) -> u32 {
    rows.reverse_bits() >> (32 - n)
}

/// Where a quadrant's diagonals fall in the contact key: shifts for each band (those
/// of [`KeyShape::key`], which the vector kernels apply to eight pieces at once).
#[derive(Clone, Copy)]
pub(super) struct KeyShape {
    pub(super) d1_left: u32,
    pub(super) d1_right: u32,
    pub(super) d2_left: u32,
    pub(super) d2_right: u32,
    pub(super) band: u64,
    pub(super) d2_at: u32,
}

impl KeyShape {
    /// The contact key of a piece (`d1 | d2 << 32`) placed in this quadrant.
    #[inline(always)]
    pub(super) fn key(&self, piece: u64) -> u64 {
        let (d1, d2) = (piece & 0xffff_ffff, piece >> 32);
        let k1 = ((d1 << self.d1_left) >> self.d1_right) & self.band;
        let k2 = ((d2 << self.d2_left) >> self.d2_right) & self.band;
        k1 | k2 << self.d2_at
    }
}
