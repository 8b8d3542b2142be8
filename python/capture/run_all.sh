#!/usr/bin/env bash
# Makes the reference captures of python/workloads/llama_decode.py on an NVIDIA GPU machine.
# Each step is logged with its command, exit code and time (steps.jsonl); a failed step does not
# stop the others; steps stop being started once the time budget (BUDGET_S, default 540 s) is
# nearly spent; everything is packed into $OUT at the end.
#
# usage: python/capture/run_all.sh SELECTION...
#   a selection is a phase (smoke a b c d) or one step name (e.g. a_nsys_graph, d_attn)
#   smoke  every script on a small model; a failure there skips the steps that depend on it
#   a      healthy decode (sdpa, static KV cache, CUDA graph): torch trace, nsys node-level and
#          graph-level, timed repeats; then a_timedoff, a_torchoff, a_nsysoff: the same decode
#          launched kernel by kernel without the CUDA graph (launch-bound on the host)
#   b      unfused attention: torch trace, nsys, timed repeats
#   c      no KV cache (re-prefill each step): torch trace, nsys, timed repeats
#   d      Nsight Compute: decode GEMV (details + raw), prefill GEMM, fused attention
#   e      nsys's gpu_time_util rule on earlier reports (REPS_DIR), at thresholds 50/100/101
#   smoke2 f g h k   other stacks' kernels: FP8 _scaled_mm, torch.compile, grouped-GEMM MoE,
#          repeated KV heads (see the section below)
# GPU settings are never changed: ncu runs with --clock-control none.
set -u
cd "$(dirname "$0")/../.."
SEL=" $* "
TAG=$(echo "$*" | tr ' ' '_')
START=$(date +%s)
BUDGET=${BUDGET_S:-540}
OUT=${OUT:-/tmp/capture-out}
W=/tmp/captures_${TAG}_$START
mkdir -p "$OUT" "$W"/{logs,env,smoke,healthy,unfused,nokv,nsys,ncu}
STEPS=$W/steps.jsonl
touch "$STEPS.start"
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
DW=/tmp/dw/usr/lib/x86_64-linux-gnu
NSYS_LD="$DW${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # libdw for nsys, keeping the library path the GPU stack needs
WL="python3 python/workloads/llama_decode.py"
SUM="python3 python/capture/trace_summary.py"
UTIL="python3 python/capture/util_summary.py"
SMALL="--layers 2 --hidden 1024 --heads 8 --kv-heads 2 --intermediate 2816 --prompt-len 64"
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats"
export PYTHONUNBUFFERED=1
WL_OK=1 NSYS_OK=1 NCU_OK=1
exec > >(tee -a "$W/run_all.log") 2>&1

want() {  # is this step selected, by its own name or its phase (the part before the first _)?
  [[ "$SEL" == *" $1 "* || "$SEL" == *" ${1%%_*} "* ]]
}

step() {  # step NAME LIMIT_S COMMAND: runs COMMAND under bash with a time limit, output to logs/NAME.log
  local name=$1 limit=$2 cmd=$3
  local left=$((START + BUDGET - $(date +%s)))
  if [ "$left" -lt 25 ]; then
    echo "{\"step\":\"$name\",\"skipped\":\"time budget spent\"}" >>"$STEPS"
    echo "=== $name SKIPPED (time budget spent)"
    return 99
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  echo "=== $name (limit ${limit}s)"
  local t0=$(date +%s.%N)
  timeout -k 10 "$limit" bash -c "$cmd" >"$W/logs/$name.log" 2>&1
  local rc=$?
  local dt=$(python3 -c "print(round($(date +%s.%N) - $t0, 1))")
  python3 -c 'import json,sys; print(json.dumps({"step":sys.argv[1],"rc":int(sys.argv[2]),"seconds":float(sys.argv[3]),"cmd":sys.argv[4]}))' \
    "$name" "$rc" "$dt" "$cmd" >>"$STEPS"
  echo "    rc=$rc ${dt}s"
  grep -v '^\s*$' "$W/logs/$name.log" | tail -n 2 | cut -c1-220 | sed 's/^/    | /'
  return $rc
}

skip() { echo "{\"step\":\"$1\",\"skipped\":\"$2\"}" >>"$STEPS"; echo "=== $1 SKIPPED ($2)"; }

# nsys_cmd NAME DIR GRAPH_TRACE_FLAG WORKLOAD_ARGS: profile the cudaProfilerStart/Stop window with
# utilization sampled alongside, then the kernel/API summaries and nsys's GPU-utilization analysis.
nsys_cmd() {
  local n=$1 d=$2 flag=$3 args=$4
  echo "rc=0; $SNAP --out $d/$n.util.jsonl --run env LD_LIBRARY_PATH=$NSYS_LD $NSYS profile -o $d/$n --force-overwrite true $flag \
--capture-range=cudaProfilerApi --capture-range-end=stop --sample=none --cpuctxsw=none \
$WL $args --profile cuda-range --out $d --name $n > $d/$n.profile.stdout 2>&1 || rc=1; tail -n 4 $d/$n.profile.stdout; \
LD_LIBRARY_PATH=$NSYS_LD $NSYS stats --report cuda_gpu_kern_sum,cuda_api_sum --format csv $d/$n.nsys-rep > $d/$n.stats_kern_api.csv || rc=\$((rc|2)); \
LD_LIBRARY_PATH=$NSYS_LD $NSYS stats --report cuda_gpu_kern_sum --format csv $d/$n.nsys-rep > $d/$n.kern_sum.csv || rc=\$((rc|4)); \
LD_LIBRARY_PATH=$NSYS_LD $NSYS analyze -r gpu_time_util --format csv $d/$n.nsys-rep > $d/$n.gpu_time_util.csv 2>&1 || { rc=\$((rc|8)); \
LD_LIBRARY_PATH=$NSYS_LD $NSYS analyze -r gpu_time_util $d/$n.nsys-rep > $d/$n.gpu_time_util.txt 2>&1; }; \
LD_LIBRARY_PATH=$NSYS_LD $NSYS analyze -r gpu_time_util:threshold=100 --format csv $d/$n.nsys-rep > $d/$n.gpu_time_util_t100.csv 2>&1; \
head -n 8 $d/$n.kern_sum.csv | cut -c1-160; cat $d/$n.gpu_time_util.csv | head -n 20; exit \$rc"
}

# sampled_cmd NAME DIR ARGS: one workload run with utilization sampled alongside, then summaries.
sampled_cmd() {
  local n=$1 d=$2 args=$3
  echo "$SNAP --out $d/$n.util.jsonl --run $WL $args --out $d --name $n > $d/$n.stdout.jsonl; rc=\$?; \
$UTIL $d/$n.util.jsonl --runs $d/$n.stdout.jsonl > $d/$n.util_summary.json; \
[ -f $d/$n.trace.json.gz ] && $SUM $d/$n.trace.json.gz > $d/$n.trace_summary.json; \
tail -n 1 $d/$n.stdout.jsonl | cut -c1-600; exit \$rc"
}

ncu_cmd() {  # ncu_cmd NAME KERNEL_REGEX LAUNCH_SKIP WORKLOAD_ARGS: one kernel, report kept, CSV pages from it
  local n=$1 re=$2 skip=$3 args=$4 d=$W/ncu
  echo "rc=0; $NCU --clock-control none $SECTIONS -k 'regex:$re' --launch-skip $skip --launch-count 1 -f -o $d/$n \
$WL $args --out $d --name $n > $d/$n.stdout 2>&1 || rc=1; grep -E '==(PROF|WARNING|ERROR)==' $d/$n.stdout | tail -n 4; \
$NCU --import $d/$n.ncu-rep --csv --page details > $d/$n.details.csv || rc=\$((rc|2)); \
$NCU --import $d/$n.ncu-rep --csv --page raw > $d/$n.raw.csv || rc=\$((rc|4)); \
cut -d, -f5 $d/$n.details.csv | sort | uniq -c | head; exit \$rc"
}

# ---- setup: tools, versions and the GPU's state (read only) ----
{
  date -u +%FT%TZ; hostname; uname -r
  nvidia-smi --query-gpu=timestamp,name,driver_version,pstate,utilization.gpu,memory.used,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu,clocks_event_reasons.active --format=csv
  python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), torch.cuda.get_device_name(0))'
  "$NCU" --version | tail -n 1
} >"$W/env/start.txt" 2>&1
nvidia-smi -q -d PERFORMANCE,CLOCK,POWER >"$W/env/nvidia-smi-q_start.txt" 2>&1
mkdir -p /tmp/dw && for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
LD_LIBRARY_PATH=$NSYS_LD "$NSYS" --version >>"$W/env/start.txt" 2>&1
cat "$W/env/start.txt"

# Utilization sampler: gpu_snapshot.py when it works here, else nvidia-smi in the background.
SNAP="python3 python/gpu_snapshot.py --interval 0.1"
if python3 python/gpu_snapshot.py --interval 0.1 --out "$W/env/snapshot_probe.jsonl" --run sleep 1 >"$W/env/snapshot_probe.log" 2>&1 &&
  grep -q '"kind":"sample"' "$W/env/snapshot_probe.jsonl"; then
  echo "sampler: python/gpu_snapshot.py"
else
  SNAP="bash python/capture/smi_wrap.sh --interval 0.1"
  echo "sampler: gpu_snapshot.py FAILED, falling back to nvidia-smi (python/capture/smi_wrap.sh)"
fi

# ---- smoke: every path on a small model ----
if want smoke; then
  step smoke_healthy 120 "$(sampled_cmd healthy $W/smoke "$SMALL --attention sdpa --kv-cache static --graph on --warmup 4 --steps 8 --repeats 2 --profile torch --profile-steps 3")" || WL_OK=0
  step smoke_unfused_range 120 "$WL $SMALL --attention unfused --graph off --warmup 2 --steps 4 --repeats 1 --profile cuda-range --profile-steps 2 --out $W/smoke --name unfused_range"
  step smoke_nokv 120 "$(sampled_cmd nokv $W/smoke "$SMALL --kv-cache none --graph on --warmup 2 --steps 4 --repeats 2 --profile torch --profile-steps 2")"
  step smoke_unfused_nokv 120 "$WL $SMALL --attention unfused --kv-cache none --graph on --warmup 2 --steps 4 --repeats 1 --out $W/smoke --name unfused_nokv"
  step smoke_prefill2k 120 "$WL $SMALL --prompt-len 2048 --graph off --warmup 0 --steps 1 --repeats 1 --out $W/smoke --name prefill2k"
  if [ $WL_OK = 1 ]; then
    # nsys is usable when profile (bit 1) and the kernel summary (bit 4) worked; ncu when profile (1) and details (2) did
    step smoke_nsys 150 "$(nsys_cmd smoke_node $W/smoke --cuda-graph-trace=node "$SMALL --graph on --warmup 2 --repeats 0 --profile-steps 4")"
    [ $(($? & 5)) -ne 0 ] && NSYS_OK=0
    step smoke_ncu 150 "$(ncu_cmd smoke_gemv 'nvjet|gemv|gemm' 20 "$SMALL --graph off --warmup 4 --steps 4 --repeats 1")"
    [ $(($? & 3)) -ne 0 ] && NCU_OK=0
  fi
fi

FULL_KV="--attention sdpa --kv-cache static"
if [ $WL_OK = 0 ]; then
  for s in a_torch a_nsys_node a_nsys_graph a_timed b_torch b_nsys b_timed c_torch c_nsys c_timed d_decode d_prefill d_attn; do
    want $s && skip $s "smoke_healthy failed"
  done
else
  # ---- a: healthy decode ----
  want a_torch && step a_torch 150 "$(sampled_cmd healthy $W/healthy "$FULL_KV --graph on --warmup 16 --steps 256 --repeats 0 --profile torch --profile-steps 8")"
  if [ $NSYS_OK = 1 ]; then
    want a_nsys_node && step a_nsys_node 200 "$(nsys_cmd healthy_node $W/nsys --cuda-graph-trace=node "$FULL_KV --graph on --warmup 16 --steps 256 --repeats 0 --profile-steps 32")"
    want a_nsys_graph && step a_nsys_graph 200 "$(nsys_cmd healthy_graphlevel $W/nsys "" "$FULL_KV --graph on --warmup 16 --steps 256 --repeats 0 --profile-steps 32")"
  else
    for s in a_nsys_node a_nsys_graph b_nsys c_nsys; do want $s && skip $s "smoke_nsys failed"; done
  fi
  want a_timed && step a_timed 150 "$(sampled_cmd healthy_timed $W/healthy "$FULL_KV --graph on --warmup 16 --steps 256 --repeats 15")"
  # the same decode launched eagerly, kernel by kernel (no CUDA graph): launch-bound on the host
  want a_timedoff && step a_timedoff 150 "$(sampled_cmd healthy_graphoff_timed $W/healthy "$FULL_KV --graph off --warmup 16 --steps 256 --repeats 15")"
  want a_torchoff && step a_torchoff 150 "$(sampled_cmd healthy_graphoff $W/healthy "$FULL_KV --graph off --warmup 16 --steps 256 --repeats 0 --profile torch --profile-steps 8")"
  [ $NSYS_OK = 1 ] && want a_nsysoff && step a_nsysoff 200 "$(nsys_cmd healthy_graphoff_node $W/nsys --cuda-graph-trace=node "$FULL_KV --graph off --warmup 16 --steps 256 --repeats 0 --profile-steps 32")"

  # ---- b: unfused attention ----
  UNF="--attention unfused --kv-cache static --graph on"
  want b_torch && step b_torch 150 "$(sampled_cmd unfused $W/unfused "$UNF --warmup 16 --steps 256 --repeats 0 --profile torch --profile-steps 8")"
  [ $NSYS_OK = 1 ] && want b_nsys && step b_nsys 200 "$(nsys_cmd unfused_node $W/nsys --cuda-graph-trace=node "$UNF --warmup 16 --steps 256 --repeats 0 --profile-steps 32")"
  want b_timed && step b_timed 150 "$(sampled_cmd unfused_timed $W/unfused "$UNF --warmup 16 --steps 256 --repeats 15")"

  # ---- c: no KV cache, every step re-runs the 512-token window ----
  NOKV="--attention sdpa --kv-cache none --graph on --prompt-len 512"
  want c_torch && step c_torch 150 "$(sampled_cmd nokv $W/nokv "$NOKV --warmup 8 --repeats 0 --profile torch --profile-steps 8")"
  [ $NSYS_OK = 1 ] && want c_nsys && step c_nsys 200 "$(nsys_cmd nokv_node $W/nsys --cuda-graph-trace=node "$NOKV --warmup 8 --repeats 0 --profile-steps 16")"
  want c_timed && step c_timed 150 "$(sampled_cmd nokv_timed $W/nokv "$NOKV --warmup 8 --steps 96 --repeats 15")"

  # ---- d: Nsight Compute, one kernel each, eager steps (no graph) ----
  if [ $NCU_OK = 1 ]; then
    # decode: 65 prefill GEMMs (4 per layer + lm_head), then 65 per decode step (qkv, o, gate_up,
    # down per layer, lm_head): 65 + 3*65 + 4*10 + 2 = 302 aims at layer 10's gate_up GEMV of step 4
    want d_decode && step d_decode 180 "$(ncu_cmd decode_gemv 'nvjet|gemv|gemm' 302 "$FULL_KV --graph off --warmup 4 --steps 8 --repeats 1")"
    # prefill of 2048 tokens: 4 GEMMs per layer (qkv, o, gate_up, down); 6 skips to layer 1's gate_up
    want d_prefill && step d_prefill 180 "$(ncu_cmd prefill_gemm 'nvjet|gemm' 6 "$FULL_KV --graph off --prompt-len 2048 --warmup 0 --steps 1 --repeats 1")"
    # fused attention: 16 prefill launches (+ start-up probes) first; 40 lands in decode
    want d_attn && step d_attn 180 "$(ncu_cmd decode_attention 'sdpa|flash|fmha' 40 "$FULL_KV --graph off --warmup 4 --steps 8 --repeats 1")"
  else
    for s in d_decode d_prefill d_attn; do want $s && skip $s "smoke_ncu failed"; done
  fi
fi

# ---- f, g, h, k: other stacks' kernels (FP8, Inductor, grouped-GEMM MoE, repeated KV heads) ----
# Each makes a torch trace with shapes (record_shapes) and an nsys capture of the same decode.
#   f  FP8 weights through torch._scaled_mm at batch 16, a Triton per-token quantize kernel
#   g  torch.compile'd decode: Inductor's fused RMSNorm and fused RoPE (cat + neg in one kernel)
#   h  MoE decode, 8 experts top-2, torch._grouped_mm, batch 16
#   k  GQA model that repeats the whole cache's KV heads every step (repeat_interleave), batch 8,
#      2,048-token cache: torch trace with Python stacks (eager, for attribution), a graph trace,
#      nsys, and ncu of the copy kernel with demangled names
if [ $WL_OK = 1 ]; then
  SMOKE_OTHER="--layers 2 --hidden 1024 --heads 8 --kv-heads 2 --intermediate 1024 --prompt-len 64 --warmup 2 --steps 4 --repeats 1"
  want smoke2 && {
    step smoke2_fp8 150 "$WL $SMOKE_OTHER --linear fp8 --batch 16 --out $W/smoke --name s_fp8"
    step smoke2_moe 150 "$WL $SMOKE_OTHER --mlp moe --batch 16 --out $W/smoke --name s_moe"
    step smoke2_rkv 150 "$WL $SMOKE_OTHER --attention repeat-kv --batch 8 --out $W/smoke --name s_rkv"
    step smoke2_compile 240 "$WL $SMOKE_OTHER --compile on --out $W/smoke --name s_compile"
  }
  MID="--layers 8 --kv-cache static --graph on --warmup 16 --steps 128"
  FP8="$MID --linear fp8 --batch 16"
  want f_torch && step f_torch 150 "$(sampled_cmd fp8 $W/healthy "$FP8 --repeats 5 --profile torch --profile-steps 8")"
  [ $NSYS_OK = 1 ] && want f_nsys && step f_nsys 200 "$(nsys_cmd fp8_node $W/nsys --cuda-graph-trace=node "$FP8 --repeats 0 --profile-steps 16")"
  CMP="$MID --compile on --batch 1"
  want g_torch && step g_torch 240 "$(sampled_cmd compiled $W/healthy "$CMP --repeats 5 --profile torch --profile-steps 8")"
  MOE="$MID --mlp moe --experts 8 --top-k 2 --batch 16 --hidden 2048 --heads 16 --kv-heads 4 --intermediate 1536"
  want h_torch && step h_torch 150 "$(sampled_cmd moe $W/healthy "$MOE --repeats 5 --profile torch --profile-steps 8")"
  [ $NSYS_OK = 1 ] && want h_nsys && step h_nsys 200 "$(nsys_cmd moe_node $W/nsys --cuda-graph-trace=node "$MOE --repeats 0 --profile-steps 16")"
  RKV="--layers 8 --kv-cache static --attention repeat-kv --batch 8 --prompt-len 2048 --warmup 8 --steps 64"
  want k_torch && step k_torch 150 "$(sampled_cmd repeatkv $W/unfused "$RKV --graph on --repeats 5 --profile torch --profile-steps 8")"
  want k_stack && step k_stack 150 "$(sampled_cmd repeatkv_eager_stack $W/unfused "$RKV --graph off --repeats 0 --profile torch --profile-steps 4 --profile-stack")"
  [ $NSYS_OK = 1 ] && want k_nsys && step k_nsys 200 "$(nsys_cmd repeatkv_node $W/nsys --cuda-graph-trace=node "$RKV --graph on --repeats 0 --profile-steps 16")"
  # the copy kernel as ncu names it with demangled names (nsys and Kineto spell it with (int) casts)
  want k_ncu && step k_ncu 200 "$(NCU="$NCU --kernel-name-base demangled" ncu_cmd repeatkv_copy 'direct_copy' 60 "$RKV --graph off --warmup 4 --steps 8 --repeats 1")"
fi

# ---- e: nsys's GPU-utilization rule on reports made earlier (REPS_DIR), with its thresholds shown ----
# With the default threshold the rule lists only low-utilization chunks, so a GPU-bound capture
# prints no rows; threshold=100 lists every chunk with its In-Use %.
if want e; then
  REPS_DIR=${REPS_DIR:-.nsysdeps/reps}
  step e_help 60 "LD_LIBRARY_PATH=$NSYS_LD $NSYS analyze --help-rules gpu_time_util"
  for rep in "$REPS_DIR"/*.nsys-rep; do
    [ -f "$rep" ] || continue
    n=$(basename "$rep" .nsys-rep)
    cp -p "$rep" "$W/nsys/$n.nsys-rep"
    step e_$n 90 "rc=0; for t in 50 100 101; do LD_LIBRARY_PATH=$NSYS_LD $NSYS analyze -r gpu_time_util:threshold=\$t --format csv $W/nsys/$n.nsys-rep > $W/nsys/$n.gpu_time_util_t\$t.csv 2>&1 || rc=1; done; \
LD_LIBRARY_PATH=$NSYS_LD $NSYS analyze -r gpu_time_util:threshold=100:chunks=10 --format csv $W/nsys/$n.nsys-rep > $W/nsys/$n.gpu_time_util_t100_c10.csv 2>&1 || rc=1; \
tail -n 4 $W/nsys/$n.gpu_time_util_t100.csv; exit \$rc"
  done
fi

# ---- pack ----
nvidia-smi --query-gpu=timestamp,name,pstate,utilization.gpu,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv >"$W/env/end.txt" 2>&1
find "$W" -name '*.sqlite' -delete
tar czf "$OUT/captures_$TAG.tar.gz" -C "$W" --exclude='*.nsys-rep' --exclude='*.qdstrm' .
REPS=$(cd "$W" && find . -name '*.nsys-rep' -newer "$STEPS.start")
if [ -n "$REPS" ]; then
  (cd "$W" && tar czf "$OUT/nsys_reps_$TAG.tar.gz" $REPS)
  [ "$(stat -c %s "$OUT/nsys_reps_$TAG.tar.gz")" -gt 16000000 ] && rm -f "$OUT/nsys_reps_$TAG.tar.gz" && echo "nsys-rep archive over 16 MB: dropped"
fi
cp "$STEPS" "$OUT/steps_$TAG.jsonl"
ls -la "$OUT"
echo "total $(( $(date +%s) - START ))s"
sleep 1  # let tee finish the log
