# The learner's and the instructor's verbs. Each recipe is a thin wrapper over the `byo`
# command, which also runs without `just` as `cargo byo <verb> ...`.

# List the recipes.
default:
    @just --list

# Make stage NN the current stage and show its brief: `just start 01`.
start stage:
    cargo byo start {{stage}}

# Judge stages 01..=current, or the ones named: `just test`, `just test 02 --case 7`.
test *args:
    cargo byo test {{args}}

# Reveal the next hint of the current stage (or of the stage named).
hint *stage:
    cargo byo hint {{stage}}

# One schedule of stage 08 as a timeline: `just trace 08 --records 4 --barrier-every 2 --crash-after 3 --lag 1 --mine`.
trace *args:
    cargo byo trace {{args}}

# Where every stage stands, and the hints used.
status:
    cargo byo status

# Grade a folder of submissions: `just grade submissions/* --out grades`.
grade *args:
    cargo byo grade {{args}}

# The project's own checks: formatting, lints, and every test of the workspace.
check:
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings
    cargo test --workspace

# Start a throwaway PostgreSQL for the real sinks and print the line to export (BYO_PG).
pg:
    #!/usr/bin/env bash
    set -euo pipefail
    dir=$(mktemp -d /tmp/byo-pg.XXXXXX)
    conninfo=$(.ci/pg start "$dir")
    echo "export BYO_PG='$conninfo'"
    echo "# stop it with: .ci/pg stop $dir"

# Kill the real-sink pipeline with SIGKILL at random moments, restart it, verify exactly-once: `just demo --sink xa --kills 30`.
demo *args:
    cargo run -q -p real-sinks --bin demo -- {{args}}

# The soak: at least 200 SIGKILLs per real sink, bounded in time; starts a throwaway PostgreSQL when BYO_PG is unset.
soak *args:
    #!/usr/bin/env bash
    set -euo pipefail
    if [ -z "${BYO_PG:-}" ]; then
        dir=$(mktemp -d /tmp/byo-pg.XXXXXX)
        BYO_PG=$(.ci/pg start "$dir"); export BYO_PG
        trap '.ci/pg stop "$dir"' EXIT
    fi
    cargo run -q -p real-sinks --bin demo -- soak {{args}}

# Throughput of the real sinks against plain writes with the same fsyncs / commits (ratios); starts a throwaway PostgreSQL when BYO_PG is unset.
bench *args:
    #!/usr/bin/env bash
    set -euo pipefail
    if [ -z "${BYO_PG:-}" ]; then
        dir=$(mktemp -d /tmp/byo-pg.XXXXXX)
        BYO_PG=$(.ci/pg start "$dir"); export BYO_PG
        trap '.ci/pg stop "$dir"' EXIT
    fi
    cargo run -q -p real-sinks --bin bench -- {{args}}
