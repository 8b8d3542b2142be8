#!/usr/bin/env bash
# `profile-gate run` as a user runs it on a CUDA-graph decode whose profiled run records the graph's
# capture (llama_decode.py --profile torch-capture): the PyTorch profiler is the workload's own.
# Needs .nodebin/node.xz and the bundled dist/. Writes $OUT/graphcap_run/ and $OUT/graphcap_run.log.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/graphcap-out}
mkdir -p "$OUT"
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
WL="python3 python/workloads/llama_decode.py --attention repeat-kv --batch 8 --prompt-len 2048 --layers 8 --warmup 8 --steps 64"
P=/tmp/graphcap_prof
timeout -k 10 300 /tmp/node dist/cli/index.js run --engine command --model llama-gqa-repeat-kv-8l \
  --run "$WL --repeats 3" \
  --profile-run "$WL --repeats 0 --graph on --profile torch-capture --profile-stack --profile-steps 4 --out $P --name graphcap" \
  --captures "$P/*.trace.json.gz" --profiler torch --runs 2 --warmup-runs 1 --timeout-minutes 4 \
  --out "$OUT/graphcap_run" > "$OUT/graphcap_run.log" 2>&1
echo "exit $?"
tail -60 "$OUT/graphcap_run.log"
ls -la "$OUT/graphcap_run" | head -20
tar czf "$OUT/graphcap_run.tgz" -C "$OUT" graphcap_run && rm -rf "$OUT/graphcap_run"
