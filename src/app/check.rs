//! `nqueens check`: is each given placement a solution, and if not, what is wrong first.

use super::cli::CheckArgs;
use super::{Failure, print_line};
use nqueens::placement::{Fault, check};
use std::io::Read;

pub fn run(args: &CheckArgs) -> Result<(), Failure> {
    let inputs: Vec<(String, String)> = if !args.placements.is_empty() {
        args.placements
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("argument {}", i + 1), p.clone()))
            .collect()
    } else {
        let text = match &args.file {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?,
            None => {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map_err(|e| Failure::usage(format!("cannot read standard input: {e}")))?;
                text
            }
        };
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (format!("line {}", i + 1), l.to_string()))
            .collect()
    };
    if inputs.is_empty() {
        return Err(Failure::usage(
            "no placement to check: give placements as arguments, --file FILE, or on standard input",
        ));
    }
    let mut out = std::io::stdout().lock();
    let mut bad = 0;
    for (place, input) in &inputs {
        let (declared_n, cols) =
            parse(input).map_err(|why| Failure::usage(format!("{place}: {why}")))?;
        let expected = args.n.or(declared_n);
        let verdict = match expected {
            Some(n) if n != cols.len() => Err(Fault::WrongLength {
                expected: n,
                found: cols.len(),
            }),
            _ => check(&cols),
        };
        match verdict {
            Ok(()) => print_line(
                &mut out,
                &format!("{place}: ok, a solution for N = {}", cols.len()),
            )?,
            Err(fault) => {
                bad += 1;
                print_line(&mut out, &format!("{place}: not a solution: {fault}"))?;
            }
        }
    }
    if bad > 0 {
        return Err(Failure::failed(format!(
            "{bad} of {} placements are not solutions",
            inputs.len()
        )));
    }
    Ok(())
}

/// A placement in the `list` format (columns separated by spaces or commas) or the `json`
/// format (an object with "cols" and optionally "n", or a bare array).
fn parse(input: &str) -> Result<(Option<usize>, Vec<usize>), String> {
    let input = input.trim();
    if input.starts_with('{') || input.starts_with('[') {
        let value: serde_json::Value =
            serde_json::from_str(input).map_err(|e| format!("unreadable JSON: {e}"))?;
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
                c.as_u64()
                    .map(|c| c as usize)
                    .ok_or(format!("{c} is not a column (a whole number from 0)"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok((n, cols));
    }
    let cols = input
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<usize>()
                .map_err(|_| format!("'{t}' is not a column (a whole number from 0)"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((None, cols))
}
