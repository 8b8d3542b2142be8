#!/usr/bin/env bash
# profile-gate itself on the GPU machine after the verdict work (docs/validation.md, 2026-12-02):
#   1  an A/B job with the automatic deep dive (--base-run, --profiler nsys, --deep-dive auto) on the
#      decode that repeats its KV heads: the deep dive must attach to the head's report
#   2  the same A/B with the head slower by a spinning kernel per step (~5 %): the verdict and its lines
# Needs: .nodebin/node.xz, .nsysdeps/*.deb, the bundled dist/. Writes $OUT/verdict_session.log and a tarball.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/verdict-session}
W=/tmp/verdict_session
rm -rf "$W" && mkdir -p "$W" "$OUT"
exec > >(tee -a "$OUT/verdict_session.log") 2>&1
export PYTHONUNBUFFERED=1
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
mkdir -p /tmp/dw && for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
export LD_LIBRARY_PATH=/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PG="/tmp/node dist/cli/index.js"
WL="python3 python/workloads/llama_decode.py"
RKV="--layers 8 --attention repeat-kv --batch 8 --prompt-len 2048 --warmup 8 --steps 64"
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }

stamp "1 A/B with the automatic deep dive"
timeout -k 10 280 $PG run --engine command --model llama-gqa-repeat-kv-8l \
  --run "$WL $RKV --repeats 3" --base-run "$WL $RKV --repeats 3" \
  --profile-run "$WL $RKV --repeats 0 --profile cuda-range --profile-steps 16" \
  --runs 3 --max-runs 3 --warmup-runs 1 --profiler nsys --deep-dive auto --timeout-minutes 4 --quiet --out "$W/ab_dd"
echo "exit $?"
python3 - "$W/ab_dd/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("verdict", r["verdict"], "| causes", r.get("decision", {}).get("causes", [])[:3])
print("deep dives", [(d.get("kernel") or d.get("name"), sorted(d.get("sections", {}))[:4] if isinstance(d.get("sections"), dict) else None) for d in r.get("deepDive", [])])
print("findings", [(f["id"], f["severity"]) for f in r["findings"]])
print("notices", [n["message"][:160] for n in r["notices"] if "deep" in n["message"].lower()])
PY

stamp "2 A/B, head with +120 us of GPU work per step"
timeout -k 10 280 $PG run --engine command --model llama-2.8b-random \
  --run "$WL --steps 64 --repeats 3 --warmup 16 --gpu-sleep-us 120" --base-run "$WL --steps 64 --repeats 3 --warmup 16" \
  --runs 5 --max-runs 9 --warmup-runs 1 --profiler none --timeout-minutes 4 --quiet --out "$W/ab_slow"
echo "exit $?"
python3 -c "import json; r=json.load(open('$W/ab_slow/report.json')); print('verdict', r['verdict']); print('\n'.join(json.dumps(c) for c in r.get('decision', {}).get('causes', [])[:4]))"

stamp "pack"
find "$W" -name '*.nsys-rep' -delete
find "$W" -name '*.sqlite' -delete
tar czf "$OUT/verdict_session.tar.gz" -C "$W" .
ls -la "$OUT"
