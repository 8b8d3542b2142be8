#!/usr/bin/env bash
# Weight dequantization every step, and profile-gate run as a user runs it (one device call):
#  1. llama_decode.py batch 8 with --linear fp8-dequant (FP8 weights dequantized to bf16 by a Triton kernel on
#     every call) and its bf16 twin, under the PyTorch profiler with Python stacks, 5 timed runs each.
#  2. profile-gate run A/B (nsys): base bf16 against head fp8-dequant; then base against a head with a
#     300 µs spin kernel per step (a cost known in advance). The reports, summaries and comments come back.
# PARTS picks the parts (default "1 2"). Needs .nodebin/node.xz, .nsysdeps/*.deb and the bundled dist/ (part 2).
# Writes $OUT/dequant.tgz (part 1) and $OUT/run_ab.tgz (part 2).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/dequant-out}
D=$OUT/dequant
W=/tmp/run_ab
rm -rf "$W" && mkdir -p "$D" "$W" /tmp/dw
export PYTHONUNBUFFERED=1
[ -f .nodebin/node.xz ] && xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
CLEAN=(env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" PYTHONPATH="${PYTHONPATH:-}" PYTHONUNBUFFERED=1)
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }
WL="python3 python/workloads/llama_decode.py"
AB="--batch 8 --warmup 16 --steps 64 --repeats 5 --graph on"

PARTS=${PARTS:-1 2}
if [[ " $PARTS " == *" 1 "* ]]; then
for lin in fp8-dequant bf16; do
  stamp "1 $lin under the PyTorch profiler"
  timeout 300 "${CLEAN[@]}" $WL $AB --linear $lin --profile torch --profile-stack --profile-steps 8 --out "$D" --name dq_$lin \
    > "$D/dq_$lin.stdout.jsonl" 2> "$D/dq_$lin.stderr.log"
  echo "rc=$? $(grep -o '"per_run_tok_s": \[[^]]*\]' "$D/dq_$lin.stdout.jsonl")"; tail -2 "$D/dq_$lin.stderr.log" | cut -c1-300
done
ls -la "$D"
tar czf "$OUT/dequant.tgz" -C "$OUT" dequant
fi
[[ " $PARTS " == *" 2 "* ]] || exit 0

export PATH=/tmp/dw/bin:$PATH LD_LIBRARY_PATH=/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /tmp/nsysbin && ln -sf /opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys /tmp/nsysbin/nsys
export PATH=/tmp/nsysbin:$PATH
PG="/tmp/node dist/cli/index.js"
RUNAB="--batch 8 --warmup 16 --steps 64 --repeats 3 --graph on --profile cuda-range --profile-steps 8"
for head in "fp8-dequant:--linear fp8-dequant" "spin300:--gpu-sleep-us 300"; do
  name=${head%%:*}; flags=${head#*:}
  stamp "2 profile-gate run A/B: bf16 base, head $name"
  timeout -k 10 290 $PG run --engine command --model llama-2.8b-random --profiler nsys --deep-dive off \
    --run "$WL $RUNAB $flags" --base-run "$WL $RUNAB" \
    --runs 3 --max-runs 5 --warmup-runs 1 --timeout-minutes 4 --quiet --out "$W/$name"
  echo "exit $?"
  python3 - "$W/$name/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("verdict", r["verdict"])
for cause in r.get("decision", {}).get("causes", [])[:4]: print("  ", json.dumps(cause)[:300])
for key in ("perStep", "timePerStep", "stepTime", "explained"):
    if key in r: print(key, json.dumps(r[key])[:1500])
print("findings", [(f["id"], f["severity"]) for f in r["findings"]])
PY
  head -40 "$W/$name/report.md"; ls "$W/$name"
done
stamp "pack"
find "$W" \( -name '*.nsys-rep' -o -name '*.sqlite' -o -name '*.qdstrm' \) -delete
tar czf "$OUT/run_ab.tgz" -C "$W" .
ls -la "$OUT"
