#!/usr/bin/env python3
"""Llama-style decoder with random weights, in plain PyTorch: a reference decode workload.

Default shape: 16 layers, hidden 4096, 32 query heads, 8 KV heads (GQA), MLP 11008, vocab 32000,
bf16, about 2.8B parameters in the layers (3.1B with embeddings and LM head). No weights are
downloaded; greedy decoding. Each timed run restarts at the end of the prompt.

Variants (what a profile of each should show):
  --attention sdpa      fused attention (torch SDPA restricted to cuDNN / flash / mem-efficient)
  --attention unfused   matmul + softmax + matmul, KV heads repeated (attention not fused)
  --attention repeat-kv fused SDPA, but the KV heads of the whole cache are repeated with
                        repeat_interleave before it on every step (a copy that dominates decode)
  --linear fp8          FP8 (e4m3) weights with per-channel scales; activations quantized per token
                        by a Triton kernel, then torch._scaled_mm (cuBLASLt FP8, row-wise scales)
  --linear fp8-dequant  FP8 (e4m3) weights with per-channel scales, dequantized to bf16 by a Triton kernel
                        (dequantize_fp8_weight_kernel) on every call, then a bf16 matmul: weight-only
                        quantization that saves memory but adds a full weight write and read per step
  --linear int8         W8A8: int8 weights with per-channel scales; activations quantized per token
                        in plain PyTorch ops (abs, amax, div, round, clamp, .to(int8): one kernel
                        each), then torch._int_mm (int32 out) and a float rescale; needs --batch 17+
  --mlp moe             mixture of experts: top-k routing, tokens sorted by expert, torch._grouped_mm
  --compile on          torch.compile(fullgraph=True) of the decode step (Inductor's Triton kernels:
                        fused RMSNorm, fused RoPE), then the graph replay as with --graph on
  --norm unfused        RMSNorm written out in plain ops (float cast, pow, mean, rsqrt, two muls, cast
                        back: one kernel each) instead of the fused F.rms_norm kernel
  --kv-cache static     prefill once, then each step computes one token against a fixed-size cache
  --kv-cache none       no cache: each step re-runs the whole --prompt-len window (re-prefill)
  --graph on            each decode step is captured once and replayed from one CUDA graph
  --profile torch       PyTorch profiler over --profile-steps steady-state steps (ProfilerStep#N
                        per decode step), Chrome trace written as <name>.trace.json.gz
  --profile cuda-range  cudaProfilerStart/Stop around --profile-steps steps, for
                        `nsys profile --capture-range=cudaProfilerApi --capture-range-end=stop`
  --profile torch-capture  (with --graph on) the PyTorch profiler over a fresh capture of the decode
                        step into a CUDA graph, then --profile-steps replays of it: the trace holds
                        the ops and launches recorded during the capture beside the replayed kernels

Prints one JSON line per timed run ({"kind":"run",...,"tok_s":...}) and a final summary line
({"kind":"summary",...}), which is also written to <out>/<name>.summary.json.
"""
import argparse
import contextlib
import gzip
import json
import math
import os
import platform
import shutil
import statistics
import sys
import time
import warnings

import torch
import torch.nn.functional as F


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--attention", choices=["sdpa", "unfused", "repeat-kv"], default="sdpa")
    p.add_argument("--linear", choices=["bf16", "fp8", "fp8-dequant", "int8"], default="bf16")
    p.add_argument("--mlp", choices=["dense", "moe"], default="dense")
    p.add_argument("--experts", type=int, default=8)
    p.add_argument("--top-k", type=int, default=2)
    p.add_argument("--compile", choices=["on", "off"], default="off")
    p.add_argument("--norm", choices=["fused", "unfused"], default="fused")
    p.add_argument("--profile-stack", action="store_true",
                   help="record Python stacks in the torch profile (attribution of kernels to code)")
    p.add_argument("--kv-cache", choices=["static", "none"], default="static")
    p.add_argument("--graph", choices=["on", "off"], default="on")
    p.add_argument("--steps", type=int, default=64, help="decode steps per timed run")
    p.add_argument("--warmup", type=int, default=16, help="untimed decode steps before timing")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--prompt-len", type=int, default=512,
                   help="prompt tokens (static cache) or the recomputed window (no cache)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs; one JSON line each")
    p.add_argument("--profile", choices=["torch", "torch-capture", "cuda-range", "none"], default="none")
    p.add_argument("--profile-steps", type=int, default=8, help="decode steps inside the profile window")
    p.add_argument("--out", default=".", help="folder for the trace and the summary")
    p.add_argument("--name", default=None, help="file name stem (default: from the variant)")
    p.add_argument("--layers", type=int, default=16)
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--intermediate", type=int, default=11008)
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gpu-sleep-us", type=float, default=0.0,
                   help="extra GPU time per decode step: a spinning kernel inside the step (a slower build)")
    p.add_argument("--stall-run", type=int, default=-1,
                   help="timed run in which the host stalls once, halfway (a background job on a shared box)")
    p.add_argument("--stall-ms", type=float, default=0.0, help="length of that stall")
    p.add_argument("--device", default="cuda", help="cuda (default); cpu only to check the code path")
    args = p.parse_args(argv)
    if args.hidden % args.heads or args.heads % args.kv_heads:
        p.error("--hidden must divide by --heads, and --heads by --kv-heads")
    if args.device == "cpu" and (args.graph == "on" or args.profile == "cuda-range"):
        p.error("--device cpu needs --graph off and no cuda-range profile")
    if args.profile == "torch-capture" and args.graph != "on":
        p.error("--profile torch-capture needs --graph on")
    if args.name is None:
        args.name = "llama_%s_%s_graph-%s" % (args.attention, "kv" if args.kv_cache == "static" else "nokv",
                                              args.graph)
        for flag, default in (("linear", "bf16"), ("mlp", "dense"), ("compile", "off"), ("norm", "fused")):
            if getattr(args, flag) != default:
                args.name += "_%s-%s" % (flag, getattr(args, flag))
        if args.batch != 1:
            args.name += "_b%d" % args.batch
    if args.linear in ("fp8", "fp8-dequant") and args.device != "cuda":
        p.error("--linear %s needs a CUDA GPU (Triton and cuBLASLt FP8)" % args.linear)
    if args.linear == "int8":
        # torch._int_mm takes int8 [M, K] x [K, N] with M > 16 and K, N multiples of 8; decode's M is the batch.
        if args.batch <= 16:
            p.error("--linear int8 needs --batch 17 or more (torch._int_mm needs more than 16 rows)")
        head_dim = args.hidden // args.heads
        if args.hidden % 8 or args.intermediate % 8 or (args.kv_heads * head_dim) % 8:
            p.error("--linear int8 needs --hidden, --intermediate and kv-heads x head-dim to be multiples of 8")
    return args


def emit(record):
    print(json.dumps(record), flush=True)


class Attention:
    """Picks how attention runs. For sdpa, a probe at start-up (outside any graph capture) decides
    whether the fused backends take the grouped KV heads directly or need them repeated; the math
    backend is never allowed, so 'sdpa' always means a fused kernel (or a clear error)."""

    def __init__(self, kind, n_heads, n_kv_heads, device):
        self.kind = kind
        self.groups = n_heads // n_kv_heads
        self.device = device
        self.paths = {}  # shape kind ("masked" / "causal") -> "gqa" | "repeat_kv" | "math"
        self.fused = None
        if kind in ("sdpa", "repeat-kv") and device.type == "cuda":
            from torch.nn.attention import SDPBackend, sdpa_kernel
            self.fused = lambda: sdpa_kernel([SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION,
                                              SDPBackend.EFFICIENT_ATTENTION])

    def repeat_kv(self, x):
        if self.groups == 1:
            return x
        b, h, s, d = x.shape
        return x[:, :, None].expand(b, h, self.groups, s, d).reshape(b, h * self.groups, s, d)

    def backend_context(self):
        return self.fused() if self.fused else contextlib.nullcontext()

    def probe(self, shape_kind, q, k, v, mask):
        """Try native GQA, then repeated KV heads, under the fused backends only."""
        if self.kind == "unfused":
            return
        if self.fused is None:  # cpu: only the math backend exists
            self.paths[shape_kind] = "math"
            return
        for path in (("gqa", "repeat_kv") if self.kind == "sdpa" else ("repeat_interleave",)):
            try:
                with warnings.catch_warnings(), self.backend_context():
                    warnings.simplefilter("ignore")
                    self.paths[shape_kind] = path
                    self.sdpa(shape_kind, q, k, v, mask)
                    torch.cuda.synchronize()
                return
            except (RuntimeError, TypeError) as error:
                emit({"kind": "note", "message": "sdpa %s/%s rejected: %s" % (shape_kind, path, str(error)[:200])})
        raise SystemExit("no fused SDPA backend accepts the %s attention shape" % shape_kind)

    def sdpa(self, shape_kind, q, k, v, mask):
        path = self.paths[shape_kind]
        causal = mask is None
        if path == "gqa":
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal, enable_gqa=True)
        if path == "repeat_interleave":  # the whole cache copied to every query head, each step
            k = k.repeat_interleave(self.groups, dim=1)
            v = v.repeat_interleave(self.groups, dim=1)
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
        return F.scaled_dot_product_attention(q, self.repeat_kv(k), self.repeat_kv(v), attn_mask=mask,
                                              is_causal=causal)

    def __call__(self, shape_kind, q, k, v, mask):
        """q [B,H,T,D]; k, v [B,Hkv,S,D]; mask is an additive [.., T, S] bias (None: causal, sdpa only)."""
        if self.kind != "unfused":
            return self.sdpa(shape_kind, q, k, v, mask)
        k, v = self.repeat_kv(k), self.repeat_kv(v)
        scores = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
        probs = torch.softmax((scores + mask).float(), dim=-1).to(q.dtype)
        return torch.matmul(probs, v)


FP8_MAX = 448.0  # largest finite float8_e4m3fn


def quantize_weight_fp8(w):
    """[N, K] bf16 -> (fp8 weight, [1, N] float32 per-output-channel scale)."""
    scale = w.float().abs().amax(dim=1).clamp(min=1e-8) / FP8_MAX
    q = (w.float() / scale[:, None]).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn)
    return q, scale.view(1, -1).contiguous()


INT8_MAX = 127.0


def quantize_weight_int8(w):
    """[N, K] bf16 -> (int8 weight [N, K], [1, N] float32 per-output-channel scale), once at load."""
    scale = w.float().abs().amax(dim=1).clamp(min=1e-8) / INT8_MAX
    q = (w.float() / scale[:, None]).round().clamp(-128, 127).to(torch.int8)
    return q, scale.view(1, -1).contiguous()


def per_token_quant_int8(x):
    """[M, K] bf16 -> (int8 [M, K], [M, 1] float32 scale), written as plain PyTorch ops the way
    simple W8A8 code does it: each op is its own kernel and its own pass over the activation."""
    xf = x.float()
    scale = xf.abs().amax(dim=-1, keepdim=True).clamp(min=1e-8) / INT8_MAX
    q = (xf / scale).round().clamp(-128, 127).to(torch.int8)
    return q, scale


_quant_kernel = None


def per_token_quant_fp8(x):
    """[M, K] bf16 -> (fp8 [M, K], [M, 1] float32 scale): one Triton program per token row."""
    global _quant_kernel
    if _quant_kernel is None:
        import triton
        import triton.language as tl

        @triton.jit
        def per_token_quant_fp8_kernel(x_ptr, q_ptr, s_ptr, K, BLOCK: tl.constexpr):
            row = tl.program_id(0)
            offs = tl.arange(0, BLOCK)
            mask = offs < K
            v = tl.load(x_ptr + row * K + offs, mask=mask, other=0.0).to(tl.float32)
            scale = tl.maximum(tl.max(tl.abs(v), axis=0), 1e-6) / 448.0
            tl.store(q_ptr + row * K + offs, (v / scale).to(q_ptr.dtype.element_ty), mask=mask)
            tl.store(s_ptr + row, scale)

        _quant_kernel = (per_token_quant_fp8_kernel, triton.next_power_of_2)
    kernel, next_pow2 = _quant_kernel
    x = x.contiguous()
    m, k = x.shape
    q = torch.empty((m, k), device=x.device, dtype=torch.float8_e4m3fn)
    s = torch.empty((m, 1), device=x.device, dtype=torch.float32)
    block = next_pow2(k)
    kernel[(m,)](x, q, s, k, BLOCK=block, num_warps=8 if block >= 4096 else 4)
    return q, s


_dequant_kernel = None


def dequantize_fp8_weight(w, scale):
    """[N, K] fp8 weight and [1, N] float32 scale -> [N, K] bf16, by one Triton kernel over the whole weight."""
    global _dequant_kernel
    if _dequant_kernel is None:
        import triton
        import triton.language as tl

        @triton.jit
        def dequantize_fp8_weight_kernel(w_ptr, s_ptr, out_ptr, total, K, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < total
            v = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
            scale = tl.load(s_ptr + offs // K, mask=mask, other=0.0)
            tl.store(out_ptr + offs, (v * scale).to(tl.bfloat16), mask=mask)

        _dequant_kernel = (dequantize_fp8_weight_kernel, triton.cdiv)
    kernel, cdiv = _dequant_kernel
    n, k = w.shape
    out = torch.empty((n, k), device=w.device, dtype=torch.bfloat16)
    block = 4096
    kernel[(cdiv(n * k, block),)](w, scale, out, n * k, k, BLOCK=block, num_warps=8)
    return out


class Decoder:
    def __init__(self, a, device, max_len):
        self.a = a
        self.device = device
        self.dtype = torch.bfloat16
        self.head_dim = a.hidden // a.heads
        self.max_len = max_len
        g = torch.Generator(device=device).manual_seed(a.seed)

        def weight(*shape):
            # Random (not zero) weights: zeros would run faster than real data and hide bugs.
            return torch.empty(shape, device=device, dtype=self.dtype).normal_(0.0, 0.02, generator=g)

        d, kvd = a.hidden, a.kv_heads * self.head_dim
        self.embed = weight(a.vocab, d)
        self.lm_head = weight(a.vocab, d)
        self.final_norm = torch.ones(d, device=device, dtype=self.dtype)
        self.layers = []
        for _ in range(a.layers):
            layer = dict(attn_norm=torch.ones(d, device=device, dtype=self.dtype),
                         mlp_norm=torch.ones(d, device=device, dtype=self.dtype),
                         wqkv=weight(d + 2 * kvd, d), wo=weight(d, d))
            if a.mlp == "moe":
                # Expert weights stored [E, N, K] and used transposed, as torch._grouped_mm wants them.
                layer.update(router=weight(a.experts, d), w_gate_up=weight(a.experts, 2 * a.intermediate, d),
                             w_down=weight(a.experts, d, a.intermediate))
            else:
                layer.update(w_gate_up=weight(2 * a.intermediate, d), w_down=weight(d, a.intermediate))
            if a.linear != "bf16":
                quantize = quantize_weight_int8 if a.linear == "int8" else quantize_weight_fp8
                for name in ("wqkv", "wo") + (() if a.mlp == "moe" else ("w_gate_up", "w_down")):
                    layer[name], layer[name + "_scale"] = quantize(layer[name])
            self.layers.append(layer)
        self.params = sum(t.numel() for t in [self.embed, self.lm_head, self.final_norm]) + sum(
            t.numel() for layer in self.layers for t in layer.values())
        # RoPE tables over every position the run can reach.
        inv = 1.0 / (10000.0 ** (torch.arange(0, self.head_dim, 2, device=device).float() / self.head_dim))
        ang = torch.outer(torch.arange(max_len, device=device).float(), inv)
        ang = torch.cat([ang, ang], dim=-1)
        self.cos, self.sin = ang.cos().to(self.dtype), ang.sin().to(self.dtype)
        self.positions = torch.arange(max_len, device=device)
        self.attention = Attention(a.attention, a.heads, a.kv_heads, device)
        self.k_cache = self.v_cache = None

    def alloc_cache(self, batch):
        shape = (batch, self.a.kv_heads, self.max_len, self.head_dim)
        self.k_cache = [torch.zeros(shape, device=self.device, dtype=self.dtype) for _ in self.layers]
        self.v_cache = [torch.zeros(shape, device=self.device, dtype=self.dtype) for _ in self.layers]

    @staticmethod
    def rope(x, cos, sin):
        half = x.shape[-1] // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return x * cos + rotated * sin

    def forward(self, tokens, pos_idx, mask, write_cache):
        """tokens [B,T]; pos_idx [T] positions (device tensor). mask None = causal over the T tokens
        themselves; else attend over the whole cache with this additive bias. Returns last logits."""
        a, hd = self.a, self.head_dim
        b, t = tokens.shape
        x = F.embedding(tokens, self.embed)
        cos = self.cos.index_select(0, pos_idx)[None, None]
        sin = self.sin.index_select(0, pos_idx)[None, None]
        shape_kind = "causal" if mask is None else "masked"
        if mask is None and self.attention.kind == "unfused":  # explicit causal bias, built once per forward
            mask = torch.full((t, t), float("-inf"), device=self.device, dtype=self.dtype).triu(1)
        with self.attention.backend_context():
            for i, layer in enumerate(self.layers):
                h = self.rms_norm(x, layer["attn_norm"])
                q, k, v = self.linear(h, layer, "wqkv").split([a.hidden, a.kv_heads * hd, a.kv_heads * hd], dim=-1)
                q = self.rope(q.view(b, t, a.heads, hd).transpose(1, 2), cos, sin)
                k = self.rope(k.view(b, t, a.kv_heads, hd).transpose(1, 2), cos, sin)
                v = v.view(b, t, a.kv_heads, hd).transpose(1, 2)
                if write_cache:
                    self.k_cache[i].index_copy_(2, pos_idx, k)
                    self.v_cache[i].index_copy_(2, pos_idx, v)
                if shape_kind == "masked":
                    k, v = self.k_cache[i], self.v_cache[i]
                o = self.attention(shape_kind, q, k, v, mask)
                x = x + self.linear(o.transpose(1, 2).reshape(b, t, a.hidden), layer, "wo")
                h = self.rms_norm(x, layer["mlp_norm"])
                x = x + (self.moe(h, layer) if a.mlp == "moe" else self.dense_mlp(h, layer))
        last = self.rms_norm(x[:, -1], self.final_norm)
        return F.linear(last, self.lm_head)

    def rms_norm(self, x, weight):
        if self.a.norm == "fused":
            return F.rms_norm(x, (self.a.hidden,), weight, eps=1e-5)
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)).to(x.dtype) * weight

    def linear(self, x, layer, name):
        if self.a.linear == "bf16":
            return F.linear(x, layer[name])
        rows = x.reshape(-1, x.shape[-1])
        w, w_scale = layer[name], layer[name + "_scale"]
        if self.a.linear == "fp8-dequant":
            return F.linear(x, dequantize_fp8_weight(w, w_scale))
        if self.a.linear == "int8":
            xq, x_scale = per_token_quant_int8(rows)
            acc = torch._int_mm(xq, w.t())  # int32 [M, N]; w.t() is the [K, N] column-major view
            out = (acc.float() * x_scale * w_scale).to(self.dtype)
        else:
            xq, x_scale = per_token_quant_fp8(rows)
            out = torch._scaled_mm(xq, w.t(), scale_a=x_scale, scale_b=w_scale, out_dtype=self.dtype)
        return out.view(*x.shape[:-1], w.shape[0])

    def dense_mlp(self, h, layer):
        gate, up = self.linear(h, layer, "w_gate_up").chunk(2, dim=-1)
        return self.linear(F.silu(gate) * up, layer, "w_down")

    def moe(self, h, layer):
        """Top-k routing; the routed copies of the tokens sorted by expert; one grouped GEMM per
        projection over all experts (offsets on the device, so the step stays graph-capturable)."""
        a = self.a
        b, t, d = h.shape
        x = h.reshape(-1, d)
        probs = torch.softmax(F.linear(x, layer["router"]).float(), dim=-1)
        weights, experts = torch.topk(probs, a.top_k, dim=-1)
        weights = (weights / weights.sum(-1, keepdim=True)).to(x.dtype)
        flat = experts.flatten()
        order = torch.argsort(flat, stable=True)
        token_of = order // a.top_k
        counts = torch.zeros(a.experts, dtype=torch.long, device=x.device).scatter_add_(0, flat, torch.ones_like(flat))
        offsets = counts.cumsum(0).to(torch.int32)
        routed = x.index_select(0, token_of)
        gate, up = torch._grouped_mm(routed, layer["w_gate_up"].transpose(-2, -1), offs=offsets).chunk(2, dim=-1)
        out = torch._grouped_mm(F.silu(gate) * up, layer["w_down"].transpose(-2, -1), offs=offsets)
        out = out * weights.flatten().index_select(0, order).unsqueeze(-1)
        return torch.zeros_like(x).index_add_(0, token_of, out).view(b, t, d)

    def probe_attention(self, batch, q_len, kv_len, masked):
        """Same shapes and layouts as forward(): q (and, for causal, k and v) are transposed views of
        [B,T,heads,D]; for masked (decode) k and v are the contiguous cache."""
        hd, dt, dev = self.head_dim, self.dtype, self.device
        q = torch.randn(batch, q_len, self.a.heads, hd, device=dev, dtype=dt).transpose(1, 2)
        if masked:
            k = torch.randn(batch, self.a.kv_heads, kv_len, hd, device=dev, dtype=dt)
            v = torch.randn_like(k)
        else:
            k = torch.randn(batch, kv_len, self.a.kv_heads, hd, device=dev, dtype=dt).transpose(1, 2)
            v = torch.randn(batch, kv_len, self.a.kv_heads, hd, device=dev, dtype=dt).transpose(1, 2)
        mask = torch.zeros(1, 1, 1, kv_len, device=self.device, dtype=self.dtype) if masked else None
        self.attention.probe("masked" if masked else "causal", q, k, v, mask)


class StaticCacheRun:
    """Prefill once; each decode step embeds one token per sequence, writes its K/V at `pos`,
    attends over the whole fixed-size cache under a mask, and advances `pos` on the device,
    so that one captured graph serves every step."""

    def __init__(self, model, prompt):
        self.m = model
        self.prompt = prompt
        b, p = prompt.shape
        model.alloc_cache(b)
        model.probe_attention(b, p, p, masked=False)
        model.probe_attention(b, 1, model.max_len, masked=True)
        self.pos = torch.zeros(1, dtype=torch.long, device=model.device)
        self.tok = torch.zeros(b, 1, dtype=torch.long, device=model.device)
        self.first_tok = None

    def prefill(self):
        p = self.prompt.shape[1]
        logits = self.m.forward(self.prompt, self.m.positions[:p], None, write_cache=True)
        self.first_tok = logits.argmax(-1, keepdim=True)

    def reset(self):
        self.pos.fill_(self.prompt.shape[1])
        self.tok.copy_(self.first_tok)

    def step(self):
        visible = self.m.positions <= self.pos  # cache slots written so far, this one included
        mask = torch.where(visible, 0.0, float("-inf")).to(self.m.dtype).view(1, 1, 1, -1)
        logits = self.m.forward(self.tok, self.pos, mask, write_cache=True)
        self.tok.copy_(logits.argmax(-1, keepdim=True))
        self.pos.add_(1)


class NoCacheRun:
    """No KV cache: every step re-runs the full causal forward over the last `window` tokens
    (prefill-shaped GEMMs each step), then slides the window by the new token."""

    def __init__(self, model, prompt):
        self.m = model
        self.prompt = prompt
        self.window = prompt.clone()
        b, w = prompt.shape
        model.probe_attention(b, w, w, masked=False)

    def prefill(self):
        pass

    def reset(self):
        self.window.copy_(self.prompt)

    def step(self):
        w = self.window.shape[1]
        logits = self.m.forward(self.window, self.m.positions[:w], None, write_cache=False)
        nxt = logits.argmax(-1, keepdim=True)
        self.window.copy_(torch.cat([self.window[:, 1:], nxt], dim=1))


def spin_cycles_per_us():
    """torch.cuda._sleep spins for GPU cycles: measure how many make a microsecond at load clocks."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(3):  # the first spins bring the clock up
        torch.cuda._sleep(2_000_000)
    start.record()
    torch.cuda._sleep(20_000_000)
    end.record()
    torch.cuda.synchronize()
    return 20_000_000 / (start.elapsed_time(end) * 1e3)


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def main(argv=None):
    a = parse_args(argv)
    device = torch.device(a.device)
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(a.seed)
    t_setup = time.perf_counter()
    # Every step a run can reach stays inside the cache: each run restarts at the prompt's end.
    # The cache length is rounded up to a multiple of 64, as static caches usually are (alignment).
    reach = max(a.steps, a.warmup, a.profile_steps, 3) + 1
    max_len = a.prompt_len if a.kv_cache == "none" else -(-(a.prompt_len + reach) // 64) * 64
    model = Decoder(a, device, max_len)
    prompt = torch.randint(10, a.vocab - 10, (a.batch, a.prompt_len), device=device,
                           generator=torch.Generator(device=device).manual_seed(a.seed + 1))
    run = StaticCacheRun(model, prompt) if a.kv_cache == "static" else NoCacheRun(model, prompt)

    with torch.no_grad():
        sync(device)
        t0 = time.perf_counter()
        run.prefill()
        sync(device)
        prefill_ms = (time.perf_counter() - t0) * 1e3

        if a.gpu_sleep_us > 0:
            cycles = int(a.gpu_sleep_us * spin_cycles_per_us())
            plain_step = run.step

            def slower_step():
                plain_step()
                torch.cuda._sleep(cycles)

            run.step = slower_step
        if a.compile == "on":
            # Inductor picks the SDPA backend itself; the backend context manager stays outside.
            model.attention.fused = None
            run.step = torch.compile(run.step, fullgraph=True)
        step = run.step
        if a.graph == "on":
            # Eager steps on a side stream first (library handles, cuDNN plans), then capture one step.
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                run.reset()
                for _ in range(3):
                    run.step()
            torch.cuda.current_stream().wait_stream(side)
            sync(device)
            graph = torch.cuda.CUDAGraph()
            run.reset()
            with torch.cuda.graph(graph):
                run.step()
            step = graph.replay
        setup_s = time.perf_counter() - t_setup

        run.reset()
        for _ in range(a.warmup):
            step()
        sync(device)

        per_run = []
        for r in range(a.repeats):
            run.reset()
            sync(device)
            wall0, t0 = time.time(), time.perf_counter()
            for i in range(a.steps):
                step()
                if r == a.stall_run and i == a.steps // 2:
                    sync(device)
                    time.sleep(a.stall_ms / 1e3)
            sync(device)
            dt = time.perf_counter() - t0
            tok_s = a.steps * a.batch / dt
            per_run.append(tok_s)
            emit({"kind": "run", "run": r, "steps": a.steps, "batch": a.batch, "tokens": a.steps * a.batch,
                  "seconds": round(dt, 6), "tok_s": round(tok_s, 3), "t_start": round(wall0, 3),
                  "t_end": round(wall0 + dt, 3)})

        profile_file = None
        profile_window = None
        if a.profile != "none":
            # The step count of the profiled window, in the words profile-gate reads (time per step).
            emit({"metric": "profile_steps", "value": a.profile_steps})
            run.reset()
            wall0 = time.time()
            if a.profile == "torch":
                profile_file = torch_profile(a, step, device)
            elif a.profile == "torch-capture":
                profile_file = torch_capture_profile(a, run, device)
            else:
                cuda_range(a, step)
            profile_window = [round(wall0, 3), round(time.time(), 3)]

    summary = {
        "kind": "summary", "workload": "llama_decode", "name": a.name,
        "attention": a.attention, "kv_cache": a.kv_cache, "graph": a.graph, "batch": a.batch,
        "linear": a.linear, "mlp": a.mlp, "experts": a.experts if a.mlp == "moe" else None,
        "top_k": a.top_k if a.mlp == "moe" else None, "compile": a.compile, "norm": a.norm,
        "prompt_len": a.prompt_len, "steps": a.steps, "warmup": a.warmup, "repeats": a.repeats,
        "layers": a.layers, "hidden": a.hidden, "heads": a.heads, "kv_heads": a.kv_heads,
        "intermediate": a.intermediate, "vocab": a.vocab, "dtype": "bfloat16", "params": model.params,
        "cache_len": max_len if a.kv_cache == "static" else None,
        "attention_path": model.attention.paths or None,
        "prefill_ms": round(prefill_ms, 3), "setup_s": round(setup_s, 3),
        "per_run_tok_s": [round(x, 3) for x in per_run],
        "profile": a.profile, "profile_steps": a.profile_steps if a.profile != "none" else None,
        "profile_file": profile_file, "profile_window": profile_window,
        "device": torch.cuda.get_device_name(0) if device.type == "cuda" else platform.processor() or "cpu",
        "torch": torch.__version__, "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if device.type == "cuda" else None,
        "python": platform.python_version(),
    }
    if per_run:
        summary.update(tok_s_median=round(statistics.median(per_run), 3),
                       tok_s_mean=round(statistics.fmean(per_run), 3),
                       tok_s_min=round(min(per_run), 3), tok_s_max=round(max(per_run), 3))
        if len(per_run) > 2:  # the first timed run is known to be slower; report the rest apart
            rest = per_run[1:]
            summary.update(tok_s_median_after_first=round(statistics.median(rest), 3),
                           tok_s_spread_after_first_pct=round(100 * (max(rest) - min(rest)) / statistics.median(rest), 3))
    with open(os.path.join(a.out, a.name + ".summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    emit(summary)


def torch_profile(a, step, device):
    """Profile --profile-steps decode steps after one profiler warm-up step; ProfilerStep#N marks each
    (ProfilerStep#1 .. #N), and the trace holds exactly those steps' kernels."""
    from torch.profiler import ProfilerActivity, profile, schedule

    path = os.path.join(a.out, a.name + ".trace.json")
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    done = {}

    def save(prof):
        prof.export_chrome_trace(path)
        try:  # PyTorch's own per-op table, to cross-check totals read from the trace
            done["table"] = prof.key_averages().table(
                sort_by="cuda_time_total" if device.type == "cuda" else "cpu_time_total",
                row_limit=40, max_name_column_width=120)
        except Exception as error:
            done["table"] = "key_averages table failed: %s\n" % error

    with profile(activities=activities, schedule=schedule(wait=0, warmup=1, active=a.profile_steps, repeat=1),
                 on_trace_ready=save, record_shapes=True, with_stack=a.profile_stack) as prof:
        for i in range(1 + a.profile_steps):
            step()
            if i in (0, a.profile_steps):
                # Drain the GPU at both edges of the window: otherwise the warm-up step's kernels,
                # still queued behind the graph launch, spill into the first recorded step.
                sync(device)
            prof.step()
    with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path)
    with open(os.path.join(a.out, a.name + ".kernels.txt"), "w") as f:
        f.write(done.get("table", ""))
    return os.path.basename(path) + ".gz"


def torch_capture_profile(a, run, device):
    """The PyTorch profiler over a fresh CUDA-graph capture of one decode step (its ops and kernel
    launches are recorded on the CPU side; nothing runs on the GPU then), followed by
    --profile-steps replays of that graph (ProfilerStep#N each), whose kernels carry no CPU op."""
    from torch.profiler import ProfilerActivity, profile, record_function

    path = os.path.join(a.out, a.name + ".trace.json")
    graph = torch.cuda.CUDAGraph()
    run.reset()
    sync(device)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                 with_stack=a.profile_stack) as prof:
        with record_function("cuda_graph_capture"):
            with torch.cuda.graph(graph):
                run.step()
        sync(device)
        prof.step()
        for _ in range(a.profile_steps):
            graph.replay()
            sync(device)
            prof.step()
    prof.export_chrome_trace(path)
    with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path)
    return os.path.basename(path) + ".gz"


def cuda_range(a, step):
    """cudaProfilerStart/Stop around --profile-steps steps, one NVTX range per step."""
    import torch.cuda.profiler as cuda_profiler

    torch.cuda.synchronize()
    cuda_profiler.start()
    for i in range(a.profile_steps):
        torch.cuda.nvtx.range_push("decode_step_%d" % i)
        step()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    cuda_profiler.stop()


if __name__ == "__main__":
    sys.exit(main())
