#!/usr/bin/env bash
# profile-gate run end to end as a user runs it (one device call):
#  1  A/B, intended optimization: base --norm unfused, head fused RMSNorm, nsys: must not fail;
#     the derived uploads (profile.json, traces/*.trace.json) are written into --out
#  2  the same head alone under the PyTorch profiler (--profiler torch): its derived Kineto trace
#  4  --profiler nsys on a workload that never calls cudaProfilerStart: the capture is retaken once whole
#  3  under a noisy neighbour (python/workloads/noisy_neighbour.py): A/B with the head 5 % slower
#     (a 4-layer decode, --gpu-sleep-us 50 per step) and A/A, --profiler none, up to 10 runs a side; JOBS picks how many of each
# Needs .nodebin/node.xz, .nsysdeps/*.deb and the bundled dist/. Writes $OUT/run_session.log and reports.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/run-session}
W=/tmp/run_session
rm -rf "$W" && mkdir -p "$W" "$OUT" /tmp/dw
exec > >(tee -a "$OUT/run_session.log") 2>&1
export PYTHONUNBUFFERED=1
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
export LD_LIBRARY_PATH=/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /tmp/nsysbin && ln -sf /opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys /tmp/nsysbin/nsys
export PATH=/tmp/nsysbin:$PATH
PG="/tmp/node dist/cli/index.js"
WL="python3 python/workloads/llama_decode.py"
AB="--batch 8 --warmup 16 --steps 64 --repeats 3"
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }
summary() { # $1 report.json
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("verdict", r["verdict"])
for cause in r.get("decision", {}).get("causes", [])[:4]: print("  ", json.dumps(cause)[:260])
m = [x for x in r["metrics"] if x["name"] == "decode_tok_s"]
if m: print("decode_tok_s samples", m[0]["samples"])
c = r.get("comparison") or {}
for row in c.get("rows", []):
    if row["kind"] == "metric": print("  row", row["metric"], row["status"], row.get("baseline"), "->", row.get("current"), row.get("ci"), row.get("note", "")[:200])
print("findings", [(f["id"], f["severity"]) for f in r["findings"]])
PY
}
JOBS=${JOBS:-3}
PARTS=${PARTS:-1 2 3}
has() { [[ " $PARTS " == *" $1 "* ]]; }

if has 1; then
stamp "1 A/B: base RMSNorm in plain ops, head fused (nsys)"
timeout -k 10 240 $PG run --engine command --model llama-2.8b-random --profiler nsys --deep-dive off \
  --run "$WL $AB --profile cuda-range --profile-steps 8" --base-run "$WL $AB --norm unfused --profile cuda-range --profile-steps 8" \
  --runs 3 --max-runs 5 --warmup-runs 1 --timeout-minutes 4 --quiet --out "$W/norm_ab"
echo "exit $?"; summary "$W/norm_ab/report.json"; ls "$W/norm_ab" "$W/norm_ab/traces" 2>&1 | head -20; head -8 "$W/norm_ab/report.md"
fi

if has 2; then
stamp "2 the head alone under the PyTorch profiler"
timeout -k 10 150 $PG run --engine command --model llama-2.8b-random --profiler torch --deep-dive off \
  --run "$WL $AB" --profile-run "$WL $AB --repeats 0 --profile torch --profile-steps 8 --out captures" --captures 'captures/*.trace.json.gz' \
  --runs 2 --warmup-runs 1 --timeout-minutes 2 --quiet --out "$W/torch_one"
echo "exit $?"; summary "$W/torch_one/report.json"; ls "$W/torch_one" "$W/torch_one/traces" 2>&1 | head -20
fi

if has 4; then
stamp "4 nsys with its default capture range on a workload that never marks its window"
timeout -k 10 150 $PG run --engine command --model llama-2.8b-random --profiler nsys --deep-dive off \
  --run "$WL --batch 8 --warmup 16 --steps 64 --repeats 2 --layers 4" --runs 2 --warmup-runs 1 --timeout-minutes 2 --quiet --out "$W/lost"
echo "exit $?"; summary "$W/lost/report.json"; grep -i -E "capture range|whole process|cudaProfilerStart|profiler.start" "$W/lost/report.md" | head -5
fi

has 3 && for i in $(seq 1 "$JOBS"); do
  for kind in slow aa; do
    # A 4-layer decode: short processes, so that more jobs fit in one device call.
    NB="$WL --batch 8 --warmup 16 --steps 128 --repeats 3 --layers 4"
    head="$NB"; [ $kind = slow ] && head="$NB --gpu-sleep-us 50"
    "${PYTHON:-python3}" python/workloads/noisy_neighbour.py --seed $((10 * i + ${#kind})) --duration 120 > "$W/neighbour_${kind}_$i.jsonl" 2>&1 &
    npid=$!
    sleep 2
    stamp "3 under a neighbour: $kind job $i"
    timeout -k 10 110 $PG run --engine command --model llama-2.8b-random --profiler none \
      --run "$head" --base-run "$NB" --runs 5 --max-runs 10 --warmup-runs 1 --timeout-minutes 2 --quiet --out "$W/nb_${kind}_$i"
    echo "exit $?"
    kill -TERM $npid; wait $npid
    summary "$W/nb_${kind}_$i/report.json"
  done
done
stamp "pack"
find "$W" \( -name '*.nsys-rep' -o -name '*.sqlite' -o -name '*.qdstrm' \) -delete
tar czf "$OUT/run_session.tgz" -C "$W" .
ls -la "$OUT"
