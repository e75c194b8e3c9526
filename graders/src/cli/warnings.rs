//! The compiler's warnings on a learner's crate, read from cargo's rendered diagnostics
//! (cached ones included: cargo replays them for a crate it does not rebuild).

use std::collections::BTreeMap;

/// Each warning of `stderr` whose primary location is under `stages/NN-slug/`, by that
/// folder name (`01-dataflow`), rendered as the compiler rendered it.
pub fn by_stage_folder(stderr: &str) -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut block: Vec<&str> = Vec::new();
    let mut flush = |block: &mut Vec<&str>| {
        let folder = block.iter().find_map(|l| {
            let path = l.trim_start().strip_prefix("--> ")?;
            let rest = path.split("stages/").nth(1)?;
            Some(rest.split('/').next()?.to_owned())
        });
        if let Some(folder) = folder {
            found
                .entry(folder)
                .or_default()
                .push(block.join("\n").trim_end().to_owned());
        }
        block.clear();
    };
    for line in stderr.lines() {
        let starts = line.starts_with("warning") || line.starts_with("error");
        if starts || line.trim_start().starts_with("Compiling") {
            flush(&mut block);
        }
        // Cargo's own tally ("`stage01` (lib) generated 1 warning") is not a warning.
        let tally = line.starts_with("warning: `") && line.contains("generated");
        if line.starts_with("warning") && !tally || !block.is_empty() {
            block.push(line);
        }
    }
    flush(&mut block);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_filed_under_the_stage_they_point_at() {
        let stderr = "   Compiling stage01 v0.1.0\n\
            warning: unused variable: `x`\n \
            --> stages/01-dataflow/src/lib.rs:3:9\n  \
            |\n3 |     let x = 1;\n  \
            |         ^ help: prefix it with an underscore: `_x`\n\n\
            warning: unused import\n \
            --> /home/a/kata/stages/02-keyed-state/src/state.rs:1:5\n\n\
            warning: `stage01` (lib) generated 1 warning\n\
            error: could not compile\n";
        let found = by_stage_folder(stderr);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found["01-dataflow"][0].starts_with("warning: unused variable: `x`"));
        assert!(found["01-dataflow"][0].contains("3 |     let x = 1;"));
        assert_eq!(found["02-keyed-state"].len(), 1);
    }
}
