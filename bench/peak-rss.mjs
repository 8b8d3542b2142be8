#!/usr/bin/env node
/**
 * The peak RSS of this process's own address space, for the benchmarks' measured children.
 *
 * Why not `process.resourceUsage().maxRSS` (getrusage): on Linux a process's maxrss is kept
 * across exec, and exec records in it the high-water mark of the address space it replaces, the
 * spawning parent's (libuv's spawn execs from a copy of the parent, or from the parent's own
 * memory with vfork). So a child spawned by a parent of 300 MB reports a peak of 300 MB whatever
 * it does itself, and a benchmark parent that has just written a trace out hands its size to the
 * next child. `VmHWM` in /proc/self/status is the high-water mark of the child's own memory since
 * its exec. Elsewhere (no /proc), getrusage's figure.
 *
 *   node bench/peak-rss.mjs --check [MB]   a child of a parent holding MB (300) MB: both readings
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

/** Peak RSS of this process since its exec, in MB (MiB, as getrusage's KiB / 1024). */
export function peakRssMB() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // No /proc: getrusage below.
  }
  return process.resourceUsage().maxRSS / 1024;
}

// Run as a script (not imported by a benchmark, whose own arguments these may be).
if (process.argv[1] === self && process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify({ peakRssMB: peakRssMB(), getrusageMB: process.resourceUsage().maxRSS / 1024 }));
} else if (process.argv[1] === self && process.argv[2] === '--check') {
  const held = Buffer.alloc(Number(process.argv[3] ?? 300) << 20, 1);
  const child = JSON.parse(execFileSync(process.execPath, [self, '--child']).toString());
  console.log(`parent RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (holding ${held.length >> 20} MB); its child: VmHWM ${child.peakRssMB.toFixed(0)} MB, getrusage maxrss ${child.getrusageMB.toFixed(0)} MB`);
}
