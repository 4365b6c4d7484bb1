//! Moving the keys clear of some bars to the front of their own buffer, in place.
//!
//! Where a row set's East is counted queen by queen (`inner`), each pin's West is
//! counted against each of East's parts, West's keys clear of that part's queen. Copied
//! out, those took a buffer of West's size a worker (0.23 to 0.27 GB of 1.9 GB at N =
//! 28); moved to the front, they take none, and West's order, which no count depends on,
//! changes.
//!
//! The vector kernels hold a vector from each end, then read from whichever end has less
//! room between what is written and what is unread there, so that both ends have room
//! for a vector: the kept keys are written from the front, the others from the back.

use crate::cpu::Kernel;

/// Reorders `keys` so that those holding none of `bars` come first, in no particular
/// order, and says how many they are; the others follow them.
pub(super) fn partition_clear(kernel: Kernel, keys: &mut [u64], bars: u64) -> usize {
    #[cfg(target_arch = "x86_64")]
    if kernel.level() == crate::cpu::KernelLevel::Avx512 {
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        return unsafe { partition_avx512(keys, bars) };
    }
    #[cfg(target_arch = "x86_64")]
    if kernel.has_avx2() {
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        return unsafe { partition_avx2(keys, bars) };
    }
    let _ = kernel;
    partition_plain(keys, bars)
}

/// [`partition_clear`] key by key, without a branch on the key (about half are kept):
/// each key is swapped with the first not yet kept, which moves on past a kept one.
fn partition_plain(keys: &mut [u64], bars: u64) -> usize {
    let mut kept = 0;
    for i in 0..keys.len() {
        let key = keys[i];
        keys.swap(kept, i);
        kept += usize::from(key & bars == 0);
    }
    kept
}

/// Where the kept keys end (`front`) and the others start (`back`), and the unread keys
/// `[read_front, read_back)` between them.
#[cfg(target_arch = "x86_64")]
struct Ends {
    front: usize,
    back: usize,
    read_front: usize,
    read_back: usize,
}

#[cfg(target_arch = "x86_64")]
impl Ends {
    /// The ends of `len` keys of which the first and the last `held` are held, if there
    /// are that many (else the keys go key by key).
    fn holding(len: usize, held: usize) -> Option<Ends> {
        // `then`, not `then_some`: the ends are only worked out where there is room
        // (`len - held` would overflow where there is not).
        (len >= 2 * held).then(|| Ends {
            front: 0,
            back: len,
            read_front: held,
            read_back: len - held,
        })
    }

    /// Where the next `lanes` unread keys are read from, taken as read: at the end with
    /// less room.
    fn next_read(&mut self, lanes: usize) -> usize {
        if self.read_front - self.front <= self.back - self.read_back {
            self.read_front += lanes;
            self.read_front - lanes
        } else {
            self.read_back -= lanes;
            self.read_back
        }
    }
}

/// [`partition_clear`] with AVX-512, eight keys at a time: the kept ones compressed to
/// the low lanes and stored at the front, the others likewise at the back, each by a
/// masked store of just those lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
fn partition_avx512(keys: &mut [u64], bars: u64) -> usize {
    use std::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_storeu_epi64, _mm512_maskz_compress_epi64,
        _mm512_maskz_loadu_epi64, _mm512_set1_epi64, _mm512_testn_epi64_mask,
    };
    const LANES: usize = 8;
    let len = keys.len();
    let Some(mut ends) = Ends::holding(len, LANES) else {
        return partition_plain(keys, bars);
    };
    let (at, bars_lanes) = (keys.as_mut_ptr(), _mm512_set1_epi64(bars as i64));
    // Stores the `valid` lanes of `lanes`: the kept ones at the front, the others at the
    // back.
    let place = |lanes: __m512i, valid: u8, ends: &mut Ends| {
        let clear = _mm512_testn_epi64_mask(lanes, bars_lanes) & valid;
        let other = !clear & valid;
        let (kept, others) = (clear.count_ones() as usize, other.count_ones() as usize);
        ends.back -= others;
        // SAFETY: the stores write `kept` slots from `front` and `others` up to `back`:
        // each end had room for every lane read (see the module docs), and at the last
        // keys the room between the ends is all the keys held.
        unsafe {
            let low = |n: usize| ((1u16 << n) - 1) as u8;
            let front = _mm512_maskz_compress_epi64(clear, lanes);
            _mm512_mask_storeu_epi64(at.add(ends.front).cast(), low(kept), front);
            let back = _mm512_maskz_compress_epi64(other, lanes);
            _mm512_mask_storeu_epi64(at.add(ends.back).cast(), low(others), back);
        }
        ends.front += kept;
    };
    // SAFETY: there are at least sixteen keys; every read is of unread keys inside them.
    unsafe {
        let first = _mm512_loadu_si512(at.cast());
        let last = _mm512_loadu_si512(at.add(len - LANES).cast());
        while ends.read_back - ends.read_front >= LANES {
            let lanes = _mm512_loadu_si512(at.add(ends.next_read(LANES)).cast());
            place(lanes, u8::MAX, &mut ends);
        }
        let rest = ends.read_back - ends.read_front;
        let valid = ((1u16 << rest) - 1) as u8;
        let lanes = _mm512_maskz_loadu_epi64(valid, at.add(ends.read_front).cast());
        ends.read_front = ends.read_back;
        place(lanes, valid, &mut ends);
        place(first, u8::MAX, &mut ends);
        place(last, u8::MAX, &mut ends);
    }
    ends.front
}

/// For each set of lanes of four 64-bit keys, the 32-bit lanes that bring them together
/// at the high end (for AVX2's VPERMD; `cuts::PACK_LANES` brings them to the low end).
#[cfg(target_arch = "x86_64")]
const PACK_HIGH: [[i32; 8]; 16] = {
    let mut table = [[0; 8]; 16];
    let mut set = 0;
    while set < 16 {
        let (mut lane, mut to) = (4, 4);
        while lane > 0 {
            lane -= 1;
            if set >> lane & 1 != 0 {
                to -= 1;
                table[set][2 * to] = 2 * lane;
                table[set][2 * to + 1] = 2 * lane + 1;
            }
        }
        set += 1;
    }
    table
};

/// [`partition_clear`] with AVX2, four keys at a time: the kept ones brought to the low
/// lanes and all four stored at the front, the others to the high lanes and all four
/// stored ending at the back (each end has room for four: the lanes past those kept are
/// written over later). The last keys, held and unread, go key by key.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn partition_avx2(keys: &mut [u64], bars: u64) -> usize {
    use super::cuts::PACK_LANES;
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_movemask_pd, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setzero_si256,
        _mm256_storeu_si256,
    };
    const LANES: usize = 4;
    let len = keys.len();
    let Some(mut ends) = Ends::holding(len, LANES) else {
        return partition_plain(keys, bars);
    };
    let (at, bars_lanes) = (keys.as_mut_ptr(), _mm256_set1_epi64x(bars as i64));
    let mut held = [0u64; 2 * LANES];
    held[..LANES].copy_from_slice(&keys[..LANES]);
    held[LANES..].copy_from_slice(&keys[len - LANES..]);
    while ends.read_back - ends.read_front >= LANES {
        // SAFETY: there are at least eight keys, and the load reads four unread ones
        // inside them.
        let lanes = unsafe { _mm256_loadu_si256(at.add(ends.next_read(LANES)).cast::<__m256i>()) };
        let clear = _mm256_cmpeq_epi64(_mm256_and_si256(lanes, bars_lanes), _mm256_setzero_si256());
        let clear = _mm256_movemask_pd(_mm256_castsi256_pd(clear)) as usize;
        // SAFETY: the loads read a row of each table (eight `i32`s); each store writes
        // four slots inside the room of the end it writes.
        unsafe {
            let low = _mm256_loadu_si256(PACK_LANES[clear].as_ptr().cast::<__m256i>());
            let high = _mm256_loadu_si256(PACK_HIGH[clear ^ 15].as_ptr().cast::<__m256i>());
            _mm256_storeu_si256(
                at.add(ends.front).cast::<__m256i>(),
                _mm256_permutevar8x32_epi32(lanes, low),
            );
            _mm256_storeu_si256(
                at.add(ends.back - LANES).cast::<__m256i>(),
                _mm256_permutevar8x32_epi32(lanes, high),
            );
        }
        let kept = clear.count_ones() as usize;
        ends.front += kept;
        ends.back -= LANES - kept;
    }
    // What is left: the unread keys and the held ones, into the room between the ends.
    let unread = &keys[ends.read_front..ends.read_back];
    let mut rest = [0u64; 3 * LANES];
    let rest_len = unread.len() + held.len();
    rest[..unread.len()].copy_from_slice(unread);
    rest[unread.len()..rest_len].copy_from_slice(&held);
    for &key in &rest[..rest_len] {
        if key & bars == 0 {
            keys[ends.front] = key;
            ends.front += 1;
        } else {
            ends.back -= 1;
            keys[ends.back] = key;
        }
    }
    ends.front
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel keeps every key, the clear ones first and only they, on lengths
    /// around each kernel's vectors and on random and extreme bars.
    #[test]
    fn every_kernel_moves_the_clear_keys_first_and_keeps_every_key() {
        let mut rng = fastrand::Rng::with_seed(21);
        let lens = (0..40).chain([63, 64, 65, 100, 1000, 4099]);
        for len in lens {
            let keys: Vec<u64> = (0..len).map(|_| rng.u64(..) & rng.u64(..)).collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            for bars in [0, u64::MAX, 1, 1 << 5 | 1 << 40, rng.u64(..) & rng.u64(..)] {
                let want = keys.iter().filter(|&&k| k & bars == 0).count();
                for kernel in Kernel::available() {
                    let name = format!("{kernel:?}, {len} keys, bars {bars:x}");
                    let mut moved = keys.clone();
                    let kept = partition_clear(kernel, &mut moved, bars);
                    assert_eq!(kept, want, "{name}");
                    assert!(moved[..kept].iter().all(|k| k & bars == 0), "{name}");
                    assert!(moved[kept..].iter().all(|k| k & bars != 0), "{name}");
                    moved.sort_unstable();
                    assert_eq!(moved, sorted, "{name}");
                }
            }
        }
    }
}
