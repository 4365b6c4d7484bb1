//! The pair counter's kernels: how many patterns of each bit-sliced block are compatible
//! with each item, added up (see [`super::pairs`] for the layout). A portable kernel over
//! `[u64; 8]`, an AVX2 one (carry-save adders and a nibble table for the popcount) and an
//! AVX-512 one (VPOPCNTD), chosen at run time ([`crate::cpu::Kernel`]); all give the
//! same counts.
//!
//! [`layout`] says how a block's masks lie; `portable`, `avx2` and `avx512` are the
//! kernels, each counting blocks plainly or weighted by lane (the two vector ones also
//! compare few patterns one by one).

#[macro_use]
mod layout;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod portable;

pub use layout::{BLOCK, Bits512, Layout};
pub(super) use layout::{LANE, LANES, MAX_WIDTH};

use crate::cpu::Kernel;
#[cfg(target_arch = "x86_64")]
use crate::cpu::KernelLevel;
use portable::{sliced_portable, weighted_portable};

/// How many (pattern, item) pairs of these blocks (laid out by `layout`) share no bit.
pub(super) fn count(kernel: Kernel, sliced: &[Bits512], layout: Layout, items: &[u64]) -> u64 {
    match kernel.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        KernelLevel::Avx512 => unsafe { avx512::count_sliced(sliced, layout, items) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        KernelLevel::Avx2 => unsafe { avx2::count_sliced(sliced, layout, items) },
        _ => with_layout!(layout, sliced_portable(sliced, items)),
    }
}

/// How many (pattern, item) pairs of these few patterns, as they are, share no bit:
/// a bucket too small to slice (at N = 26 with twelve cut bits, many are). Compared
/// eight (AVX-512) or four (AVX2) patterns at once; with plain 64-bit code these
/// comparisons took 7% of a shard of N = 26.
pub(super) fn count_plain(kernel: Kernel, patterns: &[u64], items: &[u64]) -> u64 {
    if patterns.is_empty() {
        return 0;
    }
    match kernel.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        KernelLevel::Avx512 => unsafe { avx512::count_plain(patterns, items) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        KernelLevel::Avx2 => unsafe { avx2::count_plain(patterns, items) },
        _ => items
            .iter()
            .map(|&item| patterns.iter().filter(|&&p| p & item == 0).count() as u64)
            .sum(),
    }
}

/// [`count`] where each pattern counts by the weight of its lane ([`LANE`] patterns):
/// `weights` holds each block's, lane by lane (a load of several weighted lists, see
/// `blocks`; for the AVX2 kernel, the four lanes of words `i` and `i + 4` of a block
/// weigh the same).
pub(super) fn count_weighted(
    kernel: Kernel,
    sliced: &[Bits512],
    layout: Layout,
    items: &[u64],
    weights: &[[u64; LANES]],
) -> u64 {
    match kernel.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        KernelLevel::Avx512 => unsafe { avx512::count_weighted(sliced, layout, items, weights) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        KernelLevel::Avx2 => unsafe { avx2::count_weighted(sliced, layout, items, weights) },
        _ => with_layout!(layout, weighted_portable(sliced, items, weights)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel counts the patterns clear of each item as a double loop does, for
    /// every number of patterns up to past what one pass holds (sparse keys, so that
    /// many pairs are clear).
    #[test]
    fn plain_counts_are_every_kernels_the_same() {
        let mut rng = fastrand::Rng::with_seed(29);
        let mut key = || (0..40).fold(0u64, |k, b| k | u64::from(rng.u8(..6) == 0) << b);
        let patterns: Vec<u64> = (0..130).map(|_| key()).collect();
        let items: Vec<u64> = (0..37).map(|_| key()).collect();
        for len in 0..=patterns.len() {
            let patterns = &patterns[..len];
            let naive = items
                .iter()
                .map(|&item| patterns.iter().filter(|&&p| p & item == 0).count() as u64)
                .sum::<u64>();
            for kernel in Kernel::available() {
                let counted = count_plain(kernel, patterns, &items);
                assert_eq!(counted, naive, "{kernel:?}, {len} patterns");
            }
        }
    }
}
