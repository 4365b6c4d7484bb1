//! `nqueens check`: is each given placement a solution, and if not, which queens attack.
//!
//! Every line is read and reported, in order: a line that cannot be read as a placement
//! does not stop the others. Input is read as a stream ([`reading`]): memory follows the
//! board, not the line, and no byte of the input is echoed raw (control bytes are shown
//! escaped). Exit status 2 if any line was unreadable, else 1 if any
//! placement is not a solution.

use crate::app::args::CheckArgs;
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;
use crate::app::system::quiet_on_broken_pipe;
use reading::{Line, next_line};
use std::io::{BufReader, BufWriter, Read, Write};
use verdict::{Judged, judge};

mod reading;
mod verdict;

/// Where verdicts go.
type Out<'a> = BufWriter<std::io::StdoutLock<'a>>;

pub fn run(args: &CheckArgs) -> Result<(), Failure> {
    // Buffered: millions of placements, or billions of attacking pairs with `--all`;
    // flushed whenever reading on might wait, so a verdict never waits on later input.
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut tally = Judgements::default();
    let mut report = |out: &mut Out, place: String, line: Line| -> Result<(), Failure> {
        let judged = judge(line, args);
        match &judged {
            Judged::Blank => return Ok(()),
            Judged::Unreadable(..) => tally.unreadable += 1,
            Judged::Faults(..) => tally.wrong += 1,
            Judged::Solution(_) => {}
        }
        tally.read += 1;
        let written = if args.json {
            verdict::write_json(out, &place, &judged)
        } else {
            verdict::write_words(out, &place, &judged)
        };
        quiet_on_broken_pipe(written)
    };
    if !args.placements.is_empty() {
        for (i, placement) in args.placements.iter().enumerate() {
            // An argument is one placement, even with a line break in it.
            let one_line = placement.replace('\n', " ");
            let line = next_line(&mut one_line.as_bytes(), false)
                .expect("reading memory cannot fail")
                .unwrap_or(Line::Blank);
            report(&mut out, format!("argument {}", i + 1), line)?;
        }
    } else {
        let (source, reader): (String, Box<dyn Read>) = match &args.file {
            Some(path) => (path.shown().to_string(), Box::new(placements_file(path)?)),
            None => ("standard input".into(), Box::new(std::io::stdin().lock())),
        };
        let mut input = BufReader::new(reader);
        let mut number = 0;
        loop {
            if input.buffer().is_empty() {
                quiet_on_broken_pipe(out.flush())?;
            }
            let Some(line) = next_line(&mut input, number == 0)
                .map_err(|e| Failure::refused(format!("cannot read {source}: {e}")))?
            else {
                break;
            };
            number += 1;
            report(&mut out, format!("line {number}"), line)?;
        }
    }
    quiet_on_broken_pipe(out.flush())?;
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

/// The file `check --file` reads: a regular file or a pipe (`<(nqueens solve 8)`), read a
/// line at a time in memory bounded by the board; a device (`/dev/zero` never ends), a
/// folder or a socket is refused.
fn placements_file(path: &std::path::Path) -> Result<std::fs::File, Failure> {
    use std::os::unix::fs::FileTypeExt;
    let cannot = |e: std::io::Error| Failure::refused(format!("cannot read {}: {e}", path.shown()));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let kind = file.metadata().map_err(cannot)?.file_type();
    if !(kind.is_file() || kind.is_fifo()) {
        return Err(Failure::refused(format!(
            "{}: is not a regular file or a pipe (a folder, device or socket); placements \
             are read from a file",
            path.shown()
        )));
    }
    Ok(file)
}
