#!/usr/bin/env bash
# jobs.json from the recorded runs, then fit.json from jobs.json (bench/README.md, "The noisy neighbour").
# Effects by construction: the 16-layer head (--gpu-sleep-us 140) measured 4.45 % slower with no neighbour
# (runs/quiet_*: median 2,706.8 against 2,832.8 tok/s); the 4-layer head's 50 µs spin on a step of
# 8 / 10,830 tok/s = 739 µs makes 6.3 %.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=bench/data/h200-neighbour
args=(--out "$D/jobs.json" --family decode-4l-jobs --per-process 3)
for i in 1 2 3; do
  args+=(--report "nb_aa_$i:aa:0:$D/jobs/nb_aa_$i.report.json" --report "nb_slow_$i:ab:0.063:$D/jobs/nb_slow_$i.report.json")
done
args+=(--family decode-16l-processes)
for i in 1 2 3; do
  # One process per side, in the order they ran: base, head, base again.
  args+=(--processes "s${i}_aa:aa:0:$D/runs/s${i}_base.stdout.jsonl,$D/runs/s${i}_base2.stdout.jsonl")
  args+=(--processes "s${i}_ab:ab:0.0445:$D/runs/s${i}_base2.stdout.jsonl,$D/runs/s${i}_head.stdout.jsonl")
done
node bench/neighbour-import.mjs "${args[@]}"
node bench/neighbour-fit.mjs --data "$D/jobs.json" --out "$D/fit.json"
