#!/usr/bin/env python3
"""Record GPU utilization as JSON lines, optionally while running a command.

Backends, first available wins (or pick one with --backend):
  max        max.profiler.gpu (older max.diagnostics.gpu) GPUDiagContext
  nvml       pynvml / nvidia-ml-py
  nvidia-smi nvidia-smi --query-gpu ... --format=csv,noheader,nounits -lms MS
  rocm-smi   rocm-smi --json, once per interval

Output (gpu-snapshot version 2), one JSON object per line, flushed as written:
  {"kind":"gpu-snapshot","version":2,"backend":...,"interval_s":...,"command":[...]|null,
   "devices":[{"index":0,"name":...}],"driver":...|null,"vendor":"nvidia"|"amd"|null,
   "started_at":<epoch s>,"processes":true|false,"gpu_free_before":true|false}
  {"kind":"sample","t":<epoch s>,"device":0,"gpu_util":..,"mem_util":..,"sm_clock_mhz":..,
   "power_w":..,"mem_used_bytes":..,"reasons":[...],"hw_throttle":[...],
   "own":N|null,"others":[{"pid":N,"owner":"other"|"unknown","by":"proc"|"before"|null,
                           "sm_util":N|null,"mem_used_bytes":N|null}]|null,
   "command_on_gpu":true|false|null}
  {"kind":"warning","message":...}
  {"kind":"end","exit_code":<int|null>,"samples":N,"duration_s":...}
Fields a backend cannot read are null. "reasons" are NVML clock-event reason names, gpu_idle
included; "hw_throttle" is the subset that means hardware throttling.

The GPU's compute processes (version 2; only where the header says "processes": true: the nvml and
nvidia-smi backends, and the max backend on NVIDIA through NVML or else nvidia-smi; absent from the
samples of the others): "own" counts the listed processes
of the command (--run), "others" lists every other one, null when the listing failed in that sample.
A process is the command's when this pid namespace shows it in the command's session or descended
from it (or, with --job-parent, descended from this script's parent: a server the job started).
Of the others, "owner" says how sure: "other" when this namespace shows it and it is not the
command's ("by":"proc"), or when it was listed before the command started and --gpu-free-before
says nothing of the job used the GPU then ("by":"before"); "unknown" when its pid is not in this
namespace (NVML reports host pids inside a container) and it appeared after the command started:
it may be the command's own. "sm_util" is the process's highest SM utilization in NVML's samples
since the previous sample (0 when NVML had none for it, null when it cannot say; nvidia-smi: null);
"mem_used_bytes" its GPU memory (null where not reported). "command_on_gpu" (with
--gpu-free-before): false while no process of the command can be on the GPU yet (nothing was listed
that was not listed before it started), so that "gpu_util" then is another's work; else true; null
without --gpu-free-before or a listing. Version 1 was the same without these fields.

With --run CMD..., the command runs in its own process group; SIGINT/SIGTERM are forwarded to that
group, recording stops when it exits (or after --duration, while the command runs on), and this
script exits with the command's exit code (128+N when a signal N ended it); when the samples go to
standard output, the command's standard output goes to standard error. The GPU's processes are
listed once before the command starts (what is listed then is not the command's). Without --run, it
records for --duration seconds, or until SIGINT/SIGTERM. Exit code 2: bad arguments or no backend.
Python 3.9+, standard library only besides the optional max / pynvml packages.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime

REASON_BITS = [
    (0x1, "gpu_idle"),
    (0x2, "applications_clocks_setting"),
    (0x4, "sw_power_cap"),
    (0x8, "hw_slowdown"),
    (0x10, "sync_boost"),
    (0x20, "sw_thermal_slowdown"),
    (0x40, "hw_thermal_slowdown"),
    (0x80, "hw_power_brake_slowdown"),
    (0x100, "display_clock_setting"),
]
HARDWARE_THROTTLE = {
    "sw_power_cap", "hw_slowdown", "sync_boost", "sw_thermal_slowdown",
    "hw_thermal_slowdown", "hw_power_brake_slowdown",
}


# NVML_ERROR_NOT_FOUND: nvmlDeviceGetProcessUtilization has no sample since the time asked for.
NVML_ERROR_NOT_FOUND = 6
# How far up /proc's parent links a process is followed to find whose it is.
MAX_ANCESTRY = 64


class Unavailable(Exception):
    """A backend that cannot run here; the reason is shown if no backend can."""


def reasons_from_mask(mask):
    names = [name for bit, name in REASON_BITS if mask & bit]
    unknown = mask & ~sum(bit for bit, _ in REASON_BITS)
    if unknown:
        names.append("bit_0x%x" % unknown)
    return names


def make_sample(device, gpu_util, mem_util=None, sm_clock_mhz=None, power_w=None,
                mem_used_bytes=None, reasons=(), t=None, processes=None):
    reasons = list(reasons)
    sample = {
        "kind": "sample",
        "t": round(time.time() if t is None else t, 3),
        "device": device,
        "gpu_util": gpu_util,
        "mem_util": mem_util,
        "sm_clock_mhz": sm_clock_mhz,
        "power_w": power_w,
        "mem_used_bytes": mem_used_bytes,
        "reasons": reasons,
        "hw_throttle": [r for r in reasons if r in HARDWARE_THROTTLE],
    }
    if processes is not None:
        sample.update(processes)
    return sample


def proc_stat(pid):
    """(parent pid, session id) of a process this pid namespace shows, else None."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as handle:
            text = handle.read().decode(errors="replace")
    except (OSError, ValueError):
        return None
    fields = text[text.rfind(")") + 2:].split()  # the name in parentheses may hold spaces
    try:
        return int(fields[1]), int(fields[3])
    except (IndexError, ValueError):
        return None


class Owners:
    """Whose a GPU process is: the command's (--run), another's, or not knowable here (see the docstring)."""

    def __init__(self, gpu_free_before=False, job_parent=False):
        self.gpu_free_before = gpu_free_before
        self.job_root = os.getppid() if job_parent else None
        self.command = None  # the command's pid, which is its session id (it runs in a new session)
        # Set while the command is being started: the sampler thread may list it after its exec and
        # before its pid is known here; this script's own child is the command then.
        self.starting = False
        self.before = set()  # pids listed before the command started

    def descends(self, pid, root):
        for _ in range(MAX_ANCESTRY):
            if pid == root:
                return True
            stat = proc_stat(pid)
            if stat is None or stat[0] <= 1:
                return False
            pid = stat[0]
        return False

    def owner(self, pid):
        """("own" | "other" | "unknown", how it is known: "proc" | "before" | None)."""
        stat = proc_stat(pid)
        if stat is not None:
            if self.command is not None and (stat[1] == self.command or self.descends(pid, self.command)):
                return "own", "proc"
            if self.job_root is not None and self.descends(pid, self.job_root):
                return "own", "proc"
            if self.command is None and self.starting and stat[0] == os.getpid():
                return "own", "proc"
            return "other", "proc"
        if self.gpu_free_before and pid in self.before:
            return "other", "before"
        return "unknown", None

    def fields(self, listing, sm_by_pid):
        """A sample's process fields from [(pid, memory bytes | None)] (None: the listing failed)."""
        if listing is None:
            return {"own": None, "others": None, "command_on_gpu": None}
        own = 0
        others = []
        maybe_command = False
        for pid, memory in listing:
            owner, by = self.owner(pid)
            if owner == "own":
                own += 1
                continue
            maybe_command = maybe_command or owner == "unknown"
            others.append({"pid": pid, "owner": owner, "by": by,
                           "sm_util": None if sm_by_pid is None else sm_by_pid.get(pid, 0),
                           "mem_used_bytes": memory})
        if not self.gpu_free_before:
            on_gpu = None
        else:
            # While the command is starting its pid is not known yet, but its process can already be listed (as own).
            on_gpu = (self.command is not None or self.starting) and (own > 0 or maybe_command)
        return {"own": own, "others": others, "command_on_gpu": on_gpu}


def number(text):
    """A float from a tool's text; None for [N/A], [Not Supported], N/A and the like."""
    try:
        value = float(str(text).strip().strip("()"))
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


class PollingBackend:
    """A backend read once per interval by the sampler thread."""

    devices = []  # [{"index": 0, "name": "..."}]
    driver = None
    vendor = None
    lists_processes = False
    owners = None  # an Owners, set before sampling starts where the backend lists processes

    def listed_pids(self):
        """Every pid the backend lists on the recorded GPUs now (before the command starts)."""
        return set()

    def samples(self):
        raise NotImplementedError

    def run(self, emit, interval, stop):
        deadline = time.monotonic()
        while not stop.is_set():
            for sample in self.samples():
                emit(sample)
            deadline += interval
            stop.wait(max(0.0, deadline - time.monotonic()))

    def close(self):
        pass


class MaxBackend(PollingBackend):
    name = "max"

    def __init__(self, wanted):
        try:
            from max.profiler.gpu import GPUDiagContext  # type: ignore
        except ImportError:
            try:
                from max.diagnostics.gpu import GPUDiagContext  # type: ignore
            except ImportError:
                raise Unavailable("max.profiler.gpu / max.diagnostics.gpu not importable")
        self.context = GPUDiagContext()
        self.context.__enter__()
        self.wanted = wanted
        stats = self.context.get_stats()
        if not stats:
            self.close()
            raise Unavailable("max.profiler.gpu found no GPU")
        self.devices = [{"index": self.index(key)} for key in sorted(stats) if self.keep(key)]
        vendors = {"amd" if key.startswith("amd") else "nvidia" for key in stats}
        self.vendor = vendors.pop() if len(vendors) == 1 else None

    @staticmethod
    def index(key):
        return int(re.sub(r"^\D+", "", key))

    def keep(self, key):
        return self.wanted is None or self.index(key) in self.wanted

    def samples(self):
        out = []
        for key, stats in sorted(self.context.get_stats().items()):
            if not self.keep(key):
                continue
            clocks = getattr(stats, "clocks", None)
            reasons = getattr(clocks, "throttle_reasons", None) or []
            out.append(make_sample(
                self.index(key),
                stats.utilization.gpu_usage_percent,
                mem_util=stats.utilization.memory_activity_percent,
                sm_clock_mhz=getattr(clocks, "core_mhz", None),
                mem_used_bytes=stats.memory.used_bytes,
                reasons=[getattr(r, "value", r) for r in reasons],
            ))
        return out

    def close(self):
        try:
            self.context.__exit__(None, None, None)
        except Exception:
            pass


class NvmlBackend(PollingBackend):
    name = "nvml"
    vendor = "nvidia"

    def __init__(self, wanted):
        try:
            import pynvml  # type: ignore
        except ImportError:
            raise Unavailable("pynvml (nvidia-ml-py) not installed")
        self.nvml = pynvml
        try:
            pynvml.nvmlInit()
            count = pynvml.nvmlDeviceGetCount()
        except Exception as error:
            raise Unavailable("NVML: %s" % error)
        indexes = [i for i in range(count) if wanted is None or i in wanted]
        self.handles = [(i, pynvml.nvmlDeviceGetHandleByIndex(i)) for i in indexes]
        self.devices = [{"index": i, "name": self.text(self.call(pynvml.nvmlDeviceGetName, h))}
                        for i, h in self.handles]
        self.driver = self.text(self.call(pynvml.nvmlSystemGetDriverVersion))
        # The clock-event call was renamed; the old name remains on older bindings.
        self.reasons_call = (getattr(pynvml, "nvmlDeviceGetCurrentClocksEventReasons", None)
                             or getattr(pynvml, "nvmlDeviceGetCurrentClocksThrottleReasons", None))
        self.processes_call = getattr(pynvml, "nvmlDeviceGetComputeRunningProcesses", None)
        self.lists_processes = self.processes_call is not None
        self.utilization_since = {}  # device index -> NVML timestamp (µs) of the newest process sample read

    def compute_processes(self, handle):
        """[(pid, used memory bytes | None)] of the GPU's compute processes, or None when NVML cannot list them."""
        try:
            listed = self.processes_call(handle)
        except Exception:
            return None
        out = []
        for process in listed:
            memory = getattr(process, "usedGpuMemory", None)
            out.append((int(process.pid), memory if isinstance(memory, int) else None))
        return out

    def process_sm(self, index, handle):
        """Each process's highest SM utilization in NVML's samples since the last call; None when unreadable."""
        call = getattr(self.nvml, "nvmlDeviceGetProcessUtilization", None)
        if call is None:
            return None
        since = self.utilization_since.get(index, int((time.time() - 1) * 1e6))
        try:
            rows = call(handle, since)
        except Exception as error:
            if getattr(error, "value", None) == NVML_ERROR_NOT_FOUND:
                return {}
            return None
        highest = {}
        for row in rows:
            highest[int(row.pid)] = max(highest.get(int(row.pid), 0), int(row.smUtil))
            since = max(since, int(row.timeStamp))
        self.utilization_since[index] = since
        return highest

    def listed_pids(self):
        pids = set()
        for _, handle in self.handles:
            pids.update(pid for pid, _ in self.compute_processes(handle) or [])
        return pids

    @staticmethod
    def text(value):
        return value.decode() if isinstance(value, bytes) else value

    def call(self, function, *args):
        try:
            return function(*args)
        except Exception:
            return None

    def samples(self):
        n = self.nvml
        out = []
        for index, handle in self.handles:
            rates = self.call(n.nvmlDeviceGetUtilizationRates, handle)
            if rates is None:
                continue
            memory = self.call(n.nvmlDeviceGetMemoryInfo, handle)
            power_mw = self.call(n.nvmlDeviceGetPowerUsage, handle)
            mask = self.call(self.reasons_call, handle) if self.reasons_call else None
            out.append(make_sample(
                index, rates.gpu, mem_util=rates.memory,
                sm_clock_mhz=self.call(n.nvmlDeviceGetClockInfo, handle, n.NVML_CLOCK_SM),
                power_w=None if power_mw is None else power_mw / 1000.0,
                mem_used_bytes=None if memory is None else memory.used,
                reasons=[] if mask is None else reasons_from_mask(int(mask)),
                processes=None if self.owners is None else self.owners.fields(
                    self.compute_processes(handle), self.process_sm(index, handle)),
            ))
        return out

    def close(self):
        try:
            self.nvml.nvmlShutdown()
        except Exception:
            pass


class NvidiaSmiBackend:
    name = "nvidia-smi"
    vendor = "nvidia"
    owners = None
    FIELDS = "timestamp,index,utilization.gpu,utilization.memory,clocks.sm,power.draw,memory.used,%s.active"

    def __init__(self, wanted):
        self.select = [] if wanted is None else ["-i", ",".join(str(i) for i in sorted(wanted))]
        listing = self.query("index,name,driver_version,pci.bus_id")
        self.devices = []
        self.driver = None
        self.bus_ids = {}  # PCI bus id (upper case) -> index, to place --query-compute-apps rows
        for line in listing:
            cells = [c.strip() for c in line.split(",")]
            if len(cells) == 4 and cells[0].isdigit():
                self.devices.append({"index": int(cells[0]), "name": cells[1]})
                self.driver = cells[2]
                self.bus_ids[cells[3].upper()] = int(cells[0])
        if not self.devices:
            raise Unavailable("nvidia-smi listed no GPU")
        # Drivers before the rename only know clocks_throttle_reasons.*.
        self.fields = self.FIELDS % "clocks_event_reasons"
        try:
            self.query(self.fields)
        except Unavailable:
            self.fields = self.FIELDS % "clocks_throttle_reasons"
            self.query(self.fields)
        self.process = None
        self.apps_at = None  # monotonic time of the last --query-compute-apps, and its answer
        self.apps = None
        self.lists_processes = self.compute_apps() is not None

    def compute_apps(self):
        """{index: [(pid, used memory bytes | None)]} from --query-compute-apps, or None when it fails."""
        try:
            done = subprocess.run(["nvidia-smi", "--query-compute-apps=gpu_bus_id,pid,used_memory",
                                   "--format=csv,noheader,nounits"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0:
            return None
        return self.parse_apps(done.stdout, self.bus_ids)

    @staticmethod
    def parse_apps(text, bus_ids):
        apps = {index: [] for index in bus_ids.values()}
        for line in text.splitlines():
            cells = [c.strip() for c in line.split(",")]
            if len(cells) != 3 or not cells[1].isdigit() or cells[0].upper() not in bus_ids:
                continue  # "No running processes found" and the like
            used_mib = number(cells[2])
            apps[bus_ids[cells[0].upper()]].append(
                (int(cells[1]), None if used_mib is None else int(used_mib * 1024 * 1024)))
        return apps

    def listed_pids(self):
        return {pid for rows in (self.compute_apps() or {}).values() for pid, _ in rows}

    def processes_of(self, index, interval):
        """The listing for a sample: asked again once per interval at most (one call serves every GPU)."""
        now = time.monotonic()
        if self.apps_at is None or now - self.apps_at >= interval * 0.9:
            self.apps_at = now
            self.apps = self.compute_apps()
        return None if self.apps is None else self.apps.get(index, [])

    def command(self, fields):
        return ["nvidia-smi", "--query-gpu=" + fields, "--format=csv,noheader,nounits"] + self.select

    def query(self, fields):
        try:
            done = subprocess.run(self.command(fields), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise Unavailable("nvidia-smi: %s" % error)
        if done.returncode != 0:
            raise Unavailable("nvidia-smi exited %d: %s" % (done.returncode, (done.stdout + done.stderr).strip()[:200]))
        return [line for line in done.stdout.splitlines() if line.strip()]

    @staticmethod
    def parse(line):
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != 8 or not cells[1].isdigit():
            return None
        stamp, index, util, mem_util, clock, power, used, mask = cells
        gpu_util = number(util)
        if gpu_util is None:
            return None
        try:
            t = datetime.strptime(stamp, "%Y/%m/%d %H:%M:%S.%f").timestamp()  # local time, as printed
        except ValueError:
            t = None
        used_mib = number(used)
        try:
            reasons = reasons_from_mask(int(mask, 16))
        except ValueError:
            reasons = []
        return make_sample(int(index), gpu_util, mem_util=number(mem_util), sm_clock_mhz=number(clock),
                           power_w=number(power), reasons=reasons, t=t,
                           mem_used_bytes=None if used_mib is None else int(used_mib * 1024 * 1024))

    def run(self, emit, interval, stop):
        command = self.command(self.fields) + ["-lms", str(max(1, int(round(interval * 1000))))]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        universal_newlines=True, bufsize=1)
        for line in self.process.stdout:
            if stop.is_set():
                break
            sample = self.parse(line)
            if sample is not None:
                if self.owners is not None:
                    # nvidia-smi gives no per-process SM utilization here (pmon samples once a second at best).
                    sample.update(self.owners.fields(self.processes_of(sample["device"], interval), None))
                emit(sample)

    def close(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()


class RocmSmiBackend(PollingBackend):
    name = "rocm-smi"
    vendor = "amd"
    COMMAND = ["rocm-smi", "--showuse", "--showmemuse", "--showpower", "--showclocks",
               "--showmeminfo", "vram", "--showproductname", "--json"]

    def __init__(self, wanted):
        self.wanted = wanted
        cards = self.read()
        self.devices = [{"index": i, "name": self.field(c, "card series")} for i, c in sorted(cards.items())]
        if not self.devices:
            raise Unavailable("rocm-smi listed no GPU")

    @staticmethod
    def field(card, *prefixes):
        for prefix in prefixes:
            for key, value in card.items():
                if key.lower().startswith(prefix):
                    return value
        return None

    def read(self):
        try:
            done = subprocess.run(self.COMMAND, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise Unavailable("rocm-smi: %s" % error)
        text = done.stdout
        start = text.find("{")
        if done.returncode != 0 or start < 0:
            raise Unavailable("rocm-smi exited %d" % done.returncode)
        try:
            data = json.loads(text[start:])
        except ValueError as error:
            raise Unavailable("rocm-smi JSON: %s" % error)
        cards = {}
        for key, card in data.items():
            if key.startswith("card") and key[4:].isdigit() and isinstance(card, dict):
                if self.wanted is None or int(key[4:]) in self.wanted:
                    cards[int(key[4:])] = card
        return cards

    def samples(self):
        try:
            cards = self.read()
        except Unavailable:
            return []
        out = []
        for index, card in sorted(cards.items()):
            gpu_util = number(self.field(card, "gpu use"))
            if gpu_util is None:
                continue
            clock = self.field(card, "sclk clock speed")
            clock_mhz = number(clock.lower().replace("mhz", "")) if isinstance(clock, str) else None
            out.append(make_sample(
                index, gpu_util,
                mem_util=number(self.field(card, "gpu memory read/write activity", "gpu memory use")),
                sm_clock_mhz=clock_mhz,
                power_w=number(self.field(card, "average graphics package power",
                                          "current socket graphics package power")),
                mem_used_bytes=number(self.field(card, "vram total used memory")),
            ))
        return out


BACKENDS = {"max": MaxBackend, "nvml": NvmlBackend, "nvidia-smi": NvidiaSmiBackend, "rocm-smi": RocmSmiBackend}


def open_backend(choice, wanted):
    names = list(BACKENDS) if choice == "auto" else [choice]
    failures = []
    for name in names:
        try:
            return BACKENDS[name](wanted), failures
        except Unavailable as error:
            failures.append("%s: %s" % (name, error))
    return None, failures


class Writer:
    """Writes records whole and in order; nothing after the end record."""

    def __init__(self, stream):
        self.stream = stream
        self.lock = threading.Lock()
        self.samples = 0
        self.ended = False
        self.per_device = {}  # device -> [count, sum, peak]

    def write(self, record):
        with self.lock:
            if self.ended:
                return
            if record["kind"] == "sample":
                self.samples += 1
                stats = self.per_device.setdefault(record["device"], [0, 0.0, 0])
                stats[0] += 1
                stats[1] += record["gpu_util"]
                stats[2] = max(stats[2], record["gpu_util"])
            elif record["kind"] == "end":
                record["samples"] = self.samples
                self.ended = True
            self.stream.write(json.dumps(record, separators=(",", ":")) + "\n")
            self.stream.flush()


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Record GPU utilization as JSON lines (gpu-snapshot v2).")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between samples (default 0.5)")
    parser.add_argument("--duration", type=float, help="stop recording after this many seconds")
    parser.add_argument("--out", help="output file (default: standard output)")
    parser.add_argument("--devices", help="comma-separated GPU indexes to record, e.g. 0,1 (default: all)")
    parser.add_argument("--backend", choices=["auto"] + list(BACKENDS), default="auto")
    parser.add_argument("--gpu-free-before", action="store_true",
                        help="nothing of the job uses the GPU when the command starts: a process listed then is another's")
    parser.add_argument("--job-parent", action="store_true",
                        help="processes descended from this script's parent are the job's own too (a server it started)")
    parser.add_argument("--run", nargs=argparse.REMAINDER, metavar="CMD",
                        help="run CMD (everything after --run) and record until it exits")
    args = parser.parse_args(argv)
    if args.interval <= 0:
        parser.error("--interval must be positive")
    if args.duration is not None and args.duration <= 0:
        parser.error("--duration must be positive")
    if args.run is not None and not args.run:
        parser.error("--run needs a command")
    if args.run is not None and len(args.run) == 1 and " " in args.run[0].strip():
        args.run = shlex.split(args.run[0])  # --run "cmd with args", as one quoted string
    try:
        args.devices = None if not args.devices else {int(d) for d in args.devices.split(",")}
    except ValueError:
        parser.error("--devices expects indexes such as 0,1")
    return args


def exit_status(returncode):
    return 128 - returncode if returncode < 0 else returncode


def summarize(writer, path):
    for device, (count, total, peak) in sorted(writer.per_device.items()):
        sys.stderr.write("gpu_snapshot: device %d: %d samples, mean %.1f%%, peak %s%%%s\n" % (
            device, count, total / count, peak, "" if path is None else " -> " + path))
    if not writer.per_device:
        sys.stderr.write("gpu_snapshot: no samples collected; was the run shorter than --interval?\n")


class ProcessLister:
    """The GPU's compute processes for a backend that cannot list them (max on NVIDIA): through NVML
    when pynvml imports, else nvidia-smi. Samples are matched by device index, NVML's order (which
    ignores CUDA_VISIBLE_DEVICES: with it set, the backend's index may name another GPU)."""

    def __init__(self, wanted, interval, owners):
        self.interval = interval
        self.owners = owners
        try:
            self.source = NvmlBackend(wanted)
            self.handles = dict(self.source.handles)
        except Unavailable:
            self.source = NvidiaSmiBackend(wanted)  # raises Unavailable when it cannot run either
            self.handles = None
            if not self.source.lists_processes:
                raise Unavailable("nvidia-smi cannot list compute apps")

    def listed_pids(self):
        return self.source.listed_pids()

    def add_to(self, sample):
        index = sample["device"]
        if self.handles is None:
            sample.update(self.owners.fields(self.source.processes_of(index, self.interval), None))
        elif index in self.handles:
            handle = self.handles[index]
            sample.update(self.owners.fields(self.source.compute_processes(handle), self.source.process_sm(index, handle)))
        else:
            sample.update(self.owners.fields(None, None))
        return sample

    def close(self):
        self.source.close()


def sample_loop(backend, writer, interval, stop, lister=None):
    emit = writer.write if lister is None else (lambda record: writer.write(lister.add_to(record)))
    try:
        backend.run(emit, interval, stop)
    except Exception as error:  # a backend failing mid-run must not lose the recording so far
        writer.write({"kind": "warning", "message": "%s sampling failed: %s" % (backend.name, error)})
        return
    if not stop.is_set():
        writer.write({"kind": "warning", "message": "%s stopped before the recording ended" % backend.name})


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    backend, failures = open_backend(args.backend, args.devices)
    if backend is None:
        sys.stderr.write("gpu_snapshot: no GPU sampling backend is available (%s)\n" % "; ".join(failures))
        return 2
    stop = threading.Event()
    running = {}  # "child": the command's Popen, once started

    def on_signal(signum, _frame):
        child = running.get("child")
        if child is not None and child.poll() is None:
            try:
                os.killpg(child.pid, signum)  # the command decides how to stop; we record until it does
            except ProcessLookupError:
                pass
        else:
            stop.set()

    # Installed before anything starts, so an early signal is never the default (silent) death.
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    stream = open(args.out, "w") if args.out else sys.stdout
    writer = Writer(stream)
    started = time.time()
    lists_processes = bool(getattr(backend, "lists_processes", False))
    owners = Owners(gpu_free_before=args.gpu_free_before, job_parent=args.job_parent)
    lister = None
    if lists_processes:
        owners.before = backend.listed_pids()  # before the command exists: none of these is its
        backend.owners = owners
    elif backend.vendor == "nvidia":
        try:
            lister = ProcessLister(args.devices, args.interval, owners)
            owners.before = lister.listed_pids()
            lists_processes = True
        except Unavailable:
            lister = None
    writer.write({
        "kind": "gpu-snapshot", "version": 2, "backend": backend.name, "interval_s": args.interval,
        "command": args.run, "devices": backend.devices, "driver": backend.driver,
        "vendor": backend.vendor, "started_at": round(started, 3),
        "processes": lists_processes, "gpu_free_before": args.gpu_free_before,
    })
    sampler = threading.Thread(target=sample_loop, args=(backend, writer, args.interval, stop, lister), daemon=True)
    sampler.start()

    child = None
    if args.run:
        try:
            # Samples on standard output must not mix with the command's own output.
            owners.starting = True
            child = subprocess.Popen(args.run, start_new_session=True,
                                     stdout=sys.stderr if stream is sys.stdout else None)
            running["child"] = child
            owners.command = child.pid
            owners.starting = False
        except OSError as error:
            writer.write({"kind": "warning", "message": "could not start the command: %s" % error})
            stop.set()
            backend.close()
            writer.write({"kind": "end", "exit_code": 127, "samples": writer.samples,
                          "duration_s": round(time.time() - started, 3)})
            if stream is not sys.stdout:
                stream.close()
            return 127

    deadline = None if args.duration is None else time.monotonic() + args.duration
    exit_code = None
    while not stop.is_set():
        if child is not None and child.poll() is not None:
            break
        if deadline is not None and time.monotonic() >= deadline:
            break
        stop.wait(0.05)
    stop.set()
    backend.close()
    sampler.join(timeout=5)
    if lister is not None:
        lister.close()
    if child is not None:
        exit_code = exit_status(child.wait())
    writer.write({"kind": "end", "exit_code": exit_code, "samples": writer.samples,
                  "duration_s": round(time.time() - started, 3)})
    if stream is not sys.stdout:
        stream.close()
    summarize(writer, args.out)
    return 0 if exit_code is None else exit_code


if __name__ == "__main__":
    sys.exit(main())
