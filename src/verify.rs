//! Checking counts against the published table, and the engine's built-in self-test.
//!
//! ```
//! let count = nqueens::count(10, &nqueens::Options::default(), &nqueens::NoProgress).unwrap();
//! let verdict = nqueens::verify::verdict(&count);
//! assert!(verdict.passed() && verdict.identities_hold);
//! ```

use crate::cpu::KernelLevel;
use crate::engine::{Count, Engine, NoProgress, Options};
use crate::known::known;
use crate::methods::{Method, MethodChoice};
use crate::symmetry::group::Symmetry;
use crate::words::plural;

/// One compared field: what was computed and, where published, what the table says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldCheck {
    /// The field's name (`total`, `unique`, `c8`, `c4`, `c2`).
    pub name: &'static str,
    /// The computed value.
    pub computed: u128,
    /// The published value, if the table has one.
    pub published: Option<u128>,
}

impl FieldCheck {
    /// False only when a published value exists and differs.
    pub fn matches(&self) -> bool {
        self.published.is_none_or(|p| p == self.computed)
    }
}

/// The verdict on one count.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verdict {
    /// Board side.
    pub n: usize,
    /// Each field against the table.
    pub fields: Vec<FieldCheck>,
    /// `total = 8*c8 + 4*c4 + 2*c2 + c1` and `unique = c8 + c4 + c2 + c1`.
    pub identities_hold: bool,
    /// Whether the table has a row for this N.
    pub published: bool,
}

impl Verdict {
    /// True when every published field matches and the identities hold.
    pub fn passed(&self) -> bool {
        self.identities_hold && self.fields.iter().all(FieldCheck::matches)
    }
}

/// Compares a count with the published table and checks the orbit identities.
pub fn verdict(count: &Count) -> Verdict {
    let row = known(count.n);
    let o = count.orbits;
    let field = |name, computed, published: Option<u128>| FieldCheck {
        name,
        computed,
        published,
    };
    Verdict {
        n: count.n,
        fields: vec![
            field("total", count.total, row.map(|k| k.total)),
            field("unique", count.unique, row.map(|k| k.unique)),
            field("c8", o.c8, row.map(|k| k.c8)),
            field("c4", o.c4, row.map(|k| k.c4)),
            field("c2", o.c2, row.map(|k| k.c2)),
        ],
        identities_hold: count.total == 8 * o.c8 + 4 * o.c4 + 2 * o.c2 + o.c1
            && count.unique == o.c8 + o.c4 + o.c2 + o.c1,
        published: row.is_some(),
    }
}

/// Runs the quick built-in check of everything the engine depends on: the symmetry group,
/// the table's own identities, and the counts for N = 1 to 12 by every kernel level this
/// CPU runs, at 1, 2 and 3 threads, by backtracking at split depths 0 to 2 and by halves
/// (identical, and equal to the table). Returns the number of checks passed, or the first
/// failure.
pub fn self_test() -> Result<usize, String> {
    let mut checks = 0;
    let mut check = |ok: bool, what: String| {
        checks += 1;
        if ok { Ok(()) } else { Err(what) }
    };
    for a in Symmetry::ALL {
        check(
            a.then(a.inverse()) == Symmetry::IDENTITY,
            format!("{a:?} has no inverse"),
        )?;
        for b in Symmetry::ALL {
            let closed = Symmetry::ALL.contains(&a.then(b));
            let agrees = a.then(b).apply(9, (2, 7)) == b.apply(9, a.apply(9, (2, 7)));
            check(
                closed && agrees,
                format!("{a:?} then {b:?} is not a symmetry"),
            )?;
        }
    }
    for row in &crate::known::KNOWN {
        let o1 = u128::from(row.n == 1);
        let holds = row.total == 8 * row.c8 + 4 * row.c4 + 2 * row.c2 + o1
            && row.unique == row.c8 + row.c4 + row.c2 + o1;
        check(
            holds,
            format!("the table's row for N = {} breaks the identities", row.n),
        )?;
    }
    for kernel in KernelLevel::available() {
        for n in 1..=12 {
            let mut first: Option<Count> = None;
            for threads in 1..=3 {
                for split_depth in 0..=2 {
                    let engine = engine(threads, Some(split_depth), Method::BACKTRACK, kernel)?;
                    let got = engine.count(n, &NoProgress).map_err(|e| e.to_string())?;
                    let where_ = format!(
                        "N = {n}, {kernel} kernel, {}, split depth {split_depth}",
                        plural(threads as u64, "thread")
                    );
                    check(
                        verdict(&got).passed(),
                        format!("{where_}: differs from the table"),
                    )?;
                    let same = first.is_none_or(|f| {
                        (f.total, f.unique, f.orbits, f.nodes)
                            == (got.total, got.unique, got.orbits, got.nodes)
                    });
                    check(same, format!("{where_}: differs from 1 thread, depth 0"))?;
                    first.get_or_insert(got);
                }
            }
        }
        let others = Method::ALL.into_iter().filter(|m| !m.takes_split_depth());
        for (method, threads) in others.flat_map(|m| (1..=3).map(move |t| (m, t))) {
            let engine = engine(threads, None, method, kernel)?;
            for n in *method.boards().start()..=12 {
                let got = engine.count(n, &NoProgress).map_err(|e| e.to_string())?;
                check(
                    got.method == method && verdict(&got).passed(),
                    format!(
                        "N = {n} by {method}, {kernel} kernel, {}: differs from the table",
                        plural(threads as u64, "thread")
                    ),
                )?;
            }
        }
    }
    Ok(checks)
}

/// An engine for the self-test.
fn engine(
    threads: usize,
    split_depth: Option<usize>,
    method: Method,
    kernel: KernelLevel,
) -> Result<Engine, String> {
    Engine::new(&Options {
        threads: Some(threads),
        split_depth,
        method: MethodChoice::Only(method),
        kernel: Some(kernel),
        memory_budget: None,
    })
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::count;

    #[test]
    fn a_wrong_count_fails_and_names_the_field() {
        let mut c = count(8, &Options::default(), &NoProgress).unwrap();
        assert!(verdict(&c).passed());
        c.unique += 1;
        let v = verdict(&c);
        assert!(!v.passed());
        let bad: Vec<_> = v
            .fields
            .iter()
            .filter(|f| !f.matches())
            .map(|f| f.name)
            .collect();
        assert_eq!(bad, ["unique"]);
        assert!(!v.identities_hold);
    }

    #[test]
    fn unpublished_sizes_are_judged_by_the_identities() {
        let mut c = count(8, &Options::default(), &NoProgress).unwrap();
        c.n = 28;
        let v = verdict(&c);
        assert!(!v.published && v.passed());
    }

    #[test]
    fn the_self_test_passes() {
        assert!(self_test().unwrap() > 100);
    }
}
