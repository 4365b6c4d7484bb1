//! Which side of a count of disjoint pairs to load as patterns ([`PairCounter`]'s
//! `count_weighted_disjoint`): the keys, counted against every list of items at once, or
//! each list in turn, counted against the keys. A model of the time each takes, by the
//! patterns loaded, the keys sorted by cut bits and the blocks the items visit. The
//! smaller side is not always the one: a larger load takes more cut bits, and each item
//! then visits a smaller share of it.
//!
//! [`PairCounter`]: super::pairs::PairCounter

use super::sliced::BLOCK;

/// The cost model's constants ([`cost`]), in nanoseconds, rough: a
/// pattern's share of building blocks, a key's sorting by cut (patterns and items, where
/// a load has cuts), and an item's visit to a block. Only their balance matters. Against
/// a first model (6 ns a pattern loaded whether cut or not), this one took the
/// instructions of `count 16 --threads 1 --kernel avx2` from 1,128.8 M to 1,115.3 M (the
/// build before either: 1,112.6 M), the frontier's shards within 2%; with the
/// first model's balance scaled by 1/4, 1/2, 2, 4 and 1000, shards of N = 20, 24, 25 and
/// 27 took as long or longer than at 1 (N = 25's shard 7/200000: 5.0, 4.5, 4.1, 4.0,
/// 4.1 s against 3.9 s).
const BUILD_NS: f64 = 3.0;
const SORT_NS: f64 = 4.0;
const VISIT_NS: f64 = 1.5;
/// The share of the pairs still compared that a cut bit more skips, about: 8 cuts then
/// leave 10% of the pairs, 12 cuts 3.2%.
const SKIPPED_BY_A_CUT: f64 = 0.25;

/// The side of a count that is loaded as patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The keys, counted against every list at once.
    Keys,
    /// Each list in turn, counted against the keys.
    Lists,
}

/// The side to load to count `keys` keys against lists of `lists` items each, `per_load`
/// patterns a load, where a load of `p` patterns against `i` items takes `cuts_for(p, i)`
/// cut bits.
pub fn side_to_load(
    keys: usize,
    lists: &[usize],
    per_load: usize,
    cuts_for: impl Fn(usize, usize) -> usize,
) -> Side {
    let keys_loaded = cost(keys, lists.iter().sum(), per_load, &cuts_for);
    let lists_loaded: f64 = lists
        .iter()
        .map(|&list| cost(list, keys, per_load, &cuts_for))
        .sum();
    if keys_loaded <= lists_loaded {
        Side::Keys
    } else {
        Side::Lists
    }
}

/// About how long counting `items` items against `patterns` patterns takes when the
/// patterns are loaded, `per_load` at a time (in nanoseconds, a model: the blocks built,
/// the keys sorted where a load has cuts, and the blocks the items visit, a share
/// [`SKIPPED_BY_A_CUT`] fewer with each cut). Only compared with itself.
fn cost(
    patterns: usize,
    items: usize,
    per_load: usize,
    cuts_for: &impl Fn(usize, usize) -> usize,
) -> f64 {
    let mut total = 0.0;
    let mut left = patterns;
    while left > 0 {
        let load = left.min(per_load.max(1));
        left -= load;
        let cuts = cuts_for(load, items);
        // A load with cuts sorts its patterns and the items by them.
        let sorted = if cuts > 0 { load + items } else { 0 };
        // One bucket fills whole blocks; of many, the last block is half empty on
        // average.
        let blocks = if cuts == 0 {
            load.div_ceil(BLOCK) as f64
        } else {
            load as f64 / BLOCK as f64 + (1 << cuts) as f64 / 2.0
        };
        let visits = blocks * items as f64 * (1.0 - SKIPPED_BY_A_CUT).powi(cuts as i32);
        total += BUILD_NS * load as f64 + SORT_NS * sorted as f64 + VISIT_NS * visits;
    }
    total
}
