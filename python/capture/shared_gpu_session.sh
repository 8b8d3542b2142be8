#!/usr/bin/env bash
# Does the GPU sampler see a neighbour, and does the gate use it? (references/steps/regression-gate.md,
# "A shared GPU"). One device call per part; PARTS picks them (default "S G").
#  S  the sampler alone, each recording read back by `profile-gate analyze` (its gpuSharing):
#     s_busy_nvml / s_busy_smi  a decode beside python/workloads/noisy_neighbour.py (seed 7), NVML and
#                               nvidia-smi backends: the neighbour's pid must be listed as another's
#                               (by proc), busy (SM >= 2 %) on NVML, the decode as own;
#     s_idle_nvml               beside a process that only holds a CUDA context: listed, never busy,
#                               the run not shared;
#     s_quiet_nvml              alone: nothing listed but the decode.
#  G  profile-gate run as a user runs it, A/B in one job under the neighbour: 3 jobs with the head 5 %
#     slower (--gpu-sleep-us 140) and 3 A/A; each must FAIL or be insufficient-data (never PASS), each
#     A/A must not FAIL; the report names the shared runs and what the gate did with them.
#     JOBS picks the job numbers (default "1 2 3"; about 3 min a pair: JOBS="1" per device call fits);
#     NB_SEED the neighbour's seed (default 3).
# Needs: .nodebin/node.xz, the bundled dist/ (npm run build after merging). Writes under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/shared-gpu-session}
W=/tmp/shared_gpu_session
rm -rf "$W" && mkdir -p "$W" "$OUT"
exec > >(tee -a "$OUT/shared_gpu_session.log") 2>&1
export PYTHONUNBUFFERED=1
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
PG="/tmp/node dist/cli/index.js"
WL="python3 python/workloads/llama_decode.py"
DEC="--steps 64 --repeats 3 --warmup 16"
PARTS=${PARTS:-S G}
t0=$(date +%s)
stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv | tee "$OUT/gpu.csv"

# What a recording says, read back by the product: each run's sharing, and the own/other counts in the file.
summary() { # $1 recording
  $PG analyze --json - "$1" 2> "$1.analyze.err" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("  gpuSharing", json.dumps(r.get("gpuSharing")))
print("  notices", [(n["code"], n["message"][:160]) for n in r["notices"] if n["code"].startswith("gpu-")])'
  python3 - "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
head = rows[0]
samples = [r for r in rows if r.get("kind") == "sample"]
print("  header", {k: head.get(k) for k in ("version", "backend", "processes", "gpu_free_before")})
print("  samples", len(samples), "own>0:", sum(1 for s in samples if (s.get("own") or 0) > 0),
      "command_on_gpu false:", sum(1 for s in samples if s.get("command_on_gpu") is False),
      "listing failed:", sum(1 for s in samples if s.get("others") is None))
others = {}
for s in samples:
    for o in s.get("others") or []:
        k = (o["pid"], o["owner"], o["by"])
        sm = o["sm_util"]
        others.setdefault(k, []).append(sm)
for (pid, owner, by), sms in sorted(others.items()):
    known = [x for x in sms if x is not None]
    print("  other pid %d owner %s by %s: %d samples, SM max %s, SM>=2 in %d" % (pid, owner, by, len(sms), max(known) if known else None, sum(1 for x in known if x >= 2)))
PY
}

if [[ " $PARTS " == *" S "* ]]; then
  python3 python/workloads/noisy_neighbour.py --seed 7 --duration 120 > "$OUT/neighbour_s7.jsonl" 2>&1 &
  NB=$!
  sleep 5
  echo "neighbour pid $NB"
  for backend in nvml nvidia-smi; do
    name=s_busy_${backend/nvidia-smi/smi}
    stamp "S $name"
    timeout 150 python3 python/gpu_snapshot.py --backend $backend --interval 0.1 --gpu-free-before --out "$OUT/$name.gpu.jsonl" \
      --run $WL $DEC --out /tmp/sg --name $name > "$OUT/$name.stdout.jsonl" 2> "$OUT/$name.stderr.log"
    echo "rc=$?"; summary "$OUT/$name.gpu.jsonl"
  done
  kill -TERM $NB; wait $NB
  python3 -c 'import time, torch; x = torch.ones(1 << 20, device="cuda"); torch.cuda.synchronize(); print("holding", flush=True); time.sleep(90)' > "$OUT/idle_holder.log" 2>&1 &
  IDLE=$!
  sleep 8
  echo "idle holder pid $IDLE"
  stamp "S s_idle_nvml"
  timeout 150 python3 python/gpu_snapshot.py --backend nvml --interval 0.1 --gpu-free-before --out "$OUT/s_idle_nvml.gpu.jsonl" \
    --run $WL $DEC --out /tmp/sg --name s_idle > "$OUT/s_idle_nvml.stdout.jsonl" 2> "$OUT/s_idle_nvml.stderr.log"
  echo "rc=$?"; summary "$OUT/s_idle_nvml.gpu.jsonl"
  kill -TERM $IDLE; wait $IDLE
  stamp "S s_quiet_nvml"
  timeout 150 python3 python/gpu_snapshot.py --backend nvml --interval 0.1 --gpu-free-before --out "$OUT/s_quiet_nvml.gpu.jsonl" \
    --run $WL $DEC --out /tmp/sg --name s_quiet > "$OUT/s_quiet_nvml.stdout.jsonl" 2> "$OUT/s_quiet_nvml.stderr.log"
  echo "rc=$?"; summary "$OUT/s_quiet_nvml.gpu.jsonl"
fi

if [[ " $PARTS " == *" G "* ]]; then
  python3 python/workloads/noisy_neighbour.py --seed ${NB_SEED:-3} --duration 590 > "$OUT/neighbour_s${NB_SEED:-3}.jsonl" 2>&1 &
  NB=$!
  sleep 5
  echo "neighbour pid $NB"
  for i in ${JOBS:-1 2 3}; do
    for kind in slow aa; do
      head="$WL $DEC"; [[ $kind == slow ]] && head="$WL $DEC --gpu-sleep-us 140"
      stamp "G $kind $i"
      timeout -k 10 150 $PG run --engine command --model llama-2.8b-random --run "$head" --base-run "$WL $DEC" \
        --runs 5 --max-runs 10 --warmup-runs 1 --profiler none --timeout-minutes 2 --quiet --out "$W/g_${kind}_$i" 2> "$W/g_${kind}_$i.stderr"
      echo "exit $?"; head -3 "$W/g_${kind}_$i.stderr" | cut -c1-600
      python3 - "$W/g_${kind}_$i" <<'PY'
import json, os, sys
d = sys.argv[1]
r = json.load(open(os.path.join(d, "report.json")))
b = json.load(open(os.path.join(d, "base", "baseline-report.json")))
shared = lambda rep: [x["run"] for x in (rep.get("gpuSharing") or {}).get("runs", []) if x["shared"]]
runs = lambda rep: len((rep.get("gpuSharing") or {}).get("runs", []))
print("verdict", r["verdict"], "| shared runs: head", shared(r), "of", runs(r), "| base", shared(b), "of", runs(b))
for row in r["comparison"]["rows"]:
    if row["kind"] == "metric" and row.get("threshold") is not None:
        sg = (row.get("reading") or {}).get("sharedGpu") or {}
        print(" ", row["metric"], row["status"], "delta", row["delta"], "ci", row["ci"], "samples", row.get("samples"), "leftOut", row.get("leftOut"),
              "| sharedGpu", sg.get("action"), sg.get("allRuns"), [(s["side"], s["runs"], s["who"]) for s in sg.get("sides", [])])
PY
    done
  done
  kill -TERM $NB; wait $NB
  tail -1 "$OUT/neighbour_s${NB_SEED:-3}.jsonl"
  tar czf "$OUT/shared_gpu_jobs_$(echo ${JOBS:-1 2 3} | tr -d " ").tar.gz" -C "$W" .
fi
stamp "done"
# The device returns a few files only: everything in one archive.
tar czf /tmp/shared_gpu_out.tgz -C "$OUT" . && find "$OUT" -mindepth 1 -delete && mv /tmp/shared_gpu_out.tgz "$OUT/"
ls -la "$OUT"
