//! `bench`'s command line.

use clap::Parser;

/// Throughput of each sink along its paths (plain, minimal, verbs, framework,
/// reference), each as a ratio to `plain`: the same data written the plain way with the
/// same durability points. The PostgreSQL sinks need `BYO_PG`.
#[derive(Debug, Parser)]
#[command(name = "bench")]
pub struct BenchCli {
    /// How many input records.
    #[arg(long, default_value_t = 20_000)]
    pub records: u64,
    /// How many records the memory rows run: in memory, `--records` would be timed in
    /// microseconds, all noise.
    #[arg(long, default_value_t = 10_000_000)]
    pub memory_records: u64,
    /// The barrier intervals to measure, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "100,1000",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub barrier_every: Vec<u64>,
    /// How many interleaved runs per variant; the median counts.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub repeat: u64,
    /// The sinks to measure, comma-separated (xa and upsert are skipped without `BYO_PG`).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "file,xa,upsert,memory"
    )]
    pub sinks: Vec<BenchSink>,
    /// One JSON object per line (`sink`, `path`, `barrier_every`, `records`,
    /// `records_per_s`, `ratio` against `plain`) instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// A sink `bench` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchSink {
    /// Staged files renamed into the output folder.
    File,
    /// PostgreSQL prepared transactions.
    Xa,
    /// PostgreSQL netted upserts.
    Upsert,
    /// Stage 08's in-memory transactional sink (records are the input's sequence numbers).
    Memory,
}

impl BenchSink {
    /// Its name in the rows.
    pub fn name(self) -> &'static str {
        match self {
            BenchSink::File => "file",
            BenchSink::Xa => "xa",
            BenchSink::Upsert => "upsert",
            BenchSink::Memory => "memory",
        }
    }
}
