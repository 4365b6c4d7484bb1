//! `nqueens trace N`: watch the backtracking search, in a terminal UI or as plain text.

mod view;

use crate::app::args::TraceArgs;
use crate::app::failure::Failure;
use crate::app::system::print_line;
use nqueens::stepper::{Action, Stepper};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use std::io::IsTerminal;
use std::time::{Duration, Instant};
use view::{View, render};

const MAX_SPEED: f64 = 1_000_000.0;
const MIN_SPEED: f64 = 0.5;

pub fn run(args: &TraceArgs) -> Result<(), Failure> {
    if args.plain || args.json {
        return plain(args);
    }
    if !std::io::stdout().is_terminal() {
        return Err(Failure::refused(
            "the tracer needs a terminal; for text use --plain (or --json) with --steps K or --solutions-only",
        ));
    }
    let mut terminal = ratatui::init();
    let outcome = interactive(&mut terminal, args);
    ratatui::restore();
    match outcome? {
        Quit::Key => Ok(()),
        Quit::Interrupt => Err(Failure::interrupted("trace interrupted", 130)),
    }
}

/// How the tracer was left.
enum Quit {
    /// `q` or Esc.
    Key,
    /// Ctrl-C (raw mode delivers it as a key, not as SIGINT).
    Interrupt,
}

fn interactive(terminal: &mut ratatui::DefaultTerminal, args: &TraceArgs) -> std::io::Result<Quit> {
    let mut stepper = Stepper::new(args.n);
    let mut running = args.start_running;
    let mut speed = args.speed.clamp(MIN_SPEED, MAX_SPEED);
    let mut pause_on_solution = true;
    let mut owed = 0.0f64; // steps due but not yet taken
    let mut last_tick = Instant::now();
    loop {
        terminal.draw(|f| {
            render(
                f,
                &View {
                    stepper: &stepper,
                    running,
                    speed,
                    pause_on_solution,
                },
            )
        })?;
        let wait = if running {
            Duration::from_millis(16)
        } else {
            Duration::from_millis(250)
        };
        // Resizes and other events just redraw.
        if event::poll(wait)?
            && let Event::Key(key) = event::read()?
            && key.kind == KeyEventKind::Press
        {
            let ctrl_c =
                key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
            match key.code {
                _ if ctrl_c => return Ok(Quit::Interrupt),
                KeyCode::Char('q') | KeyCode::Esc => return Ok(Quit::Key),
                KeyCode::Char(' ') => running = !running,
                KeyCode::Char('n') | KeyCode::Right => {
                    running = false;
                    stepper.step();
                }
                KeyCode::Char('s') => {
                    running = false;
                    stepper.run_to_solution();
                }
                KeyCode::Char('+') | KeyCode::Char('=') => speed = (speed * 2.0).min(MAX_SPEED),
                KeyCode::Char('-') => speed = (speed / 2.0).max(MIN_SPEED),
                KeyCode::Char('p') => pause_on_solution = !pause_on_solution,
                KeyCode::Char('r') => {
                    stepper = Stepper::new(args.n);
                    owed = 0.0;
                }
                _ => {}
            }
        }
        let now = Instant::now();
        if running {
            owed += now.duration_since(last_tick).as_secs_f64() * speed;
            // Never more than a second's worth at once, so a slow frame cannot stall.
            owed = owed.min(speed.max(1.0));
            while owed >= 1.0 {
                owed -= 1.0;
                let action = stepper.step();
                // The end of the search always halts (the view says it is over); a
                // solution halts when pausing on solutions is on.
                let halt = match action {
                    Action::Finished { .. } => true,
                    Action::Solution { .. } => pause_on_solution,
                    _ => false,
                };
                if halt {
                    running = false;
                    owed = 0.0;
                    break;
                }
            }
        }
        last_tick = now;
    }
}

/// The trace as text or JSON Lines (`--plain`, `--json`), for scripts and pipes.
fn plain(args: &TraceArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let mut stepper = Stepper::new(args.n);
    if args.solutions_only {
        // One full search (or --steps steps), one line per solution.
        let limit = args.steps.unwrap_or(u64::MAX);
        while stepper.steps() < limit {
            match stepper.step() {
                Action::Solution { count, .. } => {
                    let line = if args.json {
                        let (step, queens) = (stepper.steps(), stepper.queens());
                        serde_json::json!({"solution": count, "step": step, "queens": queens})
                            .to_string()
                    } else {
                        let rows: Vec<String> =
                            stepper.queens().iter().map(|r| r.to_string()).collect();
                        format!(
                            "solution {count} step {}: {}",
                            stepper.steps(),
                            rows.join(" ")
                        )
                    };
                    print_line(&mut out, &line)?;
                }
                Action::Finished { .. } => break,
                _ => {}
            }
        }
        return Ok(());
    }
    let Some(steps) = args.steps else {
        let with = if args.json { "--json" } else { "--plain" };
        return Err(Failure::refused(format!(
            "{with} needs --steps K or --solutions-only"
        )));
    };
    for _ in 0..steps {
        let action = stepper.step();
        let line = if args.json {
            step_json(&stepper, action)
        } else {
            format!("step {}: {}", stepper.steps(), stepper.describe())
        };
        print_line(&mut out, &line)?;
        if matches!(action, Action::Finished { .. }) {
            break; // the search is over: nothing more to show
        }
        if !args.json {
            print_line(&mut out, &board_text(&stepper))?;
        }
    }
    Ok(())
}

/// One step as a JSON object: its number, what it did (the action's fields beside
/// "action"), the queens placed after it and the step in words.
fn step_json(stepper: &Stepper, action: Action) -> String {
    let mut json = serde_json::to_value(action).expect("an action serializes");
    json["step"] = stepper.steps().into();
    json["queens"] = stepper.queens().into();
    json["text"] = stepper.describe().into();
    json.to_string()
}

/// A small text board: `Q` queens, `?` the candidate, `.` empty; row n-1 on top.
fn board_text(s: &Stepper) -> String {
    let n = s.n();
    let mut lines = Vec::with_capacity(n);
    for row in (0..n).rev() {
        let cells: Vec<&str> = (0..n)
            .map(|col| {
                if s.queens().get(col) == Some(&row) {
                    "Q"
                } else if s.candidate() == Some((col, row)) {
                    "?"
                } else {
                    "."
                }
            })
            .collect();
        lines.push(cells.join(" "));
    }
    lines.join("\n") + "\n"
}
