//! A bucket's (or a part's) blocks: built once for every item that meets them, in the
//! load's layout or, where many items meet them, in fewer and wider chunks; and the few
//! patterns too few to build compared one by one.

use super::{LISTS, PairCounter, Parts};
use crate::methods::halves::blocks;
use crate::methods::halves::sliced::{self, Layout};

impl PairCounter {
    /// Room for `blocks` blocks in `sliced` (empty), allocated anew where it grows:
    /// growing would copy the old contents, of no use.
    pub(super) fn reserve_blocks(&mut self, blocks: usize) {
        let largest = Layout::largest(self.bits - self.cuts as u32);
        let needed = blocks * largest.block();
        if self.sliced.capacity() < needed {
            // The old one first let go of, so that the two are never held at once.
            self.sliced = Vec::new();
            self.sliced.reserve_exact(needed);
        }
    }

    /// How many pairs of the patterns of `parts` and `items` share no bit, the patterns
    /// compared one by one.
    pub(super) fn count_plain_part(&self, parts: &Parts, items: &[u64]) -> u64 {
        let lists = self.patterns.iter().zip(parts).zip(self.weights);
        lists
            .map(|((list, part), weight)| {
                weight * sliced::count_plain(self.kernel, &list[part.clone()], items)
            })
            .sum()
    }

    /// Builds the blocks of the patterns of `parts` in `sliced` (where several lists or
    /// weights are loaded, each list from a lane of its own), for `meeting` items to
    /// meet them.
    pub(super) fn build_part(&mut self, parts: &Parts, meeting: usize) {
        self.sliced.clear();
        self.built = None;
        self.built_layout = self.part_layout(meeting);
        let layout = self.built_layout;
        let weighted = self.weighted();
        let lacking = &mut self.lacking[..self.bits as usize];
        if weighted {
            let lists: [(&[u64], u64); LISTS] =
                std::array::from_fn(|l| (&self.patterns[l][parts[l].clone()], self.weights[l]));
            let (sliced, lanes) = (&mut self.sliced, &mut self.lanes);
            let lists = &lists[..self.lists];
            blocks::build_weighted(self.kernel, lists, layout, lacking, sliced, lanes);
        } else {
            let part = &self.patterns[0][parts[0].clone()];
            blocks::build(self.kernel, part, layout, lacking, &mut self.sliced);
        }
    }

    /// How a part's blocks lie, met by `meeting` items: the load's chunks, or wider
    /// ones where the loads they save each item outweigh the masks they add.
    pub(super) fn part_layout(&self, meeting: usize) -> Layout {
        Layout::for_visits(self.bits - self.cuts as u32, meeting)
    }

    /// How many pairs of the built blocks' patterns and `items` share no bit.
    pub(super) fn count_built(&self, items: &[u64]) -> u64 {
        let layout = self.built_layout;
        if self.weighted() {
            let weights = &self.lanes.weights;
            sliced::count_weighted(self.kernel, &self.sliced, layout, items, weights)
        } else {
            sliced::count(self.kernel, &self.sliced, layout, items)
        }
    }
}
