//! One worker's buffers for counting the join's sub-problems, kept from one to the next
//! so that a count allocates them once per thread.

use super::half_boards::HalfScratch;
use super::pairs::PairCounter;
use super::pairs::presorted::Presorted;
use crate::cpu::Kernel;

/// One thread's buffers: the east keys of the row set in hand, the west keys by weight.
pub struct Scratch {
    pub(super) kernel: Kernel,
    pub(super) counter: PairCounter,
    pub(super) patterns: Vec<u64>,
    /// The even row set whose East's keys `patterns` holds whole, if any (kept from one
    /// pin to the next of the same row set).
    pub(super) east_of: Option<u32>,
    /// East's keys clear of one pin's bars.
    pub(super) cleared: Vec<u64>,
    /// The west keys by class (0, 1 or 2 long diagonals held).
    pub(super) classes: [Vec<u64>; 3],
    pub(super) half: HalfScratch,
    /// East's keys by its inner-column queen, where East is built queen by queen
    /// (`inner`; `patterns` is then empty); else empty.
    pub(super) east_parts: Vec<EastPart>,
    /// On an odd board, West's keys of the pins counted together, each with its pin's
    /// East bars.
    pub(super) west_of_pins: Vec<u64>,
    /// A pin's West sorted once for its loads against each of East's parts (`inner`).
    pub(super) presorted: Presorted,
}

impl Scratch {
    /// Empty buffers for `kernel`, and a pair counter for keys of `key_bits` bits.
    pub(super) fn new(kernel: Kernel, key_bits: u32) -> Scratch {
        Scratch {
            kernel,
            counter: PairCounter::new(key_bits, kernel),
            patterns: Vec::new(),
            east_of: None,
            cleared: Vec::new(),
            classes: Default::default(),
            half: HalfScratch::new(kernel),
            east_parts: Vec::new(),
            west_of_pins: Vec::new(),
            presorted: Presorted::new(kernel),
        }
    }

    /// How many keys East has, whole or by queen.
    pub(super) fn east_len(&self) -> usize {
        let parts = self.east_parts.iter().map(|part| part.keys.len());
        self.patterns.len() + parts.sum::<usize>()
    }
}

/// The keys of East's half-boards with one queen on its inner column (`inner`), each
/// with that queen's bars, and the bars.
pub struct EastPart {
    pub(super) keys: Vec<u64>,
    pub(super) bars: u64,
}
