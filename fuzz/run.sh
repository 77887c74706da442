#!/usr/bin/env bash
# Bounded fuzzing of every target (CI runs this from .ci/run):
#   fuzz/run.sh            # FUZZ_SECONDS (default 20) per target, 5 targets
# Starts from the seeds kept in fuzz/seeds/<target>; new inputs go to the
# scratch corpus fuzz/corpus/<target> (ignored by git). A crash leaves its
# input in fuzz/artifacts/<target>/ and fails the run: turn it into a
# regression test beside the code it crashed, and add it to the seeds.
# Needs the nightly toolchain and cargo-fuzz (installed here if missing).
#
# Cost, measured on the 2-core dev machine (shared with other builds): installing
# cargo-fuzz 58 s; building the five targets from scratch 15m43s wall
# (16.5 CPU-minutes, release + ASan); each target then runs 21 s (5,000–24,000
# execs/s). FUZZ_DEV=1 builds without optimisation instead (5.8 CPU-minutes,
# but ~20x fewer execs/s).
set -euo pipefail
cd "$(dirname "$0")"
T=${FUZZ_SECONDS:-20}
PROFILE=()
[ "${FUZZ_DEV:-0}" = 1 ] && PROFILE=(--dev)
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
# The same dependency versions as the workspace.
[ -f Cargo.lock ] || cp ../Cargo.lock Cargo.lock
started=$(date +%s)
cargo +nightly fuzz build "${PROFILE[@]}"
echo "fuzz build: $(( $(date +%s) - started )) s"
for t in $(cargo +nightly fuzz list); do
    mkdir -p "corpus/$t"
    echo "== fuzz $t (${T}s)"
    cargo +nightly fuzz run "${PROFILE[@]}" "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$T" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 2>&1 |
        grep -E "^(#[0-9]+.*DONE|==[0-9]+==|SUMMARY|stat::number_of_executed_units|Done )|panicked|ERROR" || true
    # grep hides libFuzzer's chatter; the exit status is the fuzzer's.
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz $t failed: see fuzz/artifacts/$t"; exit 1; }
done
echo "fuzz total: $(( $(date +%s) - started )) s"
