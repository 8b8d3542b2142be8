#!/usr/bin/env python3
"""Stand-ins for `nsys`, `ncu` and `gpu_snapshot.py`, for tests on machines without a GPU.

Called through a link named nsys or ncu (or as gpu_snapshot.py). They run the workload they are
given, so process handling is real, and print recorded real output instead of measuring:
  nsys profile ... --output BASE CMD...  runs CMD, writes BASE.nsys-rep: a copy of the recorded real
                                         report $STAND_IN_NSYS_REP, else a placeholder. As a workload
                                         that never calls cudaProfilerStart: STAND_IN_NSYS_RANGE=never
                                         writes nothing under --capture-range=cudaProfilerApi (exit 0,
                                         as nsys does), and =none writes nothing in any case
  nsys stats ... REP                     prints the recorded `nsys stats` CSV ($STAND_IN_NSYS_STATS); with
                                         --force-export=true, writes the export beside REP (REP's name, .sqlite),
                                         as nsys does: a copy of $STAND_IN_NSYS_SQLITE, else a placeholder
  nsys analyze -r gpu_time_util... REP   prints the recorded analysis ($STAND_IN_NSYS_GPU_UTIL, default
                                         recorded/nsys_healthy_gpu_time_util_t100.csv); fails, as nsys
                                         does, when the recorded stats say the capture has no CUDA data
  ncu ... CMD                            runs CMD, prints the recorded ncu CSV ($STAND_IN_NCU_CSV),
                                         into the --log-file when one is given
  gpu_snapshot.py --interval S --out F --run CMD...   runs CMD, writes gpu-snapshot v1 JSON lines of zero utilization;
                                         with $STAND_IN_NEIGHBOUR_OUT (a regex), version 2 lines that list
                                         the GPU's processes: the command's own, and where F matches the regex
                                         a neighbour (host pid 4194000, SM 73 %, 8 GiB) listed before it started
STAND_IN_TOOLS_ARGV_LOG appends each invocation's argv (JSON) to that file.
"""
import json
import os
import shutil
import subprocess
import sys
import time

VALUE_FLAGS_NSYS = {"--output", "-o", "--trace", "-t", "--capture-range", "--capture-range-end", "--cuda-graph-trace",
                    "--sample", "--cpuctxsw", "--force-overwrite", "--delay", "--duration"}
VALUE_FLAGS_NCU = {"--clock-control", "--page", "--section", "-k", "--kernel-name", "--kernel-name-base", "--launch-skip",
                   "--launch-count", "-c", "-s", "--metrics", "--log-file"}


def split_command(args, value_flags):
    """Options up to the first word that is neither an option nor an option's value."""
    i = 0
    options = {}
    while i < len(args) and args[i].startswith("-"):
        word = args[i]
        if "=" in word:
            key, value = word.split("=", 1)
            options[key] = value
            i += 1
        elif word in value_flags and i + 1 < len(args):
            options[word] = args[i + 1]
            i += 2
        else:
            options[word] = True
            i += 1
    return options, args[i:]


def replay(path):
    with open(path) as handle:
        sys.stdout.write(handle.read())


def nsys(args):
    if args[:1] == ["profile"]:
        options, command = split_command(args[1:], VALUE_FLAGS_NSYS)
        code = subprocess.call(command)
        base = options.get("--output") or options.get("-o") or "report1"
        never = os.environ.get("STAND_IN_NSYS_RANGE", "")
        if never == "none" or (never == "never" and options.get("--capture-range") == "cudaProfilerApi"):
            sys.stderr.write("stand-in nsys: the capture range never opened; no report was written\n")
            return code
        recorded = os.environ.get("STAND_IN_NSYS_REP")
        if recorded:
            shutil.copyfile(recorded, base + ".nsys-rep")
        else:
            with open(base + ".nsys-rep", "w") as handle:
                handle.write("stand-in nsys: not a real Nsight Systems report\n")
        sys.stderr.write("Generated:\n    %s.nsys-rep\n" % base)
        return code
    if args[:1] == ["stats"]:
        if "--force-export=true" in args and args[-1].endswith(".nsys-rep"):
            export = args[-1][: -len(".nsys-rep")] + ".sqlite"
            sqlite = os.environ.get("STAND_IN_NSYS_SQLITE")
            if sqlite:
                shutil.copyfile(sqlite, export)
            else:
                with open(export, "w") as handle:
                    handle.write("stand-in nsys: not a real SQLite export\n")
        replay(os.environ["STAND_IN_NSYS_STATS"])
        return 0
    if args[:1] == ["analyze"]:
        with open(os.environ["STAND_IN_NSYS_STATS"]) as handle:
            if "does not contain CUDA kernel data" in handle.read():
                sys.stderr.write("stand-in nsys: the report holds no CUDA data to analyze\n")
                return 1
        recorded = os.path.join(os.path.dirname(os.path.realpath(__file__)), "recorded", "nsys_healthy_gpu_time_util_t100.csv")
        replay(os.environ.get("STAND_IN_NSYS_GPU_UTIL", recorded))
        return 0
    if args[:1] == ["--version"]:
        print("NVIDIA Nsight Systems version 2025.3.1.90-253135822126v0 (stand-in)")
        return 0
    sys.stderr.write("stand-in nsys: unsupported command %r\n" % args[:1])
    return 2


def ncu(args):
    options, command = split_command(args, VALUE_FLAGS_NCU)
    if options.get("--clock-control") != "none":
        sys.stderr.write("stand-in ncu: refusing to run without --clock-control none\n")
        return 2
    code = subprocess.call(command)
    log_file = options.get("--log-file")
    if log_file:
        with open(log_file, "w") as handle, open(os.environ["STAND_IN_NCU_CSV"]) as recorded:
            handle.write(recorded.read())
    else:
        replay(os.environ["STAND_IN_NCU_CSV"])
    return code


def gpu_snapshot(args):
    interval, out, command = 0.5, None, []
    i = 0
    while i < len(args):
        if args[i] == "--interval":
            interval, i = float(args[i + 1]), i + 2
        elif args[i] == "--out":
            out, i = args[i + 1], i + 2
        elif args[i] == "--run":
            command = args[i + 1:]
            break
        else:
            i += 1
    started = time.time()
    child = subprocess.Popen(command)
    samples = 0
    pattern = os.environ.get("STAND_IN_NEIGHBOUR_OUT")
    processes = {}
    if pattern is not None:
        import re
        others = [{"pid": 4194000, "owner": "other", "by": "before", "sm_util": 73, "mem_used_bytes": 8 << 30}] if re.search(pattern, out) else []
        processes = {"own": 1, "others": others, "command_on_gpu": True}
    with open(out, "w") as handle:
        # The gpu-snapshot version-1 shape (version 2 when it lists processes); backend "stand-in" says no GPU was read.
        header = {"kind": "gpu-snapshot", "version": 2 if processes else 1, "backend": "stand-in", "interval_s": interval,
                  "command": command, "devices": [{"index": 0, "name": "stand-in"}], "driver": None,
                  "vendor": None, "started_at": started}
        if processes:
            header.update({"processes": True, "gpu_free_before": "--gpu-free-before" in args})
        handle.write(json.dumps(header) + "\n")
        while True:
            handle.write(json.dumps(dict({"kind": "sample", "t": time.time(), "device": 0, "gpu_util": 0, "mem_util": 0,
                                          "sm_clock_mhz": None, "power_w": None, "mem_used_bytes": None,
                                          "reasons": ["gpu_idle"], "hw_throttle": []}, **processes)) + "\n")
            handle.flush()
            samples += 1
            try:
                code = child.wait(timeout=min(interval, 0.1))
                break
            except subprocess.TimeoutExpired:
                continue
        handle.write(json.dumps({"kind": "end", "exit_code": code, "samples": samples, "duration_s": time.time() - started}) + "\n")
    return code


def main():
    log = os.environ.get("STAND_IN_TOOLS_ARGV_LOG")
    name = os.path.basename(sys.argv[0])
    if log:
        with open(log, "a") as handle:
            handle.write(json.dumps([name] + sys.argv[1:]) + "\n")
    if name == "nsys":
        return nsys(sys.argv[1:])
    if name == "ncu":
        return ncu(sys.argv[1:])
    if name == "gpu_snapshot.py":
        return gpu_snapshot(sys.argv[1:])
    sys.stderr.write("stand-in tools: call me as nsys, ncu or gpu_snapshot.py\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
