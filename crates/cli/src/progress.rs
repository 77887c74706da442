//! Progress bars for `ecclesia ingest` (indicatif), behind the core's
//! `ProgressFactory` so the domain crates never see a terminal.

use ecclesia_core::{Progress, ProgressFactory};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// Bars drawn on stderr.
#[derive(Default)]
pub struct Bars {
    multi: MultiProgress,
}

struct Bar(ProgressBar);

impl Progress for Bar {
    fn set_length(&self, len: u64) {
        self.0.set_length(len);
        self.0.set_style(bar_style());
    }
    fn inc(&self, delta: u64) {
        self.0.inc(delta);
    }
    fn set_message(&self, msg: &str) {
        self.0.set_message(msg.to_string());
    }
    fn finish(&self) {
        self.0.finish();
    }
}

fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {elapsed} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

impl ProgressFactory for Bars {
    fn bar(&self, label: &str, len: Option<u64>) -> Box<dyn Progress> {
        let bar = match len {
            Some(n) => ProgressBar::new(n).with_style(bar_style()),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{prefix:>12} {spinner} {pos} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        };
        let bar = self.multi.add(bar);
        bar.set_prefix(label.to_string());
        Box::new(Bar(bar))
    }
}
