#!/usr/bin/env bash
# Profiled step time between processes (one device call): llama_decode.py batch 8, 16 layers, each
# process 3 timed runs of 64 steps (the truth), then the PyTorch profiler over 8 steps:
#   aa_N    the same decode, one CUDA graph per step, in 6 separate processes (A/A between processes)
#   slow3_N / slow6_N  the same with --gpu-sleep-us 85 / 170 inside each step (+3 % / +6 % of a 2.82 ms step), 2 each
#   eager_N --graph off (every kernel launched by the host), 3 processes (A/A of a host-bound window)
# Writes $OUT/trace_aa.tar (traces and run lines), so that one file comes back.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/aa-out}
W=/tmp/aa; mkdir -p "$W" "$OUT"
CLEAN=(env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" PYTHONPATH="${PYTHONPATH:-}" PYTHONUNBUFFERED=1)
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }
WL="python3 python/workloads/llama_decode.py --batch 8 --warmup 16 --steps 64 --repeats 3 --profile torch --profile-steps 8"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$W/gpu.csv"
one() { # $1 name, rest: flags
  local name=$1; shift
  stamp "$name"
  timeout 120 "${CLEAN[@]}" $WL "$@" --out "$W" --name "$name" > "$W/$name.stdout.jsonl" 2> "$W/$name.stderr.log"
  echo "rc=$? $(grep -o '"tok_s": [0-9.]*' "$W/$name.stdout.jsonl" | tr '\n' ' ')"
}
for i in 1 2 3 4 5 6; do one aa_$i; done
for i in 1 2; do one slow3_$i --gpu-sleep-us 85; one slow6_$i --gpu-sleep-us 170; done
for i in 1 2 3; do one eager_$i --graph off; done
stamp done
tar -C "$W" -cf "$OUT/trace_aa.tar" .
ls -la "$W" | head -60
