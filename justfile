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
