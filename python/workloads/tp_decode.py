#!/usr/bin/env python3
"""Tensor-parallel Llama-style decode over N ranks (torch.distributed, NCCL), random weights.

Each layer is split Megatron-style: the QKV and gate/up projections by columns (heads and MLP
width divided by the world size), the output and down projections by rows, so each layer needs one
all-reduce after attention and one after the MLP. Decode steps are captured once and replayed as a
CUDA graph (the all-reduces inside it). With world size 1 the all-reduce is a no-op, so the same
script checks capture and import on a single GPU.

Variants (what the profile of each should show):
  healthy     hidden 4096, 32 heads, 8 KV heads, MLP 11008: the all-reduce is a modest share
  comm-heavy  hidden 1024, MLP 2816 and one extra all-reduce per layer: collectives dominate
  straggler   healthy, but rank --slow-rank runs one extra MLP-sized matmul per layer: the others
              wait for it in every all-reduce

Launch (two GPUs; NVLink multicast stays off):
  NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 \\
    torchrun --standalone --nproc-per-node 2 python/workloads/tp_decode.py --variant healthy --out out/
  python3 python/workloads/tp_decode.py --variant healthy --out out/      # world size 1

Every rank writes its PyTorch profiler trace (record_shapes, no stacks) as
<out>/<name>.rank<R>.pt.trace.json.gz, with ProfilerStep#N per decode step. Rank 0 prints one JSON
line per timed run ({"kind": "run", "tok_s": ..., "t_start": ..., "t_end": ...}, the format
profile-gate's workload-metrics reader takes) and a summary line, and writes both to
<out>/<name>.metrics.jsonl.
"""
import os

# Before torch initializes NCCL: no NVLink SHARP / multicast objects (the GPU hosts do not allow them).
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
os.environ.setdefault("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1")

import argparse  # noqa: E402
import gzip  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.nn.functional as F  # noqa: E402

VARIANTS = {
    "healthy": dict(hidden=4096, heads=32, kv_heads=8, intermediate=11008, extra_allreduce=False),
    "comm-heavy": dict(hidden=1024, heads=16, kv_heads=8, intermediate=2816, extra_allreduce=True),
    "straggler": dict(hidden=4096, heads=32, kv_heads=8, intermediate=11008, extra_allreduce=False),
}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", choices=sorted(VARIANTS), default="healthy")
    p.add_argument("--layers", type=int, default=16)
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--prompt-len", type=int, default=512)
    p.add_argument("--steps", type=int, default=64, help="decode steps per timed run")
    p.add_argument("--warmup", type=int, default=16)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--profile-steps", type=int, default=8)
    p.add_argument("--slow-rank", type=int, default=-1, help="straggler rank (default: the last)")
    p.add_argument("--out", default=".")
    p.add_argument("--name", default=None)
    return p.parse_args(argv)


class Comm:
    """The tensor-parallel group: all-reduce is a no-op at world size 1."""

    def __init__(self):
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        local = int(os.environ.get("LOCAL_RANK", "0"))
        self.device = torch.device("cuda", local)
        torch.cuda.set_device(self.device)
        if self.world > 1:
            dist.init_process_group("nccl", device_id=self.device)
            warm = torch.ones(1, device=self.device)
            dist.all_reduce(warm)  # the communicator exists before any graph capture
            torch.cuda.synchronize()

    def all_reduce(self, x):
        if self.world > 1:
            dist.all_reduce(x)
        return x

    def barrier(self):
        if self.world > 1:
            dist.barrier(device_ids=[self.device.index])

    def close(self):
        if self.world > 1:
            dist.destroy_process_group()


class TPDecoder:
    """One rank's shard of every layer, and its slice of the KV cache (its own KV heads)."""

    def __init__(self, a, shape, comm, max_len, slow):
        w = comm.world
        if shape["heads"] % w or shape["kv_heads"] % w or shape["intermediate"] % w:
            raise SystemExit("heads, KV heads and MLP width must divide by the world size %d" % w)
        self.comm, self.shape, self.slow = comm, shape, slow
        self.hd = shape["hidden"] // shape["heads"]
        self.heads, self.kv_heads, self.inter = shape["heads"] // w, shape["kv_heads"] // w, shape["intermediate"] // w
        dev, dt, d = comm.device, torch.bfloat16, shape["hidden"]
        shared = torch.Generator(device=dev).manual_seed(1234)  # replicated weights: equal on every rank
        own = torch.Generator(device=dev).manual_seed(5678 + comm.rank)  # this rank's shards

        def weight(*size, g=own):
            return torch.empty(size, device=dev, dtype=dt).normal_(0.0, 0.02, generator=g)

        kvd = self.kv_heads * self.hd
        self.embed, self.lm_head = weight(a.vocab, d, g=shared), weight(a.vocab, d, g=shared)
        self.layers = [dict(wqkv=weight(self.heads * self.hd + 2 * kvd, d), wo=weight(d, self.heads * self.hd),
                            w_gate_up=weight(2 * self.inter, d), w_down=weight(d, self.inter),
                            extra=weight(2 * self.inter, d) if slow else None,
                            norm1=torch.ones(d, device=dev, dtype=dt), norm2=torch.ones(d, device=dev, dtype=dt))
                       for _ in range(a.layers)]
        cache = (a.batch, self.kv_heads, max_len, self.hd)
        self.k = [torch.zeros(cache, device=dev, dtype=dt) for _ in self.layers]
        self.v = [torch.zeros(cache, device=dev, dtype=dt) for _ in self.layers]
        self.positions = torch.arange(max_len, device=dev)
        self.pos = torch.zeros(1, dtype=torch.long, device=dev)
        self.tok = torch.zeros(a.batch, 1, dtype=torch.long, device=dev)

    def step(self):
        """One decode token per sequence against the whole cache (masked), advancing pos on the device."""
        b, hd, d = self.tok.shape[0], self.hd, self.shape["hidden"]
        x = F.embedding(self.tok, self.embed)
        mask = torch.where(self.positions <= self.pos, 0.0, float("-inf")).to(x.dtype).view(1, 1, 1, -1)
        for i, layer in enumerate(self.layers):
            h = F.rms_norm(x, (d,), layer["norm1"], eps=1e-5)
            q, k, v = F.linear(h, layer["wqkv"]).split([self.heads * hd, self.kv_heads * hd, self.kv_heads * hd], dim=-1)
            self.k[i].index_copy_(2, self.pos, k.view(b, 1, self.kv_heads, hd).transpose(1, 2))
            self.v[i].index_copy_(2, self.pos, v.view(b, 1, self.kv_heads, hd).transpose(1, 2))
            o = F.scaled_dot_product_attention(q.view(b, 1, self.heads, hd).transpose(1, 2), self.k[i], self.v[i],
                                               attn_mask=mask, enable_gqa=True)
            x = x + self.comm.all_reduce(F.linear(o.transpose(1, 2).reshape(b, 1, -1), layer["wo"]))
            h = F.rms_norm(x, (d,), layer["norm2"], eps=1e-5)
            if self.shape["extra_allreduce"]:
                h = self.comm.all_reduce(h.clone()) / self.comm.world  # the same values, one more collective
            gate, up = F.linear(h, layer["w_gate_up"]).chunk(2, dim=-1)
            if layer["extra"] is not None:
                gate = gate + 0.0 * F.linear(h, layer["extra"]).chunk(2, dim=-1)[0]  # the straggler's extra work
            x = x + self.comm.all_reduce(F.linear(F.silu(gate) * up, layer["w_down"]))
        logits = F.linear(x[:, -1], self.lm_head)  # the LM head is replicated: no gather needed
        self.tok.copy_(logits.argmax(-1, keepdim=True))
        self.pos.add_(1)


def profile_steps(a, step, path, reset, comm):
    """PyTorch profiler over --profile-steps replays after one warm-up replay (ProfilerStep#N each);
    the GPU is drained at both edges so no queued kernel spills across the window. Written gzipped."""
    from torch.profiler import ProfilerActivity, profile, schedule

    reset()
    comm.barrier()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, with_stack=False,
                 schedule=schedule(wait=0, warmup=1, active=a.profile_steps, repeat=1),
                 on_trace_ready=lambda prof: prof.export_chrome_trace(path)) as prof:
        for i in range(1 + a.profile_steps):
            step()
            if i in (0, a.profile_steps):
                torch.cuda.synchronize()
            prof.step()
    with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path)


def nccl_version():
    try:
        version = torch.cuda.nccl.version()
        return ".".join(map(str, version)) if isinstance(version, tuple) else str(version)
    except (AttributeError, RuntimeError):
        return None


def emit(record, sink):
    line = json.dumps(record)
    print(line, flush=True)
    if sink:
        sink.write(line + "\n")


def main(argv=None):
    a = parse_args(argv)
    comm = Comm()
    shape = VARIANTS[a.variant]
    slow_rank = a.slow_rank if a.slow_rank >= 0 else comm.world - 1
    slow = a.variant == "straggler" and comm.rank == slow_rank
    name = a.name or "tp_decode_%s_tp%d" % (a.variant, comm.world)
    os.makedirs(a.out, exist_ok=True)
    sink = open(os.path.join(a.out, name + ".metrics.jsonl"), "w") if comm.rank == 0 else None
    max_len = -(-(a.prompt_len + max(a.steps, a.warmup, a.profile_steps + 1) + 1) // 64) * 64
    model = TPDecoder(a, shape, comm, max_len, slow)

    def reset():
        model.pos.fill_(a.prompt_len)  # the cache stands in for a prefilled prompt of prompt_len tokens
        model.tok.fill_(1)

    with torch.no_grad():
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # eager steps first: library handles and NCCL buffers
            reset()
            for _ in range(3):
                model.step()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        reset()
        # thread_local: the NCCL watchdog thread queries events while this thread captures.
        with torch.cuda.graph(graph, capture_error_mode="thread_local" if comm.world > 1 else "global"):
            model.step()

        reset()
        for _ in range(a.warmup):
            graph.replay()
        torch.cuda.synchronize()
        per_run = []
        for r in range(a.repeats):
            reset()
            comm.barrier()
            torch.cuda.synchronize()
            wall0, t0 = time.time(), time.perf_counter()
            for _ in range(a.steps):
                graph.replay()
            torch.cuda.synchronize()
            dt = time.perf_counter() - t0
            per_run.append(a.steps * a.batch / dt)
            emit({"kind": "run", "run": r, "steps": a.steps, "batch": a.batch, "seconds": round(dt, 6),
                  "tok_s": round(per_run[-1], 3), "t_start": round(wall0, 3), "t_end": round(wall0 + dt, 3)}, sink)

        trace = os.path.join(a.out, "%s.rank%d.pt.trace.json" % (name, comm.rank))
        profile_steps(a, graph.replay, trace, reset, comm)

    if comm.rank == 0:
        emit({"kind": "summary", "workload": "tp_decode", "variant": a.variant, "world_size": comm.world,
              "slow_rank": slow_rank if a.variant == "straggler" else None, "layers": a.layers, "batch": a.batch,
              **shape, "per_run_tok_s": [round(x, 3) for x in per_run],
              "tok_s_median": round(statistics.median(per_run), 3),
              "device": torch.cuda.get_device_name(comm.device), "torch": torch.__version__,
              "nccl": nccl_version(), "trace": os.path.basename(trace) + ".gz",
              "env": {k: os.environ.get(k) for k in ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST")}}, sink)
    if sink:
        sink.close()
    comm.close()


if __name__ == "__main__":
    main()
