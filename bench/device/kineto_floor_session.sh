#!/usr/bin/env bash
# Kineto ingest against the byte-scan floor on the GPU machine's CPU (the class of machine a
# self-hosted GPU runner is), side by side in one run: bench/kineto-floor.mjs on the 303 MB
# held-out trace and the 1 GiB synthetic trace, 5 runs of each reader, alternating, with the
# importer of the commit before (bench/out/$BEFORE, kin-base unless set) and a CPU profile.
# Needs (carried): .nodebin/node.xz; bench/out/kineto-ingest, bench/out/kineto-bundle,
# bench/out/json-stage1.wasm, bench/out/kin-base (built here: node bench/kineto-floor.mjs builds
# the first three); node_modules/zod; bench/out/dense_batch32.trace.json.gz (the held-out capture,
# /work/shared/fixtures/h200/hf-transformers/). The synthetic trace is made from
# __tests__/fixtures/kineto/dense_decode.trace.json.gz. Writes $OUT/kineto-floor.txt and .json.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/kineto-floor-out}
mkdir -p "$OUT"
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
/tmp/node --version
nproc
grep -m1 "model name" /proc/cpuinfo
t0=$(date +%s)
/tmp/node bench/kineto-floor.mjs --no-build --repeat 5 --before "bench/out/${BEFORE:-kin-base}" --profile \
  --held-out bench/out/dense_batch32.trace.json.gz --json "$OUT/kineto-floor.json" > "$OUT/kineto-floor.txt" 2>&1
echo "kineto-floor exit $? in $(( $(date +%s) - t0 )) s"
grep -v "^   " "$OUT/kineto-floor.txt" | tail -40
