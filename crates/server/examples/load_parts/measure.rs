//! What the load generator measures: CPU time, bytes written, latencies, lag.

use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest a 5 ms tick on `runtime` came late, and when, from `start` on.
pub fn lag(
    runtime: tokio::runtime::Handle,
    start: Instant,
) -> Arc<std::sync::Mutex<(Duration, Duration)>> {
    let worst = Arc::new(std::sync::Mutex::new((Duration::ZERO, Duration::ZERO)));
    let w = Arc::clone(&worst);
    runtime.spawn(async move {
        let tick = Duration::from_millis(5);
        loop {
            let due = Instant::now() + tick;
            tokio::time::sleep(tick).await;
            let late = Instant::now().saturating_duration_since(due);
            let mut w = w.lock().expect("the lag");
            if late > w.1 {
                *w = (due.saturating_duration_since(start), late);
            }
        }
    });
    worst
}

/// A POST this long is listed on its own.
pub const SLOW: Duration = Duration::from_millis(100);

/// The CPU time of the whole process, in ns.
pub fn process_cpu_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    u64::try_from(t.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(t.tv_nsec).unwrap_or(0)
}

/// The CPU time of the clients' threads, in ns (`/proc/self/task/*/schedstat`).
pub fn client_cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    let mut sum = 0;
    for t in tasks.flatten() {
        let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
        if comm.trim() != "load-client" {
            continue;
        }
        let stat = std::fs::read_to_string(t.path().join("schedstat")).unwrap_or_default();
        sum += stat
            .split_whitespace()
            .next()
            .and_then(|x| x.parse::<u64>().ok())
            .unwrap_or(0);
    }
    sum
}

/// The bytes this process has caused to be written to storage (`write_bytes` of
/// `/proc/self/io`): the WAL's frames and the checkpoints' pages.
pub fn disk_written() -> u64 {
    std::fs::read_to_string("/proc/self/io")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("write_bytes:"))
        .and_then(|x| x.trim().parse().ok())
        .unwrap_or(0)
}

/// The server's CPU so far: the process's less the clients'.
pub fn server_cpu_ns() -> u64 {
    process_cpu_ns().saturating_sub(client_cpu_ns())
}

pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "an index into a few thousand samples"
    )]
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// The mean of `cpu[from..to]` in ms, and how many actions it covers.
pub fn window(cpu: &[u64], from: usize, to: usize) -> (f64, usize) {
    let w = cpu.get(from..to.min(cpu.len())).unwrap_or(&[]);
    let sum: u64 = w.iter().sum();
    (sum as f64 / 1e6 / w.len().max(1) as f64, w.len())
}

/// The CPU time of other processes (the servers of `--connect`), in ns: `utime` and
/// `stime` of `/proc/PID/stat`, every thread's, counted in the kernel's clock ticks
/// (100 a second), so good for totals over seconds, not for one action.
pub fn processes_cpu_ns(pids: &[u32]) -> u64 {
    pids.iter()
        .map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .unwrap_or_else(|e| panic!("--server-pids: process {pid}: {e}"));
            // The name in parentheses may hold spaces: count the fields after it.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let fields: Vec<&str> = after.split_whitespace().collect();
            // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
            let ticks: u64 = [11, 12]
                .iter()
                .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
                .sum();
            ticks * 10_000_000
        })
        .sum()
}
