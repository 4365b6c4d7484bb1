//! `nqueens check`: is each given placement a solution, and if not, which queens attack.
//!
//! Every line is read and reported, in order: a line that cannot be read as a placement
//! does not stop the others. Input is read as a stream ([`reading`]): memory follows the
//! board, not the line, and no byte of the input is echoed raw (control bytes are shown
//! escaped). Exit status 2 if any line was unreadable, else 1 if any
//! placement is not a solution.

use crate::app::args::CheckArgs;
use crate::app::failure::Failure;
use crate::app::system::print_line;
use nqueens::placement::{Fault, attacks, check};
use nqueens::words::shorten;
use reading::{Line, next_line};
use std::io::{BufReader, Read};

mod reading;

pub fn run(args: &CheckArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let mut tally = Judgements::default();
    let mut report = |place: String, line: Line| -> Result<(), Failure> {
        let judged = judge(line, args);
        match &judged {
            Judged::Blank => return Ok(()),
            Judged::Unreadable(..) => tally.unreadable += 1,
            Judged::Faults(..) => tally.wrong += 1,
            Judged::Solution(_) => {}
        }
        tally.read += 1;
        let line = if args.json {
            as_json(&place, &judged)
        } else {
            in_words(&place, judged)
        };
        print_line(&mut out, &line)
    };
    if !args.placements.is_empty() {
        for (i, placement) in args.placements.iter().enumerate() {
            // An argument is one placement, even with a line break in it.
            let one_line = placement.replace('\n', " ");
            let line = next_line(&mut one_line.as_bytes(), false)
                .expect("reading memory cannot fail")
                .unwrap_or(Line::Blank);
            report(format!("argument {}", i + 1), line)?;
        }
    } else {
        let (source, reader): (String, Box<dyn Read>) = match &args.file {
            Some(path) => (
                path.display().to_string(),
                Box::new(std::fs::File::open(path).map_err(|e| {
                    Failure::refused(format!("cannot read {}: {e}", path.display()))
                })?),
            ),
            None => ("standard input".into(), Box::new(std::io::stdin().lock())),
        };
        let mut input = BufReader::new(reader);
        let mut number = 0;
        while let Some(line) = next_line(&mut input, number == 0)
            .map_err(|e| Failure::refused(format!("cannot read {source}: {e}")))?
        {
            number += 1;
            report(format!("line {number}"), line)?;
        }
    }
    tally.verdict()
}

/// A placement's verdict for a person to read.
fn in_words(place: &str, judged: Judged) -> String {
    match judged {
        Judged::Blank => String::new(),
        Judged::Unreadable(why, alone) => {
            // `check results.txt` reads "results.txt" as a placement: say what was meant.
            let hint = match alone {
                Some(name) if std::path::Path::new(&name).is_file() => format!(
                    " ({} is a file: to read it, use --file {})",
                    shorten(&name),
                    shorten(&name)
                ),
                _ => String::new(),
            };
            format!("{place}: unreadable: {why}{hint}")
        }
        Judged::Solution(n) => format!("{place}: ok, a solution for N = {n}"),
        Judged::Faults(_, faults) => match faults.as_slice() {
            [one] => format!("{place}: not a solution: {one}"),
            many => {
                let list: Vec<String> = many.iter().map(|f| format!("  {f}")).collect();
                format!(
                    "{place}: not a solution: {} attacking pairs\n{}",
                    many.len(),
                    list.join("\n")
                )
            }
        },
    }
}

/// A placement's verdict as one JSON object (`--json`): where it came from, whether it
/// is a solution, its board side, and what is wrong (each fault with its text), or why
/// it could not be read.
fn as_json(place: &str, judged: &Judged) -> String {
    let verdict = match judged {
        Judged::Blank => serde_json::Value::Null,
        Judged::Unreadable(why, _) => serde_json::json!({
            "source": place, "solution": false, "unreadable": why,
        }),
        Judged::Solution(n) => serde_json::json!({
            "source": place, "solution": true, "n": n,
        }),
        Judged::Faults(n, faults) => {
            let faults: Vec<serde_json::Value> = faults
                .iter()
                .map(|fault| {
                    let mut json = serde_json::to_value(fault).expect("a fault serializes");
                    json["text"] = fault.to_string().into();
                    json
                })
                .collect();
            serde_json::json!({
                "source": place, "solution": false, "n": n, "faults": faults,
            })
        }
    };
    verdict.to_string()
}

#[derive(Default)]
struct Judgements {
    read: usize,
    unreadable: usize,
    wrong: usize,
}

impl Judgements {
    fn verdict(&self) -> Result<(), Failure> {
        let of = |k: usize, what: &str| {
            format!(
                "{k} of {} {what}",
                nqueens::words::plural(self.read as u64, "placement")
            )
        };
        if self.read == 0 {
            Err(Failure::refused(
                "no placement to check: give placements as arguments, --file FILE, or on \
                 standard input",
            ))
        } else if self.unreadable > 0 {
            Err(Failure::refused(of(self.unreadable, "could not be read")))
        } else if self.wrong > 0 {
            let verb = if self.wrong == 1 {
                "is not a solution"
            } else {
                "are not solutions"
            };
            Err(Failure::failed(of(self.wrong, verb)))
        } else {
            Ok(())
        }
    }
}

enum Judged {
    Blank,
    /// Why, and the line's text when it was one short token.
    Unreadable(String, Option<String>),
    Solution(usize),
    /// The placement's length (its board side), and what is wrong.
    Faults(usize, Vec<Fault>),
}

fn judge(line: Line, args: &CheckArgs) -> Judged {
    let (declared_n, cols) = match line {
        Line::Blank => return Judged::Blank,
        Line::Unreadable(why, alone) => return Judged::Unreadable(why, alone),
        Line::Placement(n, cols) => (n, cols),
    };
    if let Some(n) = args.n.or(declared_n).filter(|&n| n != cols.len()) {
        return Judged::Faults(
            cols.len(),
            vec![Fault::WrongLength {
                expected: n,
                found: cols.len(),
            }],
        );
    }
    let faults = if args.all {
        attacks(&cols)
    } else {
        check(&cols).err().into_iter().collect()
    };
    if faults.is_empty() {
        Judged::Solution(cols.len())
    } else {
        Judged::Faults(cols.len(), faults)
    }
}
