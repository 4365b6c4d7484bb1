//! A fixed pseudo-random order of sub-problem ids: deterministic (a function of the board
//! alone), so every run and every shard agrees on it, and scattered, so that any first
//! part of it is a fair sample of the whole (the join's shards, the estimate's sample).

/// The ids `0..len` in a pseudo-random order fixed by `n`.
pub fn shuffled(len: usize, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by_key(|&id| (mix(id as u64 ^ (n as u64) << 48), id));
    order
}

/// SplitMix64's finaliser: a fixed bijection of u64 that scatters neighbouring ids.
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
    fn an_order_is_a_fixed_permutation() {
        let order = shuffled(1000, 20);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<_>>());
        assert_ne!(order, sorted, "scattered");
        assert_eq!(order, shuffled(1000, 20), "fixed");
    }
}
