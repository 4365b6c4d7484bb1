//! What `check` says of one placement: judged ([`judge`]), then written in words or as
//! one JSON object. Every attacking pair that `--all` lists is written as it is found,
//! never held: N queens on one line make N(N - 1)/2 pairs.

use super::reading::Line;
use crate::app::args::CheckArgs;
use nqueens::placement::{Attacks, Fault, attacks, check};
use nqueens::words::{shorten, thousands};
use std::io::{self, Write};

/// What a line read for `check` is.
pub enum Judged {
    Blank,
    /// Why, and the line's text when it was one short token.
    Unreadable(String, Option<String>),
    Solution(usize),
    /// The placement's length (its board side), and what is wrong.
    Faults(usize, Wrong),
}

/// What is wrong with a placement: its first fault, or with `--all` every attacking pair.
pub enum Wrong {
    First(Fault),
    All(Attacks),
}

impl Wrong {
    /// The faults, in order.
    fn faults(&self) -> Box<dyn Iterator<Item = Fault> + '_> {
        match self {
            Wrong::First(fault) => Box::new(std::iter::once(fault.clone())),
            Wrong::All(attacks) => Box::new(attacks.iter()),
        }
    }
}

/// Judges a line read as a placement: its length against `--n` or the board side it
/// gives, then its queens (the first fault, or with `--all` every attacking pair).
pub fn judge(line: Line, args: &CheckArgs) -> Judged {
    let (declared_n, cols) = match line {
        Line::Blank => return Judged::Blank,
        Line::Unreadable(why, alone) => return Judged::Unreadable(why, alone),
        Line::Placement(n, cols) => (n, cols),
    };
    let n = cols.len();
    if let Some(expected) = args.n.or(declared_n).filter(|&expected| expected != n) {
        let fault = Fault::WrongLength { expected, found: n };
        return Judged::Faults(n, Wrong::First(fault));
    }
    if args.all {
        match attacks(&cols) {
            Err(fault) => Judged::Faults(n, Wrong::First(fault)),
            Ok(all) if all.pairs() == 0 => Judged::Solution(n),
            Ok(all) => Judged::Faults(n, Wrong::All(all)),
        }
    } else {
        match check(&cols) {
            Ok(()) => Judged::Solution(n),
            Err(fault) => Judged::Faults(n, Wrong::First(fault)),
        }
    }
}

/// A placement's verdict for a person to read.
pub fn write_words(out: &mut impl Write, place: &str, judged: &Judged) -> io::Result<()> {
    match judged {
        Judged::Blank => Ok(()),
        Judged::Unreadable(why, alone) => {
            // `check results.txt` reads "results.txt" as a placement: say what was meant.
            let hint = match alone {
                Some(name) if std::path::Path::new(name).is_file() => format!(
                    " ({} is a file: to read it, use --file {})",
                    shorten(name),
                    shorten(name)
                ),
                _ => String::new(),
            };
            writeln!(out, "{place}: unreadable: {why}{hint}")
        }
        Judged::Solution(n) => writeln!(out, "{place}: ok, a solution for N = {n}"),
        Judged::Faults(_, Wrong::All(all)) if all.pairs() > 1 => {
            let pairs = thousands(all.pairs());
            writeln!(out, "{place}: not a solution: {pairs} attacking pairs")?;
            all.iter().try_for_each(|fault| writeln!(out, "  {fault}"))
        }
        Judged::Faults(_, wrong) => {
            let first = wrong.faults().next().expect("a fault");
            writeln!(out, "{place}: not a solution: {first}")
        }
    }
}

/// A placement's verdict as one JSON object (`--json`), on one line: "source" (where it
/// came from), "solution", "n" (its board side), and "faults" (each with its "text"; with
/// `--all` also "attacking_pairs", their number) or "unreadable" (why). Keys in order.
pub fn write_json(out: &mut impl Write, place: &str, judged: &Judged) -> io::Result<()> {
    let source = serde_json::Value::from(place);
    let verdict = match judged {
        Judged::Blank => return Ok(()),
        Judged::Unreadable(why, _) => {
            serde_json::json!({"source": source, "solution": false, "unreadable": why})
        }
        Judged::Solution(n) => serde_json::json!({"source": source, "solution": true, "n": n}),
        Judged::Faults(n, wrong) => return write_faults_json(out, &source, *n, wrong),
    };
    writeln!(out, "{verdict}")
}

/// [`write_json`] of a placement that is not a solution, written piece by piece, the
/// faults as they come.
fn write_faults_json(
    out: &mut impl Write,
    source: &serde_json::Value,
    n: usize,
    wrong: &Wrong,
) -> io::Result<()> {
    write!(out, "{{")?;
    if let Wrong::All(all) = wrong {
        write!(out, "\"attacking_pairs\":{},", all.pairs())?;
    }
    write!(out, "\"faults\":[")?;
    for (i, fault) in wrong.faults().enumerate() {
        let mut json = serde_json::to_value(&fault).expect("a fault serializes");
        json["text"] = fault.to_string().into();
        write!(out, "{}{json}", if i == 0 { "" } else { "," })?;
    }
    writeln!(out, "],\"n\":{n},\"solution\":false,\"source\":{source}}}")
}
