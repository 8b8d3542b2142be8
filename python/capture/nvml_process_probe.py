#!/usr/bin/env python3
"""What NVML says about the processes on a GPU, seen from a job's container: which pids it lists
(host or container namespace), whether each process's memory and per-process SM utilization are
readable, and whether a neighbour's pid can be told from the job's own. Prints JSON lines.

Run by python/capture/nvml_process_probe.sh with a neighbour and a workload of its own running.
"""
import json
import os
import sys
import time

import pynvml


def listed(handle, fn):
    try:
        return [{"pid": p.pid, "mem": getattr(p, "usedGpuMemory", None)} for p in fn(handle)]
    except pynvml.NVMLError as e:
        return {"error": str(e)}


def util(handle, since_us):
    try:
        return [{"pid": s.pid, "sm": s.smUtil, "mem": s.memUtil, "ts": s.timeStamp}
                for s in pynvml.nvmlDeviceGetProcessUtilization(handle, since_us)]
    except pynvml.NVMLError as e:
        return {"error": str(e)}


def main():
    known = dict(arg.split("=", 1) for arg in sys.argv[1:])
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    print(json.dumps({"kind": "probe", "self_pid": os.getpid(), "known": known,
                      "pid_ns": os.readlink("/proc/self/ns/pid"),
                      "driver": pynvml.nvmlSystemGetDriverVersion()}), flush=True)
    since = int((time.time() - 1) * 1e6)
    for i in range(int(known.get("samples", "10"))):
        t = time.time()
        row = {"kind": "sample", "i": i, "t": round(t, 3),
               "compute": listed(handle, pynvml.nvmlDeviceGetComputeRunningProcesses),
               "graphics": listed(handle, pynvml.nvmlDeviceGetGraphicsRunningProcesses),
               "util": util(handle, since)}
        # Which listed pids exist in this pid namespace, and what they run.
        seen = {}
        if isinstance(row["compute"], list):
            for p in row["compute"]:
                try:
                    with open("/proc/%d/cmdline" % p["pid"], "rb") as f:
                        seen[p["pid"]] = f.read().replace(b"\0", b" ").decode(errors="replace")[:120]
                except OSError as e:
                    seen[p["pid"]] = "not in this namespace (%s)" % e.strerror
        row["proc"] = seen
        since = int(t * 1e6)
        print(json.dumps(row), flush=True)
        time.sleep(0.5)


if __name__ == "__main__":
    main()
