//! Drawing the tracer's screen: the board and a side panel (ratatui).

use nqueens::stepper::{Action, Stepper};
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

const PANEL_WIDTH: u16 = 46;
const PANEL_HEIGHT: u16 = 20;

/// What the screen shows beyond the search itself.
pub struct View<'a> {
    pub stepper: &'a Stepper,
    pub running: bool,
    pub speed: f64,
    pub pause_on_solution: bool,
}

/// Characters per square: two (a queen and a space) up to N = 24, one beyond.
fn cell_width(n: usize) -> u16 {
    if n <= 24 { 2 } else { 1 }
}

/// The smallest terminal that fits the board and the panel.
pub fn needed_size(n: usize) -> (u16, u16) {
    let board_w = n as u16 * cell_width(n) + 2;
    let board_h = n as u16 + 2;
    (board_w + PANEL_WIDTH, board_h.max(PANEL_HEIGHT))
}

pub fn render(frame: &mut Frame, view: &View) {
    let area = frame.area();
    let n = view.stepper.n();
    let (need_w, need_h) = needed_size(n);
    if area.width < need_w || area.height < need_h {
        let text = format!(
            "Terminal too small for N = {n}: it needs at least {need_w} x {need_h} (now {} x {}).\nEnlarge it, or trace a smaller N. q quits.",
            area.width, area.height
        );
        frame.render_widget(
            Paragraph::new(text)
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let board_w = n as u16 * cell_width(n) + 2;
    let board = Rect::new(area.x, area.y, board_w, n as u16 + 2);
    let panel = Rect::new(
        area.x + board_w,
        area.y,
        PANEL_WIDTH,
        area.height.min(PANEL_HEIGHT.max(n as u16 + 2)),
    );
    render_board(frame, board, view.stepper);
    render_panel(frame, panel, view);
}

fn render_board(frame: &mut Frame, area: Rect, s: &Stepper) {
    let n = s.n();
    let frame_color = if s.is_solution() {
        Color::Green
    } else {
        Color::Blue
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(
            Style::default()
                .fg(frame_color)
                .add_modifier(Modifier::BOLD),
        )
        .title(if s.is_solution() {
            " solution "
        } else {
            " searching "
        });
    let width = cell_width(n) as usize;
    let candidate = s.candidate();
    // Row n-1 at the top: rows count from the bottom.
    let lines: Vec<Line> = (0..n)
        .rev()
        .map(|row| {
            let spans: Vec<Span> = (0..n)
                .map(|col| {
                    let light = (row + col) % 2 == 1;
                    let queen = s.queens().get(col) == Some(&row);
                    let mut style = Style::default().bg(if light {
                        Color::Rgb(240, 217, 181)
                    } else {
                        Color::Rgb(181, 136, 99)
                    });
                    if !queen && s.attacked(col, row) && col >= s.queens().len() {
                        style = style.bg(if light {
                            Color::Rgb(200, 170, 170)
                        } else {
                            Color::Rgb(150, 105, 100)
                        });
                    }
                    let mut text = if queen {
                        "♛".to_string()
                    } else {
                        " ".to_string()
                    };
                    if candidate == Some((col, row)) {
                        style = style.bg(Color::Red);
                        text = "?".into();
                    }
                    style = style.fg(Color::Black);
                    Span::styled(format!("{text:<width$}"), style)
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn render_panel(frame: &mut Frame, area: Rect, v: &View) {
    let s = v.stepper;
    let state = if v.running { "running" } else { "halted" };
    let action_style = match s.last_action() {
        Action::Solution { .. } | Action::Finished { .. } => Style::default().fg(Color::Green),
        Action::Rejected { .. } => Style::default().fg(Color::Red),
        _ => Style::default(),
    };
    let lines = vec![
        Line::from(format!("N = {}", s.n())),
        Line::from(format!("step        {}", s.steps())),
        Line::from(format!("queens      {}", s.queens().len())),
        Line::from(format!("solutions   {}", s.solutions())),
        Line::from(format!(
            "speed       {} steps/s ({state})",
            format_speed(v.speed)
        )),
        Line::from(format!(
            "pause on solution: {}",
            if v.pause_on_solution { "on" } else { "off" }
        )),
        Line::from(""),
        Line::from(Span::styled(s.describe(), action_style)),
        Line::from(""),
        Line::from("space  run / halt"),
        Line::from("n, →   one step"),
        Line::from("s      run to the next solution"),
        Line::from("+ -    faster / slower"),
        Line::from("p      pause on each solution"),
        Line::from("r      restart"),
        Line::from("q Esc  quit"),
    ];
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" nqueens trace ");
    frame.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        area,
    );
}

fn format_speed(speed: f64) -> String {
    if speed >= 10.0 {
        format!("{speed:.0}")
    } else {
        format!("{speed:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(stepper: &Stepper, width: u16, height: u16) -> (String, ratatui::buffer::Buffer) {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        let view = View {
            stepper,
            running: false,
            speed: 10.0,
            pause_on_solution: true,
        };
        terminal.draw(|f| render(f, &view)).unwrap();
        let buffer = terminal.backend().buffer().clone();
        let text = buffer
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect::<String>();
        (text, buffer)
    }

    #[test]
    fn shows_the_candidate_in_red() {
        let mut s = Stepper::new(6);
        s.step();
        let (text, buffer) = screen(&s, 80, 24);
        assert!(text.contains("placed a queen at column 0, row 0"));
        // Candidate (col 1, row 0): bottom board row (y = n), x = 1 + 2 * col.
        let cell = &buffer[(1 + 2, 6)];
        assert_eq!(cell.symbol(), "?");
        assert_eq!(cell.bg, Color::Red);
        assert_eq!(buffer[(1, 6)].symbol(), "♛");
        assert!(text.contains("searching"));
    }

    #[test]
    fn shows_a_solution_with_a_green_frame() {
        let mut s = Stepper::new(5);
        s.run_to_solution();
        let (text, buffer) = screen(&s, 80, 24);
        assert!(text.contains("solution 1"));
        assert_eq!(buffer[(0, 0)].fg, Color::Green);
        assert_eq!(text.matches('♛').count(), 5);
    }

    #[test]
    fn says_when_the_terminal_is_too_small() {
        let s = Stepper::new(20);
        let (text, _) = screen(&s, 40, 10);
        let (w, h) = needed_size(20);
        assert!(text.contains("too small"), "{text}");
        assert!(text.contains(&format!("{w} x {h}")), "{text}");
    }
}
