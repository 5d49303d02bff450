//! Build progress: the stage on a progress bar, and per-stage wall and CPU times.

use std::time::Instant;

/// Stage reporting: a progress bar on a terminal, and per-stage timings on stderr when
/// `KBOOK_TIMINGS` is set (for profiling builds and rebuilds).
pub struct Progress(
    Option<indicatif::ProgressBar>,
    Option<std::cell::Cell<(Instant, u64, &'static str)>>,
);

impl Progress {
    /// A reporter; `enabled` shows the progress bar when stderr is a terminal.
    pub fn new(enabled: bool) -> Self {
        use std::io::IsTerminal;
        if enabled && std::io::stderr().is_terminal() {
            let pb = indicatif::ProgressBar::new(6);
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{spinner} [{pos}/{len}] {msg}")
            {
                pb.set_style(style);
            }
            Progress(Some(pb), timings())
        } else {
            Progress(None, timings())
        }
    }
    /// Starts the stage `msg`.
    pub fn stage(&self, msg: &'static str) {
        if let Some(pb) = &self.0 {
            pb.inc(1);
            pb.set_message(msg);
        }
        self.lap(msg);
    }
    fn lap(&self, next: &'static str) {
        if let Some(cell) = &self.1 {
            let (since, cpu, name) = cell.get();
            let cpu_now = cpu_time_ms();
            if !name.is_empty() {
                eprintln!(
                    "timing: {name}: {} ms (cpu {} ms)",
                    since.elapsed().as_millis(),
                    cpu_now.saturating_sub(cpu)
                );
            }
            cell.set((Instant::now(), cpu_now, next));
        }
    }
}

fn timings() -> Option<std::cell::Cell<(Instant, u64, &'static str)>> {
    std::env::var_os("KBOOK_TIMINGS")
        .map(|_| std::cell::Cell::new((Instant::now(), cpu_time_ms(), "")))
}

/// CPU time (user + system, all threads) of this process so far in milliseconds, from
/// `/proc/self/stat` (0 where there is none): stage timings on a shared machine mean little
/// without it.
fn cpu_time_ms() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15, in
    // clock ticks (100 per second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (ticks(11) + ticks(12)) * 10
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.lap("");
        if let Some(pb) = &self.0 {
            pb.finish_and_clear();
        }
    }
}
