//! `nqueens verify`: compute each N and compare with the published table.

use crate::app::args::VerifyArgs;
use crate::app::args::engine::{EngineFlags, worded};
use crate::app::failure::Failure;
use crate::app::projection::announce_long_range;
use crate::app::report::{JsonCount, Seconds, timed_count};
use crate::app::signals::Stop;
use crate::app::system::print_line;
use nqueens::cpu::KernelLevel;
use nqueens::verify::{Verdict, self_test, verdict};
use nqueens::{Method, MethodChoice, Options};
use serde::Serialize;
use std::time::Instant;

/// What a signal does to a verification: the board in hand is abandoned.
const STOPPING: &str = "stopping; the board being counted is abandoned";

#[derive(Serialize)]
struct JsonVerdict {
    #[serde(flatten)]
    count: JsonCount,
    /// "pass" (matches the table), "fail", or "unpublished" (no term; identities hold).
    verdict: &'static str,
    identities_hold: bool,
    mismatched: Vec<&'static str>,
}

pub fn run(args: &VerifyArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    if args.self_test {
        let started = Instant::now();
        return match self_test() {
            Ok(checks) => print_line(
                &mut out,
                &format!(
                    "self-test: {checks} checks passed in {:.2} s (kernels: {})",
                    started.elapsed().as_secs_f64(),
                    kernel_names()
                ),
            ),
            Err(what) => Err(Failure::failed(format!("self-test failed: {what}"))),
        };
    }
    if args.cross_check {
        return cross_check(args);
    }
    let options = flags(args).options()?;
    let stop = Stop::on_signals(STOPPING)?;
    let engine = nqueens::Engine::new(&options).map_err(worded)?;
    announce_long_range(&engine, &args.range, &stop.stop, "Ctrl-C stops it")?;
    let (mut passed, mut failed) = (0, 0);
    for n in args.range.sizes() {
        let (count, seconds) = timed_count(n, &options, args.quiet, &stop)?;
        let v = verdict(&count);
        if v.passed() {
            passed += 1;
        } else {
            failed += 1;
        }
        let line = if args.json {
            let json = JsonVerdict {
                count: JsonCount::new(&count, Seconds::once(seconds)),
                verdict: verdict_word(&v),
                identities_hold: v.identities_hold,
                mismatched: v
                    .fields
                    .iter()
                    .filter(|f| !f.matches())
                    .map(|f| f.name)
                    .collect(),
            };
            serde_json::to_string(&json).expect("plain data serializes")
        } else {
            text_row(&v, seconds)
        };
        print_line(&mut out, &line)?;
    }
    if !args.json {
        print_line(&mut out, &format!("{passed} passed, {failed} failed"))?;
    }
    if failed > 0 {
        return Err(Failure::failed(format!(
            "{failed} board size(s) differ from the published values"
        )));
    }
    Ok(())
}

/// `verify --cross-check`: each N by every method that takes it; a disagreement (or a
/// count that differs from the table) fails.
fn cross_check(args: &VerifyArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let (mut passed, mut failed) = (0, 0);
    let options = flags(args).options()?;
    let stop = Stop::on_signals(STOPPING)?;
    for n in args.range.sizes() {
        let mut counts = Vec::new();
        for method in Method::ALL.into_iter().filter(|m| m.boards().contains(&n)) {
            let options = Options {
                method: MethodChoice::Only(method),
                ..options
            };
            counts.push(timed_count(n, &options, args.quiet, &stop)?);
        }
        let first = &counts[0].0;
        let agree = counts.iter().all(|(count, _)| {
            (count.total, count.unique, count.orbits) == (first.total, first.unique, first.orbits)
        });
        let v = verdict(first);
        let ok = agree && v.passed();
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
        let line = if args.json {
            cross_check_json(n, &counts, agree, &v)
        } else {
            cross_check_text(n, &counts, agree, &v)
        };
        print_line(&mut out, &line)?;
    }
    if !args.json {
        print_line(&mut out, &format!("{passed} passed, {failed} failed"))?;
    }
    if failed > 0 {
        return Err(Failure::failed(format!(
            "{failed} board size(s) disagree between the methods or differ from the published values"
        )));
    }
    Ok(())
}

/// One board size of `verify --cross-check --json`: `n`, each method's count under its
/// name, `agree` (whether the totals, unique counts and orbit splits are the same) and
/// `verdict` (the table's on the first method's count: "pass", "fail" or "unpublished").
fn cross_check_json(
    n: usize,
    counts: &[(nqueens::Count, f64)],
    agree: bool,
    v: &Verdict,
) -> String {
    let mut row = serde_json::Map::new();
    row.insert("n".into(), n.into());
    for (count, seconds) in counts {
        let json = JsonCount::new(count, Seconds::once(*seconds));
        let value = serde_json::to_value(json).expect("plain data serializes");
        row.insert(count.method.name().into(), value);
    }
    row.insert("agree".into(), agree.into());
    row.insert("verdict".into(), verdict_word(v).into());
    serde_json::Value::Object(row).to_string()
}

/// One board size of `verify --cross-check`, with the methods that do not take it named.
fn cross_check_text(
    n: usize,
    counts: &[(nqueens::Count, f64)],
    agree: bool,
    v: &Verdict,
) -> String {
    let mut line = format!("N = {n:>2}");
    for (count, seconds) in counts {
        line += &format!("  {} {} ({seconds:.3} s)", count.method, count.total);
    }
    line += &format!(
        "  {}  {}",
        if agree { "agree" } else { "DISAGREE" },
        status_word(v)
    );
    for method in Method::ALL.into_iter().filter(|m| !m.boards().contains(&n)) {
        let boards = method.boards();
        line += &format!(
            "  ({method} takes boards from N = {} to {})",
            boards.start(),
            boards.end()
        );
    }
    line
}

/// The kernel levels this CPU runs, as the self-test tried them.
fn kernel_names() -> String {
    let names: Vec<&str> = KernelLevel::available().iter().map(|k| k.name()).collect();
    names.join(", ")
}

/// The engine flags of `verify`.
fn flags(args: &VerifyArgs) -> EngineFlags {
    EngineFlags::from_args(&args.engine, None)
}

fn verdict_word(v: &Verdict) -> &'static str {
    match (v.passed(), v.published) {
        (false, _) => "fail",
        (true, true) => "pass",
        (true, false) => "unpublished",
    }
}

/// The verdict as the text rows say it.
fn status_word(v: &Verdict) -> &'static str {
    match (v.passed(), v.published) {
        (false, _) => "FAIL",
        (true, true) => "PASS",
        (true, false) => "no published term",
    }
}

fn text_row(v: &Verdict, seconds: f64) -> String {
    let fields: Vec<String> = v
        .fields
        .iter()
        .map(|f| match f.published {
            Some(p) if p != f.computed => {
                format!("{} {} MISMATCH (published {p})", f.name, f.computed)
            }
            Some(_) => format!("{} {} ok", f.name, f.computed),
            None => format!("{} {}", f.name, f.computed),
        })
        .collect();
    let identities = if v.identities_hold {
        "identities ok"
    } else {
        "identities BROKEN"
    };
    let status = status_word(v);
    format!(
        "N = {:>2}  {}  {identities}  {:.3} s  {status}",
        v.n,
        fields.join("  "),
        seconds
    )
}
