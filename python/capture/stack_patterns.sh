#!/usr/bin/env bash
# Captures of windows that are not a steady decode, each made the way a user would make it:
#  1. prefill only: one eager forward of a 1,024-token prompt (stack_patterns.py --pattern prefill), nsys node-level
#  2. graph-replayed decode: eager prefill + 64 graph replays with eager sampling, nsys at its default
#     graph-level tracing, and the node-level twin of the same window
#  3. autotune window: triton.autotune tuning a GEMV on first use, then 48 steady steps, nsys node-level
#  4. bf16 MoE decode (llama_decode.py --mlp moe, CUDA graph per step, batch 8): nsys node-level and the
#     PyTorch profiler
#  5. an Nsight Compute details page of 40 consecutive launches of an eager decode (many small kernels)
#  6. two `nsys profile --stats=true` runs (batch 1 and batch 8) written to one console log with a Markdown
#     heading before each, as a CI log or a pasted note holds them
# Needs .nsysdeps/ (libdw1, libelf1 .deb files). Writes $OUT/patterns.tgz.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/patterns-out}
D=$OUT/patterns
mkdir -p "$D" /tmp/dw
for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
NCU=${NCU:-/usr/local/cuda/bin/ncu}
NSYS_LD="/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CLEAN=(env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" PYTHONPATH="${PYTHONPATH:-}" PYTHONUNBUFFERED=1)
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }
PARTS=${PARTS:-1 2 3 4 5 6}
part() { [[ " $PARTS " == *" $1 "* ]]; }

# nsys_capture NAME GRAPH_TRACE CMD...: nsys over the workload's capture range, the SQLite export, the
# kernel summary and the per-launch GPU trace as CSV.
nsys_capture() {
  local name=$1 trace=$2; shift 2
  timeout 400 "${CLEAN[@]}" LD_LIBRARY_PATH="$NSYS_LD" "$NSYS" profile -o "$D/$name" --force-overwrite true \
    --cuda-graph-trace="$trace" --capture-range=cudaProfilerApi --capture-range-end=stop --sample=none --cpuctxsw=none \
    "$@" > "$D/$name.stdout.jsonl" 2> "$D/$name.stderr.log"
  echo "$name profile rc=$?"; grep -h '"kind": "summary"' "$D/$name.stdout.jsonl" | cut -c1-600
  tail -2 "$D/$name.stderr.log" | cut -c1-300
  LD_LIBRARY_PATH=$NSYS_LD "$NSYS" export --type sqlite --force-overwrite true -o "$D/$name.sqlite" "$D/$name.nsys-rep" > /dev/null 2>&1
  echo "$name export rc=$?"
  LD_LIBRARY_PATH=$NSYS_LD "$NSYS" stats --report cuda_gpu_kern_sum --format csv -o "$D/$name" "$D/$name.sqlite" > /dev/null 2>&1
  LD_LIBRARY_PATH=$NSYS_LD "$NSYS" stats --report cuda_gpu_trace --format csv -o "$D/$name" "$D/$name.sqlite" > /dev/null 2>&1
  LD_LIBRARY_PATH=$NSYS_LD "$NSYS" analyze -r gpu_time_util --format csv "$D/$name.sqlite" > "$D/$name.gpu_time_util.csv" 2>&1
  echo "kernel rows: $(( $(wc -l < "$D/${name}_cuda_gpu_kern_sum.csv" 2>/dev/null || echo 1) - 1 ))"
  head -8 "$D/${name}_cuda_gpu_kern_sum.csv" 2>/dev/null | cut -c1-220
  rm -f "$D/$name.nsys-rep"  # the report holds the environment; the SQLite export and the CSVs are what is kept
}

SP="python3 python/workloads/stack_patterns.py"
LD="python3 python/workloads/llama_decode.py"
stamp "1 prefill only"
part 1 && nsys_capture prefill_nsys node $SP --pattern prefill --prompt-len 1024
stamp "2a graph-replayed decode, graph-level trace (nsys default)"
part 2 && nsys_capture graph_decode_graphlevel graph $SP --pattern graph-decode --steps 64 --batch 8
stamp "2b graph-replayed decode, node-level trace"
part 2 && nsys_capture graph_decode_nodelevel node $SP --pattern graph-decode --steps 64 --batch 8
stamp "3 autotune window"
part 3 && nsys_capture autotune_nsys node $SP --pattern autotune --steps 48 --batch 8 --layers 8
if part 4; then
stamp "4a bf16 MoE, nsys"
MOE="--mlp moe --experts 8 --top-k 2 --batch 8 --layers 8 --hidden 2048 --heads 16 --kv-heads 4 --intermediate 1408 --warmup 8 --steps 32 --repeats 3 --profile-steps 8"
nsys_capture moe_bf16_nsys node $LD $MOE --graph on --profile cuda-range --out "$D" --name moe_bf16_nsys
stamp "4b bf16 MoE, PyTorch profiler"
timeout 300 "${CLEAN[@]}" $LD $MOE --graph on --profile torch --out "$D" --name moe_bf16_kineto > "$D/moe_bf16_kineto.stdout.jsonl" 2> "$D/moe_bf16_kineto.stderr.log"
echo "rc=$?"; tail -1 "$D/moe_bf16_kineto.stdout.jsonl" | cut -c1-300
fi
if part 5; then
stamp "5 ncu details page, 40 launches of an eager decode"
SMALL="--layers 2 --batch 32 --graph off --warmup 4 --steps 8 --repeats 1"
timeout 400 "${CLEAN[@]}" "$NCU" --clock-control none --csv --page details --launch-skip 400 --launch-count 40 \
  --section SpeedOfLight --section Occupancy --section LaunchStats $LD $SMALL > "$D/ncu_small_kernels.csv" 2> "$D/ncu_small_kernels.stderr.log"
echo "ncu rc=$? lines=$(wc -l < "$D/ncu_small_kernels.csv")"; grep -c '"Duration"' "$D/ncu_small_kernels.csv"
fi
if part 6; then
stamp "6 two --stats=true runs in one console log"
LOG="$D/two_runs_stats.console.md"
: > "$LOG"
for b in 1 8; do
  echo "## nsys profile --stats=true, batch $b" >> "$LOG"; echo >> "$LOG"
  timeout 300 "${CLEAN[@]}" LD_LIBRARY_PATH="$NSYS_LD" "$NSYS" profile --stats=true -o "/tmp/stats_b$b" --force-overwrite true \
    --cuda-graph-trace=node --capture-range=cudaProfilerApi --capture-range-end=stop --sample=none --cpuctxsw=none \
    $LD --layers 4 --batch $b --warmup 4 --steps 16 --repeats 2 --profile-steps 8 --graph on --profile cuda-range --out /tmp --name stats_b$b >> "$LOG" 2>&1
  echo "stats run b=$b rc=$?"; echo >> "$LOG"
done
wc -l "$LOG"; grep -n "cuda_gpu_kern_sum" "$LOG" | head
fi
stamp "pack"
ls -la "$D"
tar -C "$OUT" -czf "$OUT/patterns.tgz" patterns && rm -rf "$D"
ls -la "$OUT"
