//! `nqueens check`: is each given placement a solution, and if not, which queens attack.
//!
//! Every line is read and reported, in order: a line that cannot be read as a placement
//! does not stop the others. Exit status 2 if any line was unreadable, else 1 if any
//! placement is not a solution.

use crate::app::args::CheckArgs;
use crate::app::failure::Failure;
use crate::app::system::print_line;
use nqueens::placement::{Fault, attacks, check};
use nqueens::words::shorten;
use std::io::{BufRead, BufReader, Read};

pub fn run(args: &CheckArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let mut tally = Judgements::default();
    let mut report = |place: String, input: &[u8]| -> Result<(), Failure> {
        let line = match judge(input, args) {
            Judged::Blank => return Ok(()),
            Judged::Unreadable(why) => {
                tally.unreadable += 1;
                // `check results.txt` reads "results.txt" as a placement: say what was meant.
                let text = String::from_utf8_lossy(input);
                let hint = if std::path::Path::new(text.trim()).is_file() {
                    format!(
                        " ({} is a file: to read it, use --file {})",
                        text.trim(),
                        text.trim()
                    )
                } else {
                    String::new()
                };
                format!("{place}: unreadable: {why}{hint}")
            }
            Judged::Solution(n) => format!("{place}: ok, a solution for N = {n}"),
            Judged::Faults(faults) => {
                tally.wrong += 1;
                match faults.as_slice() {
                    [one] => format!("{place}: not a solution: {one}"),
                    many => {
                        let list: Vec<String> = many.iter().map(|f| format!("  {f}")).collect();
                        format!(
                            "{place}: not a solution: {} attacking pairs\n{}",
                            many.len(),
                            list.join("\n")
                        )
                    }
                }
            }
        };
        tally.read += 1;
        print_line(&mut out, &line)
    };
    if !args.placements.is_empty() {
        for (i, placement) in args.placements.iter().enumerate() {
            report(format!("argument {}", i + 1), placement.as_bytes())?;
        }
    } else {
        let (source, reader): (String, Box<dyn Read>) =
            match &args.file {
                Some(path) => (
                    path.display().to_string(),
                    Box::new(std::fs::File::open(path).map_err(|e| {
                        Failure::usage(format!("cannot read {}: {e}", path.display()))
                    })?),
                ),
                None => ("standard input".into(), Box::new(std::io::stdin().lock())),
            };
        for (i, line) in BufReader::new(reader).split(b'\n').enumerate() {
            let line = line.map_err(|e| Failure::usage(format!("cannot read {source}: {e}")))?;
            // A byte-order mark (editors on Windows write one) is not part of line 1.
            let line = match line.strip_prefix(b"\xef\xbb\xbf") {
                Some(rest) if i == 0 => rest,
                _ => &line,
            };
            report(format!("line {}", i + 1), line)?;
        }
    }
    tally.verdict()
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
            Err(Failure::usage(
                "no placement to check: give placements as arguments, --file FILE, or on \
                 standard input",
            ))
        } else if self.unreadable > 0 {
            Err(Failure::usage(of(self.unreadable, "could not be read")))
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
    Unreadable(String),
    Solution(usize),
    Faults(Vec<Fault>),
}

fn judge(input: &[u8], args: &CheckArgs) -> Judged {
    let Ok(text) = std::str::from_utf8(input) else {
        return Judged::Unreadable("not text (invalid UTF-8)".into());
    };
    if text.trim().is_empty() {
        return Judged::Blank;
    }
    let (declared_n, cols) = match parse(text) {
        Ok(parsed) => parsed,
        Err(why) => return Judged::Unreadable(why),
    };
    if let Some(n) = args.n.or(declared_n).filter(|&n| n != cols.len()) {
        return Judged::Faults(vec![Fault::WrongLength {
            expected: n,
            found: cols.len(),
        }]);
    }
    let faults = if args.all {
        attacks(&cols)
    } else {
        check(&cols).err().into_iter().collect()
    };
    if faults.is_empty() {
        Judged::Solution(cols.len())
    } else {
        Judged::Faults(faults)
    }
}

/// A placement in the `list` format (columns separated by spaces or commas) or the `json`
/// format (an object with "cols" and optionally "n", or a bare array).
fn parse(input: &str) -> Result<(Option<usize>, Vec<usize>), String> {
    let input = input.trim();
    if input.starts_with('{') || input.starts_with('[') {
        let value: serde_json::Value = serde_json::from_str(input).map_err(|e| {
            format!(
                "not a JSON placement (line {}, column {})",
                e.line(),
                e.column()
            )
        })?;
        let (n, cols) = match &value {
            serde_json::Value::Array(_) => (None, &value),
            _ => (
                value.get("n").and_then(|n| n.as_u64()).map(|n| n as usize),
                value
                    .get("cols")
                    .ok_or("a JSON placement needs a \"cols\" array")?,
            ),
        };
        let cols = cols
            .as_array()
            .ok_or("\"cols\" must be an array of columns")?
            .iter()
            .map(|c| {
                c.as_u64().map(|c| c as usize).ok_or(format!(
                    "{} is not a column (a whole number from 0)",
                    shorten(&c.to_string())
                ))
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok((n, cols));
    }
    input
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<usize>()
                .map_err(|_| format!("'{}' is not a column (a whole number from 0)", shorten(t)))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|cols| (None, cols))
}
