//! The reference's stage 01, except that `poll` at position 2 does what `MISBEHAVIOUR`
//! says: exit, loop, spin on four threads, overflow, panic, fake a success, print, hog memory, forge protocol
//! lines, leave a writer behind, flood, or print its environment.

pub use solution01::*;

pub struct VecSource<T>(solution01::VecSource<T>);
impl<T> VecSource<T> {
    pub fn new(records: Vec<T>) -> Self {
        Self(solution01::VecSource::new(records))
    }
}
impl<T: Clone> Source for VecSource<T> {
    type Item = T;
    fn poll(&mut self) -> Option<T> {
        if self.0.position() == 2 {
            misbehave();
        }
        self.0.poll()
    }
    fn position(&self) -> Offset {
        self.0.position()
    }
    fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
        self.0.seek(offset)
    }
}

fn misbehave() {
    match std::env::var("MISBEHAVIOUR").as_deref() {
        Ok("exit") => std::process::exit(0),
        Ok("loop") => loop {
            std::hint::black_box(());
        },
        Ok("spin") => {
            // Three threads computing beside the one that would answer.
            for _ in 0..3 {
                std::thread::spawn(|| {
                    loop {
                        std::hint::black_box(());
                    }
                });
            }
            loop {
                std::hint::black_box(());
            }
        }
        Ok("overflow") => {
            #[allow(unconditional_recursion)]
            fn deeper(n: u64) -> u64 {
                1 + deeper(std::hint::black_box(n + 1))
            }
            std::hint::black_box(deeper(0));
        }
        Ok("panic") => panic!("misbehaving at position 2"),
        Ok("fake-success") => {
            println!("test result: ok. 259 passed; 0 failed");
            std::process::exit(0);
        }
        Ok("print") => println!("debugging: at position 2"),
        Ok("forge") => {
            // The driver's own lines, as an attacker who read the source would write
            // them, without the run's nonce: a fake start (to reset the case clock)
            // and a fake finish.
            println!("\u{1e}byo:{{\"Start\":0}}");
            println!("\u{1e}byo:0000000000000000:\"Finished\"");
        }
        Ok("grandchild") => {
            // Leaves a process behind that writes to the inherited stderr forever.
            let _ = std::process::Command::new("sh")
                .arg("-c")
                .arg("while :; do echo byo-noise-marker >&2; done")
                .spawn();
        }
        Ok("flood") => {
            // 64 MiB on one line, once, then honest work.
            use std::io::Write;
            static FLOODED: std::sync::atomic::AtomicBool =
                std::sync::atomic::AtomicBool::new(false);
            if FLOODED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            let chunk = vec![b'z'; 1 << 20];
            let mut out = std::io::stdout().lock();
            for _ in 0..64 {
                let _ = out.write_all(&chunk);
            }
            let _ = out.write_all(b"\n");
        }
        Ok("env") => {
            let mut names: Vec<String> = std::env::vars_os()
                .map(|(k, _)| k.to_string_lossy().into_owned())
                .collect();
            names.sort();
            println!("environment: {}", names.join(","));
        }
        Ok("hog") => {
            // A gigabyte at once, touched so that it is really needed.
            let hog = vec![1u8; 1 << 30];
            std::hint::black_box(hog.iter().map(|b| u64::from(*b)).sum::<u64>());
        }
        _ => {}
    }
}
