#!/usr/bin/env bash
# The benchmarks on the GPU machine's 16 CPU cores, side by side in one run:
#   1  bench/gate-sim.mjs, every model, 10,000 A/A and 2,000 A/B trials per cell (the README table)
#   2  bench/kineto-ingest.mjs, the 1 GiB and 200 MB traces, 3 runs each
# Needs: .nodebin/node.xz, the compiled bench/out/gate-sim and bench/out/kineto-ingest, and
# node_modules/zod (carried). Writes $OUT/gate-sim.json, $OUT/gate-sim.txt, $OUT/kineto.txt.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/bench-out}
mkdir -p "$OUT"
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
/tmp/node --version
nproc
t0=$(date +%s)
/tmp/node bench/gate-sim.mjs --workers 16 --json "$OUT/gate-sim.json" > "$OUT/gate-sim.txt" 2>&1
echo "gate-sim exit $? in $(( $(date +%s) - t0 )) s"
t1=$(date +%s)
/tmp/node bench/kineto-ingest.mjs --repeat 3 > "$OUT/kineto.txt" 2>&1
echo "kineto-ingest exit $? in $(( $(date +%s) - t1 )) s"
tail -5 "$OUT/kineto.txt"
