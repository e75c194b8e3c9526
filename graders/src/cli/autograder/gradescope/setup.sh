#!/usr/bin/env bash
# Written by `byo autograder gradescope`: Gradescope runs it once, as root, when it builds
# the autograder's image. It installs the toolchain (pinned to the kata's rust-version)
# and the sandbox (bubblewrap), points cargo at the crates vendored in this zip (so no
# grading ever needs a registry), commits the pristine kata (byo grade grades against
# the repository as committed), builds byo, and grades the untouched skeleton once, which
# builds the graders and every stage into the grading target folder (warm for every
# submission after).
#
# AUTOGRADER_ROOT (default /autograder) moves everything, for testing; BYO_SETUP_SKIP_SYSTEM=1
# skips the apt and rustup steps on a machine that has them already.
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
source_dir="$root/source"
kata="$source_dir/kata"

if [ -z "${BYO_SETUP_SKIP_SYSTEM:-}" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        bubblewrap git curl ca-certificates build-essential >/dev/null
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
        sh -s -- -y --profile minimal --default-toolchain "@TOOLCHAIN@"
fi
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
cargo --version
bwrap --version

# The vendored crates live in CARGO_HOME, which the sandbox lets builds read; cargo's
# source replacement sends every crates.io dependency there.
if [ -d "$source_dir/vendor" ]; then
    cargo_home="${CARGO_HOME:-$HOME/.cargo}"
    mkdir -p "$cargo_home"
    rm -rf "$cargo_home/byo-vendor"
    mv "$source_dir/vendor" "$cargo_home/byo-vendor"
    # Once: a second run of setup.sh keeps the replacement it wrote.
    grep -q '^replace-with = "byo-vendored"' "$cargo_home/config.toml" 2>/dev/null ||
        cat >>"$cargo_home/config.toml" <<CONFIG
[source.crates-io]
replace-with = "byo-vendored"
[source.byo-vendored]
directory = "$cargo_home/byo-vendor"
CONFIG
fi

cd "$kata"
if [ ! -d .git ]; then
    git init -q
    git add -A
    git -c user.name=byo -c user.email=byo@localhost commit -qm "the pristine kata"
fi
cargo build --offline --locked --quiet -p graders --bin byo

# Warm the grading target folder: grade the untouched skeleton once.
warm=$(mktemp -d)
mkdir -p "$warm/skeleton"
cp -r stages "$warm/skeleton/"
./target/debug/byo grade "$warm/skeleton" --out "$warm/out" --seed 1 @STAGES@
rm -rf "$warm"
echo "setup: done"
