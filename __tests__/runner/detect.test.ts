import {
  detectEnvironment,
  environmentFingerprint,
  interpreterFromShebang,
  maxHasProfileFlag,
  parseCudaVersion,
  parseMaxVersion,
  parseNvidiaSmiQuery,
  parseRocmSmi,
  type Probe,
  type ProbeResult,
} from '../../src/runner/detect.js';

/** A box described by its command outputs and files; anything else is missing. */
function fakeProbe(box: { commands?: Record<string, ProbeResult>; onPath?: Record<string, string>; globs?: Record<string, string[]>; files?: Record<string, string> }): Probe & { ran: string[] } {
  const ran: string[] = [];
  return {
    ran,
    async run(command, args) {
      const key = [command, ...args].join(' ');
      ran.push(key);
      return box.commands?.[key] ?? null;
    },
    which: async (name) => box.onPath?.[name] ?? null,
    glob: async (pattern) => box.globs?.[pattern] ?? [],
    readText: async (path) => box.files?.[path] ?? null,
  };
}

const ok = (stdout: string): ProbeResult => ({ code: 0, stdout, stderr: '' });

describe('environment parsers', () => {
  it('reads nvidia-smi name and driver (values as on the H200 box, research/device.md)', () => {
    expect(parseNvidiaSmiQuery('NVIDIA H200, 580.159.04\nNVIDIA H200, 580.159.04\n')).toEqual({ gpus: ['NVIDIA H200', 'NVIDIA H200'], driver: '580.159.04' });
    expect(parseNvidiaSmiQuery('')).toEqual({ gpus: [] });
    expect(parseCudaVersion('| NVIDIA-SMI 580.159.04     Driver Version: 580.159.04     CUDA Version: 13.0     |')).toBe('13.0');
  });

  it('reads rocm-smi JSON (human labels, keys drift in case)', () => {
    const json = JSON.stringify({ card0: { 'Card Series': 'AMD Instinct MI300X', 'Card model': '0x74a1' }, card1: { 'Card series': 'AMD Instinct MI300X' }, system: { 'Driver version': '6.8.5' } });
    expect(parseRocmSmi(`WARNING: something\n${json}`)).toEqual({ gpus: ['AMD Instinct MI300X', 'AMD Instinct MI300X'], driver: '6.8.5' });
    expect(parseRocmSmi('not json')).toEqual({ gpus: [] });
  });

  it('reads `max --version` and knows which versions have --profile (26.4+)', () => {
    expect(parseMaxVersion('MAX 26.4.0\n')).toBe('26.4.0');
    expect(parseMaxVersion('MAX 26.5.0.dev2026062514')).toBe('26.5.0.dev2026062514');
    expect(parseMaxVersion('max: command not found')).toBeUndefined();
    expect(maxHasProfileFlag('26.4.0')).toBe(true);
    expect(maxHasProfileFlag('26.5.0.dev2026062514')).toBe(true);
    expect(maxHasProfileFlag('27.0.1')).toBe(true);
    expect(maxHasProfileFlag('26.3.2')).toBe(false);
    expect(maxHasProfileFlag('25.7.0')).toBe(false);
    expect(maxHasProfileFlag(undefined)).toBe(false);
  });

  it('finds the python that runs max from its #! line', () => {
    expect(interpreterFromShebang('#!/home/u/.venv/bin/python3')).toBe('/home/u/.venv/bin/python3');
    expect(interpreterFromShebang('#!/usr/bin/env python3.12')).toBe('python3.12');
    expect(interpreterFromShebang('#!/bin/sh')).toBeUndefined();
    expect(interpreterFromShebang('\u007fELF')).toBeUndefined();
  });
});

describe('detectEnvironment', () => {
  it('finds an NVIDIA box, nsys at the known Nsight Compute path, ncu on PATH, and MAX', async () => {
    const probe = fakeProbe({
      commands: {
        'nvidia-smi --query-gpu=name,driver_version --format=csv,noheader': ok('NVIDIA H200, 580.159.04\n'),
        'nvidia-smi': ok('CUDA Version: 13.0'),
        '/venv/bin/max --version': ok('MAX 26.3.1\n'),
      },
      onPath: { max: '/venv/bin/max', ncu: '/usr/local/cuda/bin/ncu' },
      globs: { '/opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys': ['/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys', '/opt/nvidia/nsight-compute/2025.10.0/host/target-linux-x64/nsys'] },
      files: { '/venv/bin/max': '#!/venv/bin/python3\nimport sys\n' },
    });
    const detected = await detectEnvironment(probe, { needMax: true });
    expect(detected).toMatchObject({ vendor: 'nvidia', gpus: ['NVIDIA H200'], driver: '580.159.04', cuda: '13.0', maxVersion: '26.3.1' });
    expect(detected.tools).toEqual({ python: '/venv/bin/python3', max: '/venv/bin/max', ncu: '/usr/local/cuda/bin/ncu', nsys: '/opt/nvidia/nsight-compute/2025.10.0/host/target-linux-x64/nsys' });
    expect(environmentFingerprint(detected, 'max', 'org/model')).toEqual({
      gpuName: 'NVIDIA H200',
      gpuCount: 1,
      vendor: 'nvidia',
      driver: '580.159.04',
      cuda: '13.0',
      engine: 'max',
      engineVersion: '26.3.1',
      model: 'org/model',
    });
  });

  it('finds an AMD box with rocprofv3 and the ROCm version', async () => {
    const probe = fakeProbe({
      commands: { 'rocm-smi --showproductname --showdriverversion --json': ok(JSON.stringify({ card0: { 'Card Series': 'AMD Instinct MI300X' }, system: { 'Driver version': '6.8.5' } })) },
      globs: { '/opt/rocm/bin/rocprofv3': ['/opt/rocm/bin/rocprofv3'] },
      files: { '/opt/rocm/.info/version': '6.4.1-120\n' },
    });
    const detected = await detectEnvironment(probe, { needMax: false });
    expect(detected).toMatchObject({ vendor: 'amd', gpus: ['AMD Instinct MI300X'], driver: '6.8.5', rocm: '6.4.1-120', tools: { rocprofv3: '/opt/rocm/bin/rocprofv3' } });
    expect(detected.tools.nsys).toBeUndefined();
  });

  it('records what is missing instead of failing', async () => {
    const probe = fakeProbe({ commands: { 'nvidia-smi --query-gpu=name,driver_version --format=csv,noheader': { code: 9, stdout: '', stderr: 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.' } } });
    const detected = await detectEnvironment(probe, { needMax: true });
    expect(detected.vendor).toBeNull();
    expect(detected.tools).toEqual({ python: 'python3' });
    expect(detected.notes).toEqual(['nvidia-smi exited 9: NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.', 'no GPU found (neither nvidia-smi nor rocm-smi listed one)']);
    expect(probe.ran).not.toContain('max --version');
  });
});
