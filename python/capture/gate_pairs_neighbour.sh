#!/usr/bin/env bash
# Real pairs of known outcome and real noise under a neighbour (one device call):
#  A  three intended optimizations of llama_decode.py (batch 8, 16 layers), each base and the shared
#     optimized head under the PyTorch profiler over 8 steps, 5 timed runs of 64 steps:
#       attention: --attention unfused (matmul + softmax, KV heads repeated) -> sdpa (fused)
#       norm:      --norm unfused (RMSNorm in plain ops) -> fused F.rms_norm
#       graph:     --graph off (eager launches) -> one CUDA graph per step
#  G  the optimized decode under nsys twice, with and without --cuda-graph-trace=node (kernel summaries):
#     the graph-level trace keeps only what ran outside the graph.
#  B  noise under a noisy neighbour (python/workloads/noisy_neighbour.py, 3 seeds): per seed a base
#     process, a head 5 % slower by construction (--gpu-sleep-us 140) and the base again (A/A), each
#     12 runs of 128 steps inside gpu_snapshot.py (0.1 s NVML samples); and both quiet, once.
# Needs .nsysdeps/*.deb (part G). PARTS picks parts (default "A G B"). Writes everything under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/pairs-out}
mkdir -p "$OUT/pairs" "$OUT/graphlevel" "$OUT/neighbour" /tmp/dw
export PYTHONUNBUFFERED=1
CLEAN=(env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" PYTHONPATH="${PYTHONPATH:-}" PYTHONUNBUFFERED=1)
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }
WL="python3 python/workloads/llama_decode.py"
COMMON="--batch 8 --warmup 16"
PARTS=${PARTS:-A G B}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.csv"

if [[ " $PARTS " == *" A "* ]]; then
for v in "opt:" "attn_unfused:--attention unfused" "norm_unfused:--norm unfused" "graph_off:--graph off"; do
  name=${v%%:*}; flags=${v#*:}
  stamp "A $name"
  timeout 150 "${CLEAN[@]}" $WL $COMMON --steps 64 --repeats 5 $flags --profile torch --profile-stack --profile-steps 8 \
    --out "$OUT/pairs" --name $name > "$OUT/pairs/$name.stdout.jsonl" 2> "$OUT/pairs/$name.stderr.log"
  echo "rc=$? $(grep -o '"per_run_tok_s": \[[^]]*\]' "$OUT/pairs/$name.stdout.jsonl")"; tail -2 "$OUT/pairs/$name.stderr.log" | cut -c1-300
done
fi

if [[ " $PARTS " == *" G "* ]]; then
for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
export LD_LIBRARY_PATH=/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for mode in node graph; do
  stamp "G nsys --cuda-graph-trace=$mode"
  timeout 150 "${CLEAN[@]}" LD_LIBRARY_PATH="$LD_LIBRARY_PATH" $NSYS profile --sample=none --cpuctxsw=none --trace=cuda,nvtx \
    --cuda-graph-trace=$mode --capture-range=cudaProfilerApi --capture-range-end=stop -o /tmp/gl_$mode -f true \
    $WL $COMMON --steps 64 --repeats 3 --profile cuda-range --profile-steps 8 --out /tmp/gl --name gl_$mode \
    > "$OUT/graphlevel/gl_$mode.stdout.jsonl" 2> "$OUT/graphlevel/gl_$mode.stderr.log"
  echo "rc=$?"
  $NSYS stats --report cuda_gpu_kern_sum --format csv -o "$OUT/graphlevel/gl_$mode" /tmp/gl_$mode.nsys-rep > /dev/null 2>&1
  ls "$OUT/graphlevel"
  $NSYS export --type sqlite -o /tmp/gl_$mode.sqlite -f true /tmp/gl_$mode.nsys-rep > /dev/null 2>&1 && gzip -9 -n -c /tmp/gl_$mode.sqlite > "$OUT/graphlevel/gl_$mode.sqlite.gz"
done
fi

if [[ " $PARTS " == *" B "* ]]; then
SNAP="python3 python/gpu_snapshot.py --backend nvml --interval 0.1"
NB="--steps 128 --repeats 12"
run_side() { # $1 name, rest: flags
  local name=$1; shift
  stamp "B $name"
  timeout 120 "${CLEAN[@]}" $SNAP --out "$OUT/neighbour/$name.gpu.jsonl" --run $WL $COMMON $NB "$@" --out /tmp/nb --name $name \
    > "$OUT/neighbour/$name.stdout.jsonl" 2> "$OUT/neighbour/$name.stderr.log"
  echo "rc=$? $(grep -o '"per_run_tok_s": \[[^]]*\]' "$OUT/neighbour/$name.stdout.jsonl")"
}
run_side quiet_base
run_side quiet_head --gpu-sleep-us 140
for seed in 1 2 3; do
  "${CLEAN[@]}" python3 python/workloads/noisy_neighbour.py --seed $seed --duration 200 > "$OUT/neighbour/neighbour_s$seed.jsonl" 2>&1 &
  npid=$!
  sleep 3
  run_side s${seed}_base
  run_side s${seed}_head --gpu-sleep-us 140
  run_side s${seed}_base2
  kill -TERM $npid; wait $npid
  tail -1 "$OUT/neighbour/neighbour_s$seed.jsonl"
done
fi
stamp "done"
ls -laR "$OUT" | head -80
