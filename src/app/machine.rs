//! The machine and build a benchmark ran on, so figures can be compared across machines.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    pub cpu: String,
    /// Logical CPUs this process may use (affinity and cgroup limits respected).
    pub logical_cpus: usize,
    pub memory_bytes: u64,
    pub os: String,
    pub nqueens_version: String,
    pub git_commit: String,
    pub rustc: String,
    /// When the benchmark ran, UTC, RFC 3339.
    pub date: String,
    /// The instruction-set features the kernels look for, as the CPU reports them.
    #[serde(default)]
    pub cpu_features: Vec<String>,
}

pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn describe() -> Machine {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let cpu = field(&cpuinfo, "model name")
        .or_else(|| field(&cpuinfo, "Processor"))
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let memory_bytes = field(&read("/proc/meminfo"), "MemTotal")
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024);
    let release = read("/etc/os-release");
    let name = release
        .lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_string())
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    let kernel = read("/proc/sys/kernel/osrelease");
    let os = if kernel.trim().is_empty() {
        name
    } else {
        format!("{name}, kernel {}", kernel.trim())
    };
    Machine {
        cpu,
        logical_cpus: available_cpus(),
        memory_bytes,
        os,
        nqueens_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: env!("NQUEENS_GIT_COMMIT").to_string(),
        rustc: env!("NQUEENS_RUSTC_VERSION").to_string(),
        date: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        cpu_features: nqueens::cpu::features_seen()
            .into_iter()
            .map(String::from)
            .collect(),
    }
}

/// The value of the first `key : value` line.
fn field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}
