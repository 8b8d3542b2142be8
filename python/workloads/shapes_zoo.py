#!/usr/bin/env python3
"""Windows that are not a decode loop, and one decode that re-runs its prefill, for the verdict's cases.

Each mode records one PyTorch profiler trace (Kineto JSON, input shapes recorded) of its window and
prints one JSON summary line. Random weights; nothing is downloaded.

  prefill       one prefill (extend) step of a Llama-style model: batch 15 x 1024 tokens, no decode
  forward       one torch.compile'd forward pass of a small decoder (batch 4 x 256), after compiling
  dit-step      one denoising step of a DiT-style diffusion transformer (patchify conv, adaLN,
                SDPA attention, GELU MLP): no tokens are generated at all
  generate-nocache   transformers generate(use_cache=False), batch 8, 512-token prompts, 12 new
                tokens: every step re-runs the whole growing sequence (8x512, 8x513, ...)
  generate-cache     the same generate with its KV cache (the healthy counterpart)
"""
import argparse
import gzip
import json
import os
import shutil
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def llama(layers, hidden, heads, kv_heads, inter, vocab=32000):
    from transformers import LlamaConfig, LlamaForCausalLM
    cfg = LlamaConfig(hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
                      num_key_value_heads=kv_heads, intermediate_size=inter, vocab_size=vocab,
                      max_position_embeddings=4096, attn_implementation="sdpa")
    torch.manual_seed(0)
    return LlamaForCausalLM(cfg).to("cuda", torch.bfloat16).eval()


class DiTBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.n1 = nn.LayerNorm(d, elementwise_affine=False, eps=1e-6)
        self.n2 = nn.LayerNorm(d, elementwise_affine=False, eps=1e-6)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)
        self.ada = nn.Linear(d, 6 * d)

    def forward(self, x, c):
        s1, b1, g1, s2, b2, g2 = self.ada(F.silu(c)).unsqueeze(1).chunk(6, dim=-1)
        h = self.n1(x) * (1 + s1) + b1
        B, N, D = h.shape
        q, k, v = self.qkv(h).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(B, N, D)
        x = x + g1 * self.proj(a)
        h = self.n2(x) * (1 + s2) + b2
        return x + g2 * self.fc2(F.gelu(self.fc1(h), approximate="tanh"))


class DiT(nn.Module):
    def __init__(self, d=1152, depth=12, heads=16, patch=2, channels=4):
        super().__init__()
        self.patch, self.channels = patch, channels
        self.embed = nn.Conv2d(channels, d, patch, patch)
        self.t = nn.Sequential(nn.Linear(256, d), nn.SiLU(), nn.Linear(d, d))
        self.blocks = nn.ModuleList(DiTBlock(d, heads) for _ in range(depth))
        self.out = nn.Linear(d, patch * patch * channels)

    def forward(self, z, t):
        B, C, H, W = z.shape
        x = self.embed(z).flatten(2).transpose(1, 2)
        freqs = torch.exp(-torch.arange(128, device=z.device) * (9.21 / 128))
        te = torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], dim=-1).to(z.dtype)
        c = self.t(te)
        for blk in self.blocks:
            x = blk(x, c)
        p = self.patch
        x = self.out(x).view(B, H // p, W // p, p, p, C).permute(0, 5, 1, 3, 2, 4)
        return x.reshape(B, C, H, W)


def profiled(name, out, fn):
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as prof:
        t0 = time.perf_counter()
        result = fn()
        torch.cuda.synchronize()
        seconds = time.perf_counter() - t0
    raw = os.path.join(out, f"{name}.trace.json")
    prof.export_chrome_trace(raw)
    with open(raw, "rb") as src, gzip.open(raw + ".gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.remove(raw)
    return result, seconds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["prefill", "forward", "dit-step", "generate-nocache", "generate-cache"])
    p.add_argument("--out", default=".")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    summary = {"kind": "summary", "mode": a.mode}
    with torch.inference_mode():
        if a.mode == "prefill":
            model = llama(8, 2048, 16, 4, 5632)
            ids = torch.randint(0, 32000, (15, 1024), device="cuda")
            for _ in range(2):
                model(input_ids=ids, use_cache=False)
            _, s = profiled("prefill_bs15_1024", a.out, lambda: model(input_ids=ids, use_cache=False))
            summary.update(batch=15, tokens=15 * 1024, seconds=s, prefill_tok_s=15 * 1024 / s)
        elif a.mode == "forward":
            model = llama(4, 1024, 16, 4, 2816)
            fwd = torch.compile(model.model, fullgraph=False)
            ids = torch.randint(0, 32000, (4, 256), device="cuda")
            for _ in range(3):
                fwd(input_ids=ids, use_cache=False)
            _, s = profiled("compiled_forward_bs4_256", a.out, lambda: fwd(input_ids=ids, use_cache=False))
            summary.update(batch=4, tokens=4 * 256, seconds=s)
        elif a.mode == "dit-step":
            torch.manual_seed(0)
            model = DiT().to("cuda", torch.bfloat16).eval()
            z = torch.randn(2, 4, 64, 64, device="cuda", dtype=torch.bfloat16)
            t = torch.full((2,), 500.0, device="cuda", dtype=torch.bfloat16)
            for _ in range(3):
                model(z, t)
            _, s = profiled("dit_step_bs2_64x64", a.out, lambda: model(z, t))
            summary.update(batch=2, latent="4x64x64", seconds=s)
        else:
            cache = a.mode == "generate-cache"
            model = llama(4, 1024, 16, 4, 2816)
            ids = torch.randint(0, 32000, (8, 512), device="cuda")
            new = 12
            kw = dict(max_new_tokens=new, min_new_tokens=new, do_sample=False, use_cache=cache, pad_token_id=0)
            model.generate(ids, **kw)
            _, s = profiled(f"hf_generate_{'cache' if cache else 'nocache'}_bs8_512", a.out, lambda: model.generate(ids, **kw))
            summary.update(batch=8, prompt=512, new_tokens=new, seconds=s, decode_tok_s=8 * new / s, use_cache=cache)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
