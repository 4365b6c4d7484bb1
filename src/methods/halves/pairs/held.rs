//! Which bits a sample of keys hold: what a load ranks its cut bits by, and a split its
//! bits; and which bits any key holds (what a load is squeezed to).

/// The bits any of the keys of `sets` holds.
pub(super) fn held_bits<'a>(sets: impl IntoIterator<Item = &'a [u64]>) -> u64 {
    let keys = sets.into_iter().flatten();
    keys.fold(0, |held, &key| held | key)
}

/// For each bit, how many of a sample of about `sample` of `sets`' keys (one every so
/// many, across the sets) hold it, and how many were sampled.
///
/// Each key's bytes are spread by a table, one bit a byte, and added up as eight bytes
/// at once (flushed before a byte can overflow): a loop over each key's bits took 4% of
/// a shard of N = 23 with samples of up to 4,096 keys.
pub(super) fn held_by_sample(sets: &[&[u64]], sample: usize) -> ([u64; 64], u64) {
    let mut counts = [0u64; 64];
    // Byte `b` of `bytes[j]` counts bit `8 j + b`, for up to 255 keys.
    let mut bytes = [0u64; 8];
    let flush = |bytes: &mut [u64; 8], counts: &mut [u64; 64]| {
        for (j, spread) in bytes.iter_mut().enumerate() {
            for (b, count) in counts[8 * j..8 * j + 8].iter_mut().enumerate() {
                *count += *spread >> (8 * b) & 0xff;
            }
            *spread = 0;
        }
    };
    let mut sampled = 0;
    let step = sets.iter().map(|s| s.len()).sum::<usize>() / sample + 1;
    for &key in sets.iter().flat_map(|s| s.iter()).step_by(step) {
        for (j, spread) in bytes.iter_mut().enumerate() {
            *spread += SPREAD[(key >> (8 * j)) as u8 as usize];
        }
        sampled += 1;
        if sampled % 255 == 0 {
            flush(&mut bytes, &mut counts);
        }
    }
    flush(&mut bytes, &mut counts);
    (counts, sampled.max(1))
}

/// For each byte, a word with its bit `b` in byte `b` (as 0 or 1).
const SPREAD: [u64; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte] |= ((byte as u64 >> bit) & 1) << (8 * bit);
            bit += 1;
        }
        byte += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::super::tests::random_keys;
    use super::*;

    #[test]
    fn a_sample_counts_each_bit_as_a_loop_over_its_keys_does() {
        let mut rng = fastrand::Rng::with_seed(5);
        let keys = random_keys(&mut rng, 3_000, 58, 2);
        for sample in [1, 254, 255, 256, 1_000, 3_000, 10_000] {
            let (counts, sampled) = held_by_sample(&[&keys[..1_000], &keys[1_000..]], sample);
            let step = keys.len() / sample + 1;
            let taken: Vec<u64> = keys.iter().copied().step_by(step).collect();
            assert_eq!(sampled, taken.len() as u64, "sample {sample}");
            for (bit, &count) in counts.iter().enumerate() {
                let want = taken.iter().filter(|&&key| key >> bit & 1 == 1).count();
                assert_eq!(count, want as u64, "sample {sample}, bit {bit}");
            }
        }
    }
}
