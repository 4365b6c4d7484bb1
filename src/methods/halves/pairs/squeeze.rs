//! Squeezing a load: its keys (patterns and items) packed down to the bits that can
//! clash, where that saves a chunk. A bit no pattern holds never clashes; where the items
//! given to the load are the ones it counts, neither does a bit no item holds. East's and
//! West's half-boards each hold diagonals the other half never reaches: at N = 28 the
//! patterns of a load use 46 to 49 bits and share only 38 to 41 with its items.

use super::PairCounter;
use super::held::held_bits;
use crate::methods::halves::sliced::Layout;

impl PairCounter {
    /// [`PairCounter::load_lists`] with the squeeze within `items_hold`, the bits the
    /// items to be counted may hold: all of them for any items, or [`held_bits`] of the
    /// items to be counted, which lets the squeeze also leave out the bits the patterns
    /// hold and no item does. A pin of N = 28 then takes 29 bits past its cut bits instead
    /// of 36 (chunks of 8 bits, not 9: blocks half the size). Counting an item that holds
    /// such a bit panics (see [`PairCounter::assert_squeeze_holds`]). Only where PEXT is
    /// fast, and only where the squeeze saves a chunk.
    pub(super) fn load_lists_within(
        &mut self,
        lists: &[(&[u64], u64)],
        items: &[&[u64]],
        items_hold: u64,
    ) {
        (self.squeeze, self.dropped_held) = (0, 0);
        self.bits = self.key_bits;
        if self.fast_extract {
            self.squeeze_to(held_bits(lists.iter().map(|&(list, _)| list)), items_hold);
        }
        self.load_keys(lists, items);
    }

    /// Squeezes the load to the bits its patterns hold (`held`) that the items may
    /// (`items_hold`), where that saves a chunk; else leaves it as it is.
    pub(super) fn squeeze_to(&mut self, held: u64, items_hold: u64) {
        let used = held & items_hold;
        let bits = used.count_ones().max(1);
        if Layout::for_bits(bits).chunks < Layout::for_bits(self.key_bits).chunks {
            (self.squeeze, self.bits) = (used, bits);
            self.dropped_held = held & !items_hold;
        }
    }

    /// Panics if an item of `lists` holds a bit that some loaded pattern holds and the
    /// squeeze left out: its clashes there would go uncounted. One pass over the items,
    /// only where the squeeze left such bits out.
    pub(super) fn assert_squeeze_holds(&self, lists: &[(&[u64], u64)]) {
        if self.dropped_held == 0 {
            return;
        }
        let held = held_bits(lists.iter().map(|&(items, _)| items));
        assert!(
            held & self.dropped_held == 0,
            "an item holds a bit the load's squeeze left out"
        );
    }
}
