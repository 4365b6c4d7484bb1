//! A fixed pseudo-random order of sub-problem ids: deterministic (a function of the board
//! alone), so every run and every shard agrees on it, and scattered, so that any run of it
//! is a fair sample of the whole (the join's shards, the estimate's sample).
//!
//! The order is computed position by position, never listed: a shard of a board with
//! hundreds of millions of sub-problems finds its own ids in time and memory of its own
//! size. It is a Feistel network over the smallest even number of bits that holds the
//! ids, walked until it lands inside them (cycle walking): a bijection of `0..len`.

/// The ids `0..len` in a pseudo-random order fixed by `n`.
#[derive(Clone, Copy, Debug)]
pub struct Shuffle {
    len: usize,
    /// Bits of each half of the Feistel network's word.
    half_bits: u32,
    seed: u64,
}

/// Rounds of the network: four make a pseudo-random permutation of a good round function.
const ROUNDS: u64 = 4;

impl Shuffle {
    /// The order of `0..len` for board `n`.
    pub fn new(len: usize, n: usize) -> Shuffle {
        let bits = usize::BITS - len.saturating_sub(1).leading_zeros();
        Shuffle {
            len,
            half_bits: bits.div_ceil(2).max(1),
            seed: (n as u64) << 48,
        }
    }

    /// How many ids.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The id at `position` (below [`Shuffle::len`]).
    pub fn at(&self, position: usize) -> usize {
        assert!(position < self.len, "position {position} of {}", self.len);
        // The network maps the word's range onto itself; walking on from a word outside
        // `0..len` ends inside it, and never at another position's id.
        let mut word = position as u64;
        loop {
            word = self.network(word);
            if word < self.len as u64 {
                return word as usize;
            }
        }
    }

    /// The ids in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).map(|position| self.at(position))
    }

    /// One pass of the Feistel network over words of `2 * half_bits` bits.
    fn network(&self, word: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let (mut left, mut right) = (word >> self.half_bits, word & mask);
        for round in 0..ROUNDS {
            let f = mix(right ^ self.seed ^ round << 40) & mask;
            (left, right) = (right, left ^ f);
        }
        left << self.half_bits | right
    }
}

/// SplitMix64's finaliser: a fixed bijection of u64 that scatters neighbouring words.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_is_a_fixed_permutation_of_every_length() {
        for len in (0..300).chain([1000, 4096, 4097, 100_000]) {
            let order: Vec<usize> = Shuffle::new(len, 20).iter().collect();
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..len).collect::<Vec<_>>(), "len {len}");
            let again: Vec<usize> = Shuffle::new(len, 20).iter().collect();
            assert_eq!(order, again, "fixed");
            if len >= 16 {
                assert_ne!(order, sorted, "scattered: len {len}");
            }
        }
        let other: Vec<usize> = Shuffle::new(1000, 21).iter().collect();
        assert_ne!(other, Shuffle::new(1000, 20).iter().collect::<Vec<_>>());
    }

    /// Any run of the order is a fair sample: a tenth of it holds about a tenth of every
    /// tenth of the ids.
    #[test]
    fn a_run_of_the_order_is_spread_over_the_ids() {
        let (len, tenth) = (100_000, 10_000);
        let order = Shuffle::new(len, 24);
        for start in [0, 45_000, 90_000] {
            let mut per_tenth = [0usize; 10];
            for position in start..start + tenth {
                per_tenth[order.at(position) / tenth] += 1;
            }
            assert!(
                per_tenth.iter().all(|&k| (800..1200).contains(&k)),
                "{per_tenth:?}"
            );
        }
    }

    /// A position of a long order is found without listing the others, and distinct
    /// positions give distinct ids.
    #[test]
    fn a_position_of_a_long_order_is_found_alone() {
        let order = Shuffle::new(280_000_000, 28);
        let mut ids: Vec<usize> = (0..1000).map(|p| order.at(p * 279_999)).collect();
        assert!(ids.iter().all(|&id| id < 280_000_000));
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 1000);
    }
}
