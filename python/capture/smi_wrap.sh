#!/usr/bin/env bash
# Fallback utilization sampler for run_all.sh when python/gpu_snapshot.py cannot run: samples
# nvidia-smi (CSV, with the clocks-event reasons mask) while a command runs.
# usage: smi_wrap.sh --interval SECONDS --out FILE --run CMD...   (exit code: the command's)
interval=0.1 out=smi_samples.csv
while [ $# -gt 0 ]; do
  case $1 in
    --interval) interval=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --run) shift; break ;;
    *) echo "smi_wrap.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
ms=$(python3 -c "print(max(1, int(round($interval * 1000))))")
nvidia-smi --query-gpu=timestamp,index,utilization.gpu,utilization.memory,clocks.sm,power.draw,memory.used,clocks_event_reasons.active \
  --format=csv,nounits -lms "$ms" >"$out" 2>/dev/null &
sampler=$!
"$@"
rc=$?
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
exit $rc
