#!/usr/bin/env python3
"""A tiny CPU-only workload for testing the run orchestration of command workloads.

It uses no GPU and measures nothing of interest: it does a few timed steps of CPU work, can write
a small Chrome-trace JSON of those steps (CPU events only, like a PyTorch profiler trace without a
GPU), and can misbehave on purpose: exit non-zero, hang, ignore SIGTERM, leave child processes in
its process group, or start one in a new session (escaping the group).
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time


def busy(ms):
    end = time.perf_counter() + ms / 1000.0
    x = 0
    while time.perf_counter() < end:
        x += 1
    return x


def write_trace(path, steps):
    events = [
        {"ph": "X", "cat": "cpu_op", "name": "tiny_command_workload.step", "pid": os.getpid(), "tid": 1,
         "ts": start_us, "dur": dur_us, "args": {"step": i}}
        for i, (start_us, dur_us) in enumerate(steps)
    ]
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "w") as handle:
        json.dump({"schemaVersion": 1, "deviceProperties": [], "traceEvents": events,
                   "displayTimeUnit": "ms", "traceName": "tiny_command_workload (CPU only)"}, handle)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--step-ms", type=float, default=10.0)
    parser.add_argument("--trace", help="write a Chrome-trace JSON of the steps here")
    parser.add_argument("--print-metrics", action="store_true",
                        help='print {"kind": "run", "tok_s": N}: CPU steps per second in the shape of a '
                             "workload metric line, to test that path (no tokens are generated)")
    parser.add_argument("--exit-code", type=int, default=0)
    parser.add_argument("--hang", action="store_true", help="sleep forever after the steps")
    parser.add_argument("--ignore-sigterm", action="store_true")
    parser.add_argument("--children", type=int, default=0, help="sleeping children left in this process group")
    parser.add_argument("--escaped-child", action="store_true", help="a sleeping child in a new session")
    parser.add_argument("--pid-file", help="write {pid, pgid, children} as JSON here once started")
    args = parser.parse_args(argv)

    if args.ignore_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    children = [subprocess.Popen(["sleep", "1000"]) for _ in range(args.children)]
    if args.escaped_child:
        children.append(subprocess.Popen(["sleep", "1000"], start_new_session=True))
    if args.pid_file:
        with open(args.pid_file + ".tmp", "w") as handle:
            json.dump({"pid": os.getpid(), "pgid": os.getpgid(0), "children": [c.pid for c in children]}, handle)
        os.replace(args.pid_file + ".tmp", args.pid_file)

    steps = []
    t0 = time.perf_counter()
    for _ in range(args.steps):
        start = time.perf_counter()
        busy(args.step_ms)
        steps.append((int((start - t0) * 1e6), int((time.perf_counter() - start) * 1e6)))
    total_ms = (time.perf_counter() - t0) * 1000
    print("tiny_command_workload: %d steps in %.1f ms" % (args.steps, total_ms), flush=True)
    if args.print_metrics:
        print(json.dumps({"kind": "run", "tok_s": round(args.steps / (total_ms / 1000.0), 3)}), flush=True)
    if args.trace:
        write_trace(args.trace, steps)
    if args.hang:
        while True:
            time.sleep(3600)
    return args.exit_code


if __name__ == "__main__":
    sys.exit(main())
