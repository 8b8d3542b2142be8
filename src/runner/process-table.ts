/**
 * Questions about the processes a run started, answered from /proc: the members of a group, the
 * descendants that left it, the processes that carry the run's marker. Depends on node built-ins and
 * proc-stat.ts only (the process tests load the process modules on their own).
 */
import { readFileSync, statSync } from 'node:fs';
import { liveProcesses, type ProcStat } from './proc-stat.js';

/** Live (not zombie) members of a process group. Linux reads /proc; elsewhere kill(-pgid, 0). */
export function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  return liveProcesses()
    .filter((entry) => entry.pgid === pgid)
    .map((entry) => entry.pid);
}

/**
 * Processes descended from a member of the group that moved to a group of their own (setsid, or a
 * wrapper such as gpu_snapshot.py that runs its command in a new group). Still ours to stop.
 */
export function escapedDescendants(pgid: number): ProcStat[] {
  const table = liveProcesses();
  const children = new Map<number, ProcStat[]>();
  for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const found: ProcStat[] = [];
  const queue = table.filter((entry) => entry.pgid === pgid);
  const seen = new Set(queue.map((entry) => entry.pid));
  while (queue.length) {
    for (const child of children.get(queue.shift()!.pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      if (child.pgid !== pgid) found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The command line of a process, arguments joined by spaces (empty when it cannot be read). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * Live processes of this user whose environment carries `marker` (NAME=value). Reads
 * /proc/<pid>/environ, which holds the environment a process was started with.
 */
export function processesWithMarker(marker: string): ProcStat[] {
  const uid = process.getuid?.();
  const needle = Buffer.from(`\0${marker}\0`);
  const first = Buffer.from(`${marker}\0`);
  return liveProcesses().filter((entry) => {
    if (entry.pid === process.pid) return false;
    try {
      if (uid !== undefined && statSync(`/proc/${entry.pid}`).uid !== uid) return false;
      const environ = readFileSync(`/proc/${entry.pid}/environ`);
      return environ.subarray(0, first.length).equals(first) || environ.includes(needle);
    } catch {
      return false;
    }
  });
}
