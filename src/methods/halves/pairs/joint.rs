//! Cut bits chosen jointly: each cut bit is the one that skips the most of the sampled
//! pairs that the bits already chosen leave, rather than the one held by the most pairs
//! on its own. The bits of a half-board's key hang together (a queen holds one diagonal
//! of each kind, neighbouring diagonals exclude each other), so the bits held by the
//! most pairs on their own skip many of the same pairs.
//!
//! The pairs are not met one by one: the sampled keys of each side are grouped by their
//! value on the bits chosen so far, each group's keys counted bit by bit, and the
//! items' counts summed over the subsets of each value (a zeta transform), so that the
//! pairs of disjoint values are counted group against group.

/// `cuts` bits among `candidates` (bit positions of the keys), chosen one by one: each
/// the bit that both keys of the most sampled (pattern, item) pairs hold, among the
/// pairs that no bit chosen before skips (a pair is skipped by a bit both its keys
/// hold). About `sample` keys of each side are sampled (at most [`SAMPLE_MOST`]).
pub(super) fn joint_cuts(
    patterns: &[&[u64]],
    items: &[&[u64]],
    candidates: u64,
    cuts: usize,
    sample: usize,
) -> Vec<u32> {
    assert!(sample <= SAMPLE_MOST, "16-bit counts");
    let taken = |sets: &[&[u64]]| -> Vec<u64> {
        let len: usize = sets.iter().map(|set| set.len()).sum();
        let step = len / sample.max(1) + 1;
        let keys = sets.iter().flat_map(|set| set.iter()).step_by(step);
        keys.map(|&key| key & candidates).collect()
    };
    let (patterns, items) = (taken(patterns), taken(items));
    // Each sampled key's value on the bits chosen so far (bit `k` for the `k`-th), and
    // per value, how many of the keys hold each bit: one value at first.
    let (mut pattern_values, mut item_values) = (vec![0; patterns.len()], vec![0; items.len()]);
    let mut by_patterns = vec![held(&patterns)];
    let mut by_items = vec![held(&items)];
    let mut within = Vec::new();
    let mut chosen = Vec::with_capacity(cuts);
    let mut free = candidates;
    while chosen.len() < cuts && free != 0 {
        let values = 1 << chosen.len();
        // Items whose value lies within `w`, for each `w`.
        within.clone_from(&by_items);
        for bit in 0..chosen.len() {
            for w in (0..values).filter(|w| w >> bit & 1 != 0) {
                let lower = within[w ^ 1 << bit];
                let row: &mut Held = &mut within[w];
                row.iter_mut()
                    .zip(lower)
                    .for_each(|(count, lower)| *count += lower);
            }
        }
        // Pairs of disjoint values whose keys both hold bit `b`.
        let mut both = [0u64; 64];
        for (value, held) in by_patterns.iter().enumerate() {
            let clear = &within[(values - 1) ^ value];
            for ((both, &p), &i) in both.iter_mut().zip(held).zip(clear) {
                *both += u64::from(p) * u64::from(i);
            }
        }
        // The most held of the free bits (the lowest of equals).
        let best = (0..64)
            .filter(|&b| free >> b & 1 != 0)
            .max_by_key(|&b| (both[b as usize], std::cmp::Reverse(b)))
            .expect("a free bit");
        split_values(&patterns, &mut pattern_values, best, &mut by_patterns);
        split_values(&items, &mut item_values, best, &mut by_items);
        chosen.push(best);
        free &= !(1 << best);
    }
    chosen
}

/// The most keys of each side [`joint_cuts`] samples (its counts are 16 bits wide).
pub(super) const SAMPLE_MOST: usize = 4096;
/// A load samples the square root of its pairs, shifted right by this many bits, keys a
/// side (see [`joint_sample`]).
pub(super) const SAMPLE_SHIFT: u32 = 8;
/// Keys a side below which a load ranks its cut bits one by one instead.
const SAMPLE_LEAST: usize = 256;

/// How many keys of each side a load of `patterns` against `items` samples to choose
/// its cut bits jointly (the square root of its pairs shifted right by `shift` bits:
/// [`SAMPLE_SHIFT`] but in tests), or `None` where it ranks them one by one. Choosing
/// costs about 250 steps a sampled key, against about a 4,000th of a load of a mask per
/// pair of the load, so the sample grows with the square root of the load's pairs. Below
/// 2^32 pairs (shards of N = 23, about 75,000 patterns against 16,000 items a load)
/// choosing jointly skipped no more pairs than ranking did.
pub(super) fn joint_sample(patterns: usize, items: usize, shift: u32) -> Option<usize> {
    let pairs = patterns as u128 * items as u128;
    let side = (pairs.isqrt() >> shift).min(SAMPLE_MOST as u128) as usize;
    (side >= SAMPLE_LEAST).then_some(side)
}

/// Per key bit, how many keys hold it.
type Held = [u16; 64];

/// How many of `keys` hold each bit.
fn held(keys: &[u64]) -> Held {
    let mut held = [0; 64];
    keys.iter().for_each(|&key| add_bits(&mut held, key));
    held
}

/// Adds one to the count of each bit of `key`.
#[inline(always)]
fn add_bits(held: &mut Held, key: u64) {
    let mut rest = key;
    while rest != 0 {
        held[rest.trailing_zeros() as usize] += 1;
        rest &= rest - 1;
    }
}

/// Takes `bit` as the next chosen bit: each of `keys` holding it moves from its value
/// `v` (in `values`, below `rows.len()`) to `v + rows.len()`, and its bits' counts
/// (`rows`, by value) with it: counted for the new values, taken from the old ones row
/// by row.
fn split_values(keys: &[u64], values: &mut [usize], bit: u32, rows: &mut Vec<Held>) {
    let low = rows.len();
    rows.resize(2 * low, [0; 64]);
    for (&key, value) in keys.iter().zip(values.iter_mut()) {
        if key >> bit & 1 != 0 {
            *value += low;
            add_bits(&mut rows[*value], key);
        }
    }
    let (lower, upper) = rows.split_at_mut(low);
    for (lower, upper) in lower.iter_mut().zip(upper.iter()) {
        lower
            .iter_mut()
            .zip(upper)
            .for_each(|(count, moved)| *count -= moved);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_keys;
    use super::*;

    /// Each bit chosen skips the most sampled pairs that the bits before it left, as
    /// counted pair by pair.
    #[test]
    fn each_cut_skips_the_most_pairs_left() {
        let mut rng = fastrand::Rng::with_seed(9);
        let patterns = random_keys(&mut rng, 300, 40, 3);
        let items = random_keys(&mut rng, 200, 40, 3);
        let candidates = (1u64 << 40) - 1 - (1 << 7);
        let items: &[&[u64]] = &[&items[..50], &items[50..]];
        let chosen = joint_cuts(&[&patterns], items, candidates, 8, 1000);
        assert_eq!(chosen.len(), 8);
        let mut skipped = 0u64;
        for (k, &bit) in chosen.iter().enumerate() {
            assert_ne!(bit, 7, "not a candidate");
            assert!(!chosen[..k].contains(&bit));
            let skips = |b: u32| {
                let mask = skipped | 1 << b;
                let items = items.iter().flat_map(|list| list.iter());
                let pairs = patterns
                    .iter()
                    .flat_map(|&p| items.clone().map(move |&i| p & i));
                pairs
                    .filter(|&both| both & mask != 0 && both & skipped == 0)
                    .count()
            };
            let best = (0..40).filter(|&b| candidates >> b & 1 != 0 && skipped >> b & 1 == 0);
            assert_eq!(skips(bit), best.map(skips).max().unwrap(), "cut {k}");
            skipped |= 1 << bit;
        }
    }

    #[test]
    fn only_large_loads_choose_jointly() {
        assert_eq!(joint_sample(75_000, 16_000, SAMPLE_SHIFT), None);
        assert_eq!(
            joint_sample(1 << 16, 1 << 16, SAMPLE_SHIFT),
            Some(SAMPLE_LEAST)
        );
        assert_eq!(
            joint_sample(1 << 24, 1 << 20, SAMPLE_SHIFT),
            Some(SAMPLE_MOST)
        );
        assert_eq!(joint_sample(200, 300, 0), None);
        assert_eq!(joint_sample(600, 8192, 0), Some(2217));
    }
}
