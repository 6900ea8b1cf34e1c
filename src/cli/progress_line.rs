//! `verify`'s progress line on stderr (the CLI edge; the engine only reports
//! [`Progress`] through [`ProgressObserver`]).
//!
//! A spinner, then the current depth bound, the instances inlined and the open call sites
//! as of the last round of the driver, then the elapsed time:
//! `⠙ depth bound 3, 1520 instances inlined, 412 open call sites [00:00:07]`. It is redrawn
//! after every round and ticks in between, so a long solver call still shows time passing.
//! Once the search has ended without a bug and the run waits for a proof, it says so:
//! `no bug within depth 15; looking for a proof, 2.3 s left`.
//! Nothing is drawn when stderr is not a terminal (piped, redirected, CI): indicatif's
//! stderr target hides itself there. The line is cleared before the verdict is printed.

use crate::engine::{Progress, ProgressObserver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Arc;
use std::time::Duration;

/// What the line shows before the first round has ended.
const STARTING: &str = "lowering, starting the solver";

/// The line's layout: spinner, message, elapsed time.
const TEMPLATE: &str = "{spinner} {msg} [{elapsed_precise}]";

/// A progress line; [`ProgressLine::observer`] feeds it, [`ProgressLine::finish`] clears it.
pub struct ProgressLine {
    bar: ProgressBar,
}

impl ProgressLine {
    /// A line on stderr when it is a terminal, and an invisible one otherwise.
    pub fn stderr() -> ProgressLine {
        let line = ProgressLine::to(ProgressDrawTarget::stderr());
        line.bar.enable_steady_tick(Duration::from_millis(120));
        line
    }

    /// A line drawn to `target` (tests draw into a buffer), without the steady tick.
    pub fn to(target: ProgressDrawTarget) -> ProgressLine {
        let bar = ProgressBar::with_draw_target(None, target);
        let style = ProgressStyle::with_template(TEMPLATE)
            .expect("internal error: the progress template is valid");
        bar.set_style(style);
        bar.set_message(STARTING);
        ProgressLine { bar }
    }

    /// The callback that redraws this line with each round's figures.
    pub fn observer(&self) -> ProgressObserver {
        let bar = self.bar.clone();
        ProgressObserver(Arc::new(move |progress| {
            bar.set_message(message(progress));
        }))
    }

    /// Clears the line (before the verdict is printed).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The figures of one round, in words.
pub fn message(progress: Progress) -> String {
    let Progress {
        bound,
        inlined,
        open_sites,
        proof_wait_left,
    } = progress;
    if let Some(left) = proof_wait_left {
        return format!(
            "no bug within depth {bound}; looking for a proof, {:.1} s left",
            left.as_secs_f64()
        );
    }
    format!("depth bound {bound}, {inlined} instances inlined, {open_sites} open call sites")
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::TermLike;
    use std::sync::Mutex;

    /// A terminal that records what is written to it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl Screen {
        fn text(&self) -> String {
            self.0.lock().expect("screen").clone()
        }

        fn write(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().expect("screen").push_str(s);
            Ok(())
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.write(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.write("<clear>")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn round(bound: u32, inlined: usize, open_sites: usize) -> Progress {
        Progress {
            bound,
            inlined,
            open_sites,
            proof_wait_left: None,
        }
    }

    #[test]
    fn every_round_is_drawn_with_its_figures_and_the_elapsed_time() {
        let screen = Screen::default();
        let line = ProgressLine::to(ProgressDrawTarget::term_like(Box::new(screen.clone())));
        let tell = line.observer();
        line.bar.tick();
        assert!(screen.text().contains(STARTING), "{}", screen.text());
        for (i, progress) in [round(1, 3, 7), round(2, 41, 9), round(3, 1520, 412)]
            .into_iter()
            .enumerate()
        {
            (tell.0)(progress);
            let text = screen.text();
            let last = text.rsplit("<clear>").next().unwrap_or("");
            assert!(last.contains(&message(progress)), "round {i}: {text:?}");
            assert!(
                last.contains("[00:00:0"),
                "round {i}: no elapsed time in {last:?}"
            );
            assert!(
                !last.contains("0/0"),
                "round {i}: a bar instead of a spinner: {last:?}"
            );
        }
        line.finish();
        assert!(screen.text().ends_with("<clear>"), "{:?}", screen.text());
    }

    #[test]
    fn the_message_names_bound_instances_and_open_sites() {
        assert_eq!(
            message(round(4, 120, 45)),
            "depth bound 4, 120 instances inlined, 45 open call sites"
        );
    }

    #[test]
    fn while_the_run_waits_for_a_proof_the_line_says_so_with_the_time_left() {
        let waiting = Progress {
            proof_wait_left: Some(Duration::from_millis(2340)),
            ..round(15, 900, 12)
        };
        assert_eq!(
            message(waiting),
            "no bug within depth 15; looking for a proof, 2.3 s left"
        );
    }
}
