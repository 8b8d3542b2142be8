#!/usr/bin/env bash
# Captures for the verdict and the secret-scrubbing work, on an NVIDIA GPU machine (one call).
#  1. A marker secret in the workload's environment under nsys, ncu and the PyTorch profiler: which
#     files carry it (counts of the marker's bytes), kept as fixtures (.nsys-rep, its SQLite export,
#     the stats CSVs, the .ncu-rep and its CSV, a Kineto trace). The workload runs under `env -i` with
#     a short, known environment, so the fixtures hold no variable of this machine's.
#  2. python/workloads/shapes_zoo.py: a prefill-only window, one compiled forward pass, one DiT
#     denoising step, and transformers generate with and without its KV cache.
# Needs .nsysdeps/ (libdw1, libelf1 .deb files). Writes $OUT/verdict/.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/verdict-out}
D=$OUT/verdict
mkdir -p "$D/secret" "$D/zoo" /tmp/dw
for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
NSYS_LD="/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
MARK=pgmarker7f3c9a1e5b2d4c6a
SMALL="--layers 2 --hidden 1024 --heads 8 --kv-heads 2 --intermediate 2816 --prompt-len 64"
WL="python3 python/workloads/llama_decode.py $SMALL"
# The workload's whole environment: what the machine needs to run it, and two secrets.
CLEAN=(env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" PYTHONPATH="${PYTHONPATH:-}"
  HF_TOKEN="hf_$MARK" PG_GATE_SECRET="$MARK" PG_NOT_SECRET=plainvalue1234)
t0=$(date +%s)
echo "=== secret: nsys"
timeout 180 "${CLEAN[@]}" LD_LIBRARY_PATH="$NSYS_LD" "$NSYS" profile -o "$D/secret/secret" --force-overwrite true \
  --cuda-graph-trace=node --capture-range=cudaProfilerApi --capture-range-end=stop --sample=none --cpuctxsw=none \
  $WL --graph on --warmup 2 --repeats 0 --profile-steps 4 --profile cuda-range --out "$D/secret" --name secret > "$D/secret/nsys_profile.log" 2>&1
echo "rc=$?"; tail -3 "$D/secret/nsys_profile.log"
LD_LIBRARY_PATH=$NSYS_LD "$NSYS" stats --force-export=true --report cuda_gpu_kern_sum,cuda_api_sum --format csv "$D/secret/secret.nsys-rep" > "$D/secret/secret.nsys-stats.csv" 2> "$D/secret/nsys_stats.log"; echo "stats rc=$?"
LD_LIBRARY_PATH=$NSYS_LD "$NSYS" analyze -r gpu_time_util --format csv "$D/secret/secret.nsys-rep" > "$D/secret/secret.gpu_time_util.csv" 2>&1; echo "analyze rc=$?"
echo "=== secret: ncu"
timeout 180 "${CLEAN[@]}" "$NCU" --clock-control none -f -o "$D/secret/secret" -k regex:'nvjet|gemv|gemm' --launch-skip 20 --launch-count 1 \
  --section SpeedOfLight --section Occupancy $WL --graph off --warmup 2 --steps 8 --repeats 1 > "$D/secret/ncu.log" 2>&1; echo "rc=$?"
"$NCU" --import "$D/secret/secret.ncu-rep" --csv --page details > "$D/secret/secret.ncu.csv" 2>>"$D/secret/ncu.log"; echo "import rc=$?"
echo "=== secret: torch profiler"
timeout 180 "${CLEAN[@]}" $WL --graph on --warmup 2 --repeats 0 --profile-steps 4 --profile torch --out "$D/secret" --name secret_torch > "$D/secret/torch.log" 2>&1; echo "rc=$?"
echo "=== where the marker is (bytes of '$MARK'; gz files counted after gunzip)"
for f in "$D"/secret/*; do
  n=$( { case "$f" in *.gz) gzip -dc "$f";; *) cat "$f";; esac; } | grep -a -o "$MARK" | wc -l)
  echo "$n $(stat -c %s "$f") $(basename "$f")"
done | tee "$D/secret/marker_counts.txt"
if [ -f "$D/secret/secret.sqlite" ]; then
  python3 - "$D/secret/secret.sqlite" "$MARK" <<'PY' | tee "$D/secret/sqlite_tables.txt"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); mark = sys.argv[2]
for (t,) in db.execute("select name from sqlite_master where type='table' order by name"):
    cols = [r[1] for r in db.execute(f"pragma table_info('{t}')")]
    n = db.execute(f"select count(*) from '{t}'").fetchone()[0]
    hits = 0
    for c in cols:
        hits += db.execute(f"select count(*) from '{t}' where cast(\"{c}\" as text) like ?", (f"%{mark}%",)).fetchone()[0]
    if hits: print(f"{t}: {hits} cell(s) hold the marker; rows {n}; columns {cols}")
for row in db.execute("select * from TARGET_INFO_SYSTEM_ENV limit 3"): print("TARGET_INFO_SYSTEM_ENV", row)
for row in db.execute("select * from META_DATA_CAPTURE where name like '%ENVIRONMENT%' limit 5"): print("META_DATA_CAPTURE", row)
PY
fi
echo "secret part: $(( $(date +%s) - t0 )) s"
echo "=== zoo"
for m in prefill dit-step generate-nocache generate-cache forward; do
  t1=$(date +%s)
  timeout 240 python3 python/workloads/shapes_zoo.py $m --out "$D/zoo" > "$D/zoo/$m.log" 2>&1
  echo "$m rc=$? $(( $(date +%s) - t1 )) s: $(tail -1 "$D/zoo/$m.log" | cut -c1-300)"
done
ls -la "$D/secret" "$D/zoo"
# The device hands back only a few files: pack the folder into one.
tar czf "$OUT/verdict.tgz" -C "$OUT" verdict && rm -rf "$D"
