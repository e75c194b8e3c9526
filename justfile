# The learner's verbs first, then the instructor's and the project's in their own groups.
# Each learner and instructor recipe is a thin wrapper over the `byo` command, which also
# runs without `just` as `cargo byo <verb> ...`. `[no-exit-message]` (just >= 1.20) keeps
# just's "recipe failed" line off the end of a failing run, so byo's verdict is the last
# thing printed; the exit code still says it failed.

# List the recipes, the learner's first.
[private]
default:
    @just --list --unsorted

# Make stage NN the current stage and show its brief: `just start 01`.
[no-exit-message]
start stage:
    cargo byo start {{stage}}

# Judge stages 01..=current, or the ones named: `just test`, `just test 02 --case 7`.
[no-exit-message]
test *args:
    cargo byo test {{args}}

# Judge the current stage again on every save (the screen cleared each time); q or Ctrl-C quits.
[no-exit-message]
watch *stage:
    cargo byo watch {{stage}}

# Reveal the next hint of the current stage (or of the stage named).
[no-exit-message]
hint *stage:
    cargo byo hint {{stage}}

# One schedule of stage 08 as a timeline (an example without flags): `just trace 08 --records 4 --barrier-every 2 --crash-after 3 --lag 1 --mine`.
[no-exit-message]
trace *args:
    cargo byo trace {{args}}

# Where every stage stands, and the hints used.
[no-exit-message]
status:
    cargo byo status

# Grade a folder of submissions: `just grade submissions/* --out grades`.
[group('instructor')]
[no-exit-message]
grade *args:
    cargo byo grade {{args}}

# Write what grades the kata on a platform: `just autograder gradescope --out dist`, `just autograder classroom --out kata-student`.
[group('instructor')]
[no-exit-message]
autograder *args:
    cargo byo autograder {{args}}

# Write the kata as a student starts it (no solutions/): `just template --out kata-student`.
[group('instructor')]
[no-exit-message]
template *args:
    cargo byo template {{args}}

# The project's own checks: formatting, lints, and every test of the workspace.
[group('project')]
check:
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings
    cargo test --workspace

# Start a throwaway PostgreSQL for the real sinks and print the line to export (BYO_PG).
[group('project')]
pg:
    #!/usr/bin/env bash
    set -euo pipefail
    dir=$(mktemp -d /tmp/byo-pg.XXXXXX)
    conninfo=$(.ci/pg start "$dir")
    echo "export BYO_PG='$conninfo'"
    echo "# stop it with: .ci/pg stop $dir"

# Kill the real-sink pipeline with SIGKILL at random moments, restart it, verify exactly-once: `just demo --sink xa --kills 30`.
[group('project')]
demo *args:
    cargo run -q -p real-sinks --bin demo -- {{args}}

# The soak: at least 200 SIGKILLs per real sink, bounded in time; starts a throwaway PostgreSQL when BYO_PG is unset.
[group('project')]
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
[group('project')]
bench *args:
    #!/usr/bin/env bash
    set -euo pipefail
    if [ -z "${BYO_PG:-}" ]; then
        dir=$(mktemp -d /tmp/byo-pg.XXXXXX)
        BYO_PG=$(.ci/pg start "$dir"); export BYO_PG
        trap '.ci/pg stop "$dir"' EXIT
    fi
    cargo run -q -p real-sinks --bin bench -- {{args}}

# cargo-mutants on the reference overlaid in stage NN, the stage's grader as the only suite: `just mutants 04` (in place, so one mutant at a time; CARGO_BUILD_JOBS=1 spares a busy machine). Works in a scratch copy; figures in graders/MUTANTS.md.
[group('project')]
mutants stage *args:
    #!/usr/bin/env bash
    set -euo pipefail
    command -v cargo-mutants >/dev/null || { echo "mutants: cargo-mutants is not installed (cargo install --locked cargo-mutants)" >&2; exit 2; }
    case "{{stage}}" in 0[1-8]) ;; *) echo "mutants: stage must be 01..08, got '{{stage}}'" >&2; exit 2;; esac
    n="{{stage}}"; repo=$(pwd)
    stage_dir=$(ls -d stages/$n-*); solution_dir=$(ls -d solutions/$n-*)
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/byo-mutants-$n.XXXXXX")
    # The working tree as it is (uncommitted edits too), without target/ or .git/.
    tar --exclude=./target --exclude=./.git -cf - . | tar -xf - -C "$scratch"
    # The reference's sources over the skeleton's, and the stage's predecessors by the
    # learner's crate names pointed at their references, as `byo` grades a solution.
    rm -rf "$scratch/$stage_dir/src"
    cp -r "$solution_dir/src" "$scratch/$stage_dir/src"
    sed -E -i 's#^stage([0-9]{2}) = \{ path = "\.\./([^"]+)" \}#stage\1 = { package = "solution\1", path = "../../solutions/\2" }#' "$scratch/$stage_dir/Cargo.toml"
    echo "mutants: stage $n in $scratch (mutants.out there); build dir target/mutants"
    cd "$scratch"
    # Its own build dir (dependencies built once, then reused by every stage's run).
    CARGO_TARGET_DIR="$repo/target/mutants" cargo mutants --in-place -p "stage$n" \
        --features grade --test-package "stage$n" {{args}} -- --test grade
