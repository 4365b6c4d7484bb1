//! The values of the flags that choose: the counting method, the kernel level, and
//! `find`'s method.

use clap::ValueEnum;
use clap::builder::PossibleValue;
use nqueens::{Method, MethodChoice};

/// The counting method, as chosen on the command line: `auto` or one of
/// [`Method::ALL`], whose names and help lines are the flag's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodArg {
    /// The faster method for each board size.
    Auto,
    /// This one.
    Only(Method),
}

/// `auto`, then every method in the library's order.
const METHOD_ARGS: [MethodArg; Method::ALL.len() + 1] = {
    let mut args = [MethodArg::Auto; Method::ALL.len() + 1];
    let mut i = 0;
    while i < Method::ALL.len() {
        args[i + 1] = MethodArg::Only(Method::ALL[i]);
        i += 1;
    }
    args
};

impl ValueEnum for MethodArg {
    fn value_variants<'a>() -> &'a [Self] {
        &METHOD_ARGS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            MethodArg::Auto => {
                PossibleValue::new("auto").help("The faster method for each board size")
            }
            MethodArg::Only(method) => PossibleValue::new(method.name()).help(method.about()),
        })
    }
}

/// The kernel level, as chosen on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KernelArg {
    /// The fastest this CPU runs.
    Auto,
    /// Vector kernels on AVX-512 (F, BW, VPOPCNTDQ).
    Avx512,
    /// Vector kernels on AVX2 (with BMI1/2, POPCNT and LZCNT).
    Avx2,
    /// Plain code for any x86-64.
    Portable,
}

impl KernelArg {
    pub fn choice(self) -> Option<nqueens::cpu::KernelLevel> {
        use nqueens::cpu::KernelLevel;
        match self {
            KernelArg::Auto => None,
            KernelArg::Avx512 => Some(KernelLevel::Avx512),
            KernelArg::Avx2 => Some(KernelLevel::Avx2),
            KernelArg::Portable => Some(KernelLevel::Portable),
        }
    }

    /// The flag that names `level`.
    pub fn from_level(level: nqueens::cpu::KernelLevel) -> KernelArg {
        use nqueens::cpu::KernelLevel;
        match level {
            KernelLevel::Avx512 => KernelArg::Avx512,
            KernelLevel::Avx2 => KernelArg::Avx2,
            KernelLevel::Portable => KernelArg::Portable,
        }
    }
}

impl MethodArg {
    pub fn choice(self) -> MethodChoice {
        match self {
            MethodArg::Auto => MethodChoice::Auto,
            MethodArg::Only(method) => MethodChoice::Only(method),
        }
    }
}

/// How `find` looks for a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FindMethod {
    /// Hoffman, Loessi and Moore's construction: O(N), any N >= 4.
    Explicit,
    /// Minton et al.'s min-conflicts local search, reproducible with --seed (N = 10^7 in
    /// about 4 s).
    MinConflicts,
    /// Random placement with restarts (up to N = 10,000; past 1,000 it rarely succeeds).
    RandomRestart,
}

impl FindMethod {
    pub fn name(self) -> &'static str {
        match self {
            FindMethod::Explicit => "explicit construction",
            FindMethod::MinConflicts => "min-conflicts",
            FindMethod::RandomRestart => "random placement with restarts",
        }
    }
}
