//! Which kernels this CPU runs: detected once at run time, so one binary (built for any
//! x86-64) picks the fastest code the machine has, as primesieve and simdutf do.
//!
//! Each counting method has a kernel per level: `avx512` (AVX-512 F, BW and VPOPCNTDQ:
//! vector kernels), `avx2` (AVX2 with BMI1/2, POPCNT and LZCNT: the backtracking vector
//! kernel on 16-bit lanes, the join's code compiled for that level) and `portable` (plain x86-64 or any other target). All give the same counts; the tests
//! hold each available one to the portable one.

use std::fmt;

/// A kernel level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KernelLevel {
    /// Plain code for the build's target.
    Portable,
    /// The same code compiled for AVX2 with BMI1/2, POPCNT and LZCNT.
    Avx2,
    /// Vector kernels on AVX-512 (F, BW, VPOPCNTDQ).
    Avx512,
}

impl KernelLevel {
    /// Every kernel, slowest first.
    pub const ALL: [KernelLevel; 3] = [
        KernelLevel::Portable,
        KernelLevel::Avx2,
        KernelLevel::Avx512,
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            KernelLevel::Portable => "portable",
            KernelLevel::Avx2 => "avx2",
            KernelLevel::Avx512 => "avx512",
        }
    }

    /// Whether this CPU runs it.
    pub fn is_available(self) -> bool {
        match self {
            KernelLevel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            KernelLevel::Avx2 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("bmi1")
                    && is_x86_feature_detected!("bmi2")
                    && is_x86_feature_detected!("popcnt")
                    && is_x86_feature_detected!("lzcnt")
            }
            #[cfg(target_arch = "x86_64")]
            KernelLevel::Avx512 => {
                KernelLevel::Avx2.is_available()
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vpopcntdq")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The fastest kernel this CPU runs.
    pub fn detect() -> KernelLevel {
        KernelLevel::available()
            .last()
            .copied()
            .unwrap_or(KernelLevel::Portable)
    }

    /// Every kernel this CPU runs, slowest first.
    pub fn available() -> Vec<KernelLevel> {
        KernelLevel::ALL
            .into_iter()
            .filter(|k| k.is_available())
            .collect()
    }
}

/// Proof that this CPU runs a kernel level: made only by detection ([`Kernel::new`],
/// [`Kernel::detect`], [`Kernel::available`]), or by [`Kernel::new_unchecked`] for a
/// caller who vouches for the CPU. Every kernel entry takes one, so code compiled for a
/// feature is reached only where the CPU has it: a dispatch on [`Kernel::level`] may call
/// a `#[target_feature]` function of that level, or below, without another check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kernel(KernelLevel);

impl Kernel {
    /// The level, if this CPU runs it.
    pub fn new(level: KernelLevel) -> Option<Kernel> {
        level.is_available().then_some(Kernel(level))
    }

    /// The fastest level this CPU runs.
    pub fn detect() -> Kernel {
        Kernel(KernelLevel::detect())
    }

    /// Plain code, which every CPU runs.
    pub fn portable() -> Kernel {
        Kernel(KernelLevel::Portable)
    }

    /// Every level this CPU runs, slowest first.
    pub fn available() -> Vec<Kernel> {
        KernelLevel::available().into_iter().map(Kernel).collect()
    }

    /// The level, unchecked.
    ///
    /// # Safety
    /// The CPU must have every feature of `level` (see [`KernelLevel::is_available`]):
    /// the kernels run that level's instructions on the strength of this token.
    pub unsafe fn new_unchecked(level: KernelLevel) -> Kernel {
        Kernel(level)
    }

    /// The level it proves.
    pub fn level(self) -> KernelLevel {
        self.0
    }

    /// Whether the CPU has the AVX2 level's features (AVX2, BMI1 and BMI2, POPCNT,
    /// LZCNT): true at that level and above.
    pub fn has_avx2(self) -> bool {
        self.0 >= KernelLevel::Avx2
    }

    /// The level's name.
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for KernelLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Asks the CPU to bring the cache line holding `at` into its L1 cache (PREFETCHT0): a
/// hint, which changes nothing the program sees. Any address will do, in bounds or not.
#[inline(always)]
pub fn prefetch<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of every x86-64 CPU, and a prefetch reads nothing the program
    // sees and faults on no address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(at.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// Whether BMI2's PEXT is fast here: one instruction of a few cycles on Intel since
/// Haswell and on AMD since Zen 3; AMD's earlier cores run it as microcode, tens to
/// hundreds of cycles, so shifts win there.
pub fn fast_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        if !is_x86_feature_detected!("bmi2") {
            return false;
        }
        // `__cpuid` is safe from Rust 1.94 and unsafe in the declared rust-version (1.89).
        #[allow(unused_unsafe)]
        // SAFETY: leaves 0 (vendor) and 1 (signature) exist on every x86-64 CPU.
        let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        // The family: base 0xf means base plus extended.
        let base = (signature >> 8) & 0xf;
        let family = if base == 0xf {
            base + ((signature >> 20) & 0xff)
        } else {
            base
        };
        !amd || family >= 0x19
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The instruction-set features the kernels look for, as this CPU reports them.
pub fn features_seen() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let mut seen = Vec::new();
        macro_rules! probe {
            ($($feature:tt),*) => {
                $(if is_x86_feature_detected!($feature) {
                    seen.push($feature);
                })*
            };
        }
        probe!(
            "popcnt",
            "lzcnt",
            "bmi1",
            "bmi2",
            "avx2",
            "avx512f",
            "avx512bw",
            "avx512vpopcntdq"
        );
        seen
    }
    #[cfg(not(target_arch = "x86_64"))]
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_portable_kernel_is_always_there_and_detect_takes_the_best() {
        let available = KernelLevel::available();
        assert_eq!(available[0], KernelLevel::Portable);
        assert_eq!(KernelLevel::detect(), *available.last().unwrap());
        assert!(available.windows(2).all(|w| w[0] < w[1]));
    }
}
