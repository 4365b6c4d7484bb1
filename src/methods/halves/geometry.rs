//! Where the halves, quadrants and contact keys of a board lie (see the [`super`] docs).

/// Marks a key whose east half-board has a queen on the centre square (odd `n`).
pub(super) const CENTRAL: u64 = 1 << 63;

/// Where the halves and quadrants lie on an `n` x `n` board.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry {
    pub(super) n: u32,
    /// Columns of West, and rows of North.
    pub(super) west: u32,
    /// Columns of East, and the side of the quadrant table.
    pub(super) side: u32,
    /// `n - 1` low bits: one band of diagonals.
    pub(super) band: u64,
}

/// One of the two halves, as the quadrant placements see it.
#[derive(Clone, Copy)]
pub(super) struct Half {
    /// First column.
    pub(super) column: u32,
    /// Columns.
    pub(super) width: u32,
    pub(super) east: bool,
}

impl Geometry {
    pub(super) fn new(n: usize) -> Geometry {
        let n = n as u32;
        Geometry {
            n,
            west: n / 2,
            side: n - n / 2,
            band: (1u64 << (n - 1)) - 1,
        }
    }

    pub(super) fn east(&self) -> Half {
        Half {
            column: self.west,
            width: self.side,
            east: true,
        }
    }

    pub(super) fn west(&self) -> Half {
        Half {
            column: 0,
            width: self.west,
            east: false,
        }
    }

    /// Bits of the key: the d1 band, then the d2 band.
    pub(super) fn key_bits(&self) -> u32 {
        2 * (self.n - 1)
    }

    /// The key bit of the main diagonal (`r = c`, d2 = n - 1).
    pub(super) fn main_diagonal(&self) -> u64 {
        1 << (self.n - 1 + self.west - 1)
    }

    /// The key bits of both long diagonals.
    pub(super) fn long_diagonals(&self) -> u64 {
        self.main_diagonal() | self.anti_diagonal()
    }

    /// The key bit of the anti-diagonal (`r + c = n - 1`, d1 = n - 1).
    pub(super) fn anti_diagonal(&self) -> u64 {
        1 << (self.side - 1)
    }

    /// The contact key of a quadrant placement whose local square (0, 0) is the board's
    /// (`row`, `column`). Board diagonals: d1 = r + c, d2 = r - c + n - 1; the bands are
    /// d1 in `[w, n + w - 2]` and d2 in `[n - w, 2n - 2 - w]`.
    pub(super) fn key_shape(&self, row: u32, column: u32) -> KeyShape {
        let (row, column, west, side) = (
            i64::from(row),
            i64::from(column),
            i64::from(self.west),
            i64::from(self.side),
        );
        let (d1, d2) = (row + column - west, row - column + west - side);
        KeyShape {
            d1_left: d1.max(0) as u32,
            d1_right: (-d1).max(0) as u32,
            d2_left: d2.max(0) as u32,
            d2_right: (-d2).max(0) as u32,
            band: self.band,
            d2_at: self.n - 1,
        }
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

/// Reverses the low `n` bits: row `r` becomes row `n - 1 - r`.
pub(super) fn reverse_rows(rows: u32, n: u32) -> u32 {
    rows.reverse_bits() >> (32 - n)
}

/// Where a quadrant's diagonals fall in the contact key: shifts for each band.
#[derive(Clone, Copy)]
pub(super) struct KeyShape {
    d1_left: u32,
    d1_right: u32,
    d2_left: u32,
    d2_right: u32,
    pub(super) band: u64,
    d2_at: u32,
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
