#!/usr/bin/env bash
# profile-gate itself on the GPU machine, as a user runs it (docs/validation.md, 2026-12-01):
#   1  profile-gate run --profiler nsys with the automatic deep dive, on the GQA decode that
#      repeats its KV heads (copy-heavy; the deep dive must attach to the copy kernel)
#   2  an A/B in one job: the head about 6 % slower (a spinning kernel per step), the base with one
#      injected host stall in one of its processes
#   3  tp_decode.py at world size 1 (its all-reduce a no-op): capture and import on one GPU
# Needs: .nodebin/node.xz (this machine's node, xz-compressed), .nsysdeps/*.deb, the bundled dist/.
# Everything is packed into $OUT/product_session.tar.gz; the log is $OUT/product_session.log.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/product-out}
W=/tmp/product_session
rm -rf "$W" /tmp/ab_base_count && mkdir -p "$W" "$OUT"
exec > >(tee -a "$OUT/product_session.log") 2>&1
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
mkdir -p /tmp/dw && for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
export LD_LIBRARY_PATH=/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PG="/tmp/node dist/cli/index.js"
WL="python3 python/workloads/llama_decode.py"
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }

stamp "1 profile-gate run --profiler nsys, repeated KV heads"
RKV="--layers 8 --attention repeat-kv --batch 8 --prompt-len 2048 --warmup 8 --steps 64"
timeout -k 10 170 $PG run --engine command --model llama-gqa-repeat-kv-8l \
  --run "$WL $RKV --repeats 3" --profile-run "$WL $RKV --repeats 0 --profile cuda-range --profile-steps 16" \
  --runs 2 --warmup-runs 1 --profiler nsys --deep-dive auto --timeout-minutes 3 --quiet --out "$W/rkv"
echo "exit $?"

stamp "2 A/B: head +160 us of GPU work per step (~6 %), one stalled base process"
# The base side's fourth invocation (the warm-up counts) stalls 40 ms halfway through timed run 1.
STALL='$(python3 -c "import os;p=\"/tmp/ab_base_count\";n=int(open(p).read()) if os.path.exists(p) else 0;open(p,\"w\").write(str(n+1));print(\"--stall-run 1 --stall-ms 40\" if n==3 else \"\")")'
timeout -k 10 270 $PG run --engine command --model llama-2.8b-random \
  --run "$WL --steps 64 --repeats 3 --warmup 16 --gpu-sleep-us 160" \
  --base-run "$WL --steps 64 --repeats 3 --warmup 16 $STALL" \
  --runs 5 --max-runs 9 --warmup-runs 1 --profiler none --timeout-minutes 4 --quiet --out "$W/ab"
echo "exit $?"

stamp "3 tp_decode.py, world size 1"
timeout -k 10 100 python3 python/workloads/tp_decode.py --variant healthy --layers 8 --repeats 3 --out "$W/tp1" > "$W/tp1.log" 2>&1
echo "exit $?"; tail -n 2 "$W/tp1.log" | cut -c1-400
ls "$W/tp1" 2>/dev/null
for f in "$W"/tp1/*.pt.trace.json.gz; do [ -f "$f" ] && $PG analyze --markdown "$W/tp1/analysis.md" --json "$W/tp1/analysis.json" "$f" "$W"/tp1/*.metrics.jsonl; echo "analyze exit $?"; done

stamp "pack"
find "$W" -name '*.nsys-rep' -size +4M -delete
tar czf "$OUT/product_session.tar.gz" -C "$W" .
ls -la "$OUT"
