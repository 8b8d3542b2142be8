#!/usr/bin/env bash
# One decode, two stacks (issue: the same workload gets the same verdict), and an A/B of known cost:
#  1. GPU-bound pair, batch 8, 16 layers: llama_decode.py (PyTorch, CUDA graph per step) and
#     jax_decode.py (JAX, one jitted step), each under nsys (capture range around 8 steps) and under
#     its own profiler (PyTorch profiler / jax.profiler), with 3 timed runs.
#  2. Host-bound pair, batch 1, 4 small layers: PyTorch eager (--graph off) and JAX op by op (--jit off).
#  3. A/B of known cost: llama_decode.py batch 8 against the same with --gpu-sleep-us 300 (a spinning
#     kernel inside each step), each with 5 timed runs and a PyTorch profiler trace of 8 steps.
# Needs .nsysdeps/ (libdw1, libelf1 .deb files). Writes $OUT/gpu_bound.tgz, host_bound.tgz and spin_ab.tgz.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/pairs-out}
D=$OUT/pairs
mkdir -p "$D/gpu_bound" "$D/host_bound" "$D/spin_ab" /tmp/dw
for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
NSYS_LD="/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
# The workloads run with a short, known environment: no variable of this machine's reaches a capture.
CLEAN=(env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" PYTHONPATH="${PYTHONPATH:-}"
  PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false)
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }

# nsys_capture DIR NAME CMD...: nsys over the workload's capture range, then the SQLite export, the
# kernel summary and nsys's GPU-in-use analysis.
nsys_capture() {
  local dir=$1 name=$2; shift 2
  timeout 300 "${CLEAN[@]}" LD_LIBRARY_PATH="$NSYS_LD" "$NSYS" profile -o "$dir/$name" --force-overwrite true \
    --cuda-graph-trace=node --capture-range=cudaProfilerApi --capture-range-end=stop --sample=none --cpuctxsw=none \
    "$@" > "$dir/$name.stdout.jsonl" 2> "$dir/$name.stderr.log"
  echo "$name profile rc=$?"; grep -h '"kind": "summary"' "$dir/$name.stdout.jsonl" | cut -c1-400
  tail -2 "$dir/$name.stderr.log" | cut -c1-300
  LD_LIBRARY_PATH=$NSYS_LD "$NSYS" export --type sqlite --force-overwrite true -o "$dir/$name.sqlite" "$dir/$name.nsys-rep" > /dev/null 2>&1
  echo "$name export rc=$?"
  LD_LIBRARY_PATH=$NSYS_LD "$NSYS" stats --report cuda_gpu_kern_sum --format csv -o "$dir/$name" "$dir/$name.sqlite" > /dev/null 2>&1
  LD_LIBRARY_PATH=$NSYS_LD "$NSYS" analyze -r gpu_time_util --format csv "$dir/$name.sqlite" > "$dir/$name.gpu_time_util.csv" 2>&1
  head -12 "$dir/${name}_cuda_gpu_kern_sum.csv" 2>/dev/null | cut -c1-200
  cat "$dir/$name.gpu_time_util.csv" | head -8
}

stamp "0 jax sanity"
"${CLEAN[@]}" python3 -c "import jax; print(jax.__version__, jax.devices())"

PT="python3 python/workloads/llama_decode.py"
JX="python3 python/workloads/jax_decode.py"
BIG="--batch 8 --warmup 8 --steps 32 --repeats 3 --profile-steps 8"
stamp "1a GPU-bound, PyTorch, nsys"
nsys_capture "$D/gpu_bound" torch_b8_nsys $PT $BIG --graph on --profile cuda-range --out "$D/gpu_bound" --name torch_b8_nsys
stamp "1b GPU-bound, PyTorch, PyTorch profiler"
timeout 300 "${CLEAN[@]}" $PT $BIG --graph on --profile torch --out "$D/gpu_bound" --name torch_b8_kineto > "$D/gpu_bound/torch_b8_kineto.stdout.jsonl" 2> "$D/gpu_bound/torch_b8_kineto.stderr.log"
echo "rc=$?"; tail -1 "$D/gpu_bound/torch_b8_kineto.stdout.jsonl" | cut -c1-400
stamp "1c GPU-bound, JAX, nsys"
nsys_capture "$D/gpu_bound" jax_b8_nsys $JX $BIG --jit on --profile cuda-range --out "$D/gpu_bound" --name jax_b8_nsys
stamp "1d GPU-bound, JAX, jax.profiler"
timeout 300 "${CLEAN[@]}" $JX $BIG --jit on --profile jax --out "$D/gpu_bound" --name jax_b8_jaxprof > "$D/gpu_bound/jax_b8_jaxprof.stdout.jsonl" 2> "$D/gpu_bound/jax_b8_jaxprof.stderr.log"
echo "rc=$?"; tail -1 "$D/gpu_bound/jax_b8_jaxprof.stdout.jsonl" | cut -c1-400; find "$D/gpu_bound" -path '*jax-profile*' -type f | xargs ls -la

SMALL="--layers 4 --hidden 1024 --heads 8 --kv-heads 2 --intermediate 2816 --batch 1 --warmup 4 --steps 16 --repeats 3 --profile-steps 4"
stamp "2a host-bound, PyTorch eager, nsys"
nsys_capture "$D/host_bound" torch_eager_nsys $PT $SMALL --graph off --profile cuda-range --out "$D/host_bound" --name torch_eager_nsys
stamp "2b host-bound, PyTorch eager, PyTorch profiler"
timeout 300 "${CLEAN[@]}" $PT $SMALL --graph off --profile torch --out "$D/host_bound" --name torch_eager_kineto > "$D/host_bound/torch_eager_kineto.stdout.jsonl" 2> "$D/host_bound/torch_eager_kineto.stderr.log"
echo "rc=$?"; tail -1 "$D/host_bound/torch_eager_kineto.stdout.jsonl" | cut -c1-400
stamp "2c host-bound, JAX op by op, nsys"
nsys_capture "$D/host_bound" jax_eager_nsys $JX $SMALL --jit off --profile cuda-range --out "$D/host_bound" --name jax_eager_nsys
stamp "2d host-bound, JAX op by op, jax.profiler"
timeout 300 "${CLEAN[@]}" $JX $SMALL --jit off --profile jax --out "$D/host_bound" --name jax_eager_jaxprof > "$D/host_bound/jax_eager_jaxprof.stdout.jsonl" 2> "$D/host_bound/jax_eager_jaxprof.stderr.log"
echo "rc=$?"; tail -1 "$D/host_bound/jax_eager_jaxprof.stdout.jsonl" | cut -c1-400

AB="--batch 8 --warmup 16 --steps 64 --repeats 5 --graph on --profile torch --profile-steps 8"
stamp "3a A/B base"
timeout 300 "${CLEAN[@]}" $PT $AB --out "$D/spin_ab" --name base > "$D/spin_ab/base.stdout.jsonl" 2> "$D/spin_ab/base.stderr.log"
echo "rc=$?"; tail -1 "$D/spin_ab/base.stdout.jsonl" | cut -c1-300
stamp "3b A/B head, +300 us of spinning per step"
timeout 300 "${CLEAN[@]}" $PT $AB --gpu-sleep-us 300 --out "$D/spin_ab" --name head_spin300 > "$D/spin_ab/head_spin300.stdout.jsonl" 2> "$D/spin_ab/head_spin300.stderr.log"
echo "rc=$?"; tail -1 "$D/spin_ab/head_spin300.stdout.jsonl" | cut -c1-300

stamp "pack"
# The device hands back at most 8 files of 16 MiB: one tarball per part, the op-by-op JAX profile's
# XPlane protobuf (7.8 MB, the raw form of the traces kept beside it) left out.
find "$D" -name '*.nsys-rep' -size +20M -delete
find "$D/host_bound" -name '*.xplane.pb' -delete
du -sh "$D"/*
( cd "$D" && find . -type f | sort | xargs ls -la )
for part in gpu_bound host_bound spin_ab; do tar czf "$OUT/$part.tgz" -C "$D" "$part"; done
rm -rf "$D"
ls -la "$OUT"
