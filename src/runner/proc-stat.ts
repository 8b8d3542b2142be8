/**
 * /proc/<pid>/stat read once into a typed record, and the table of live processes built from it.
 * The command name sits in parentheses and may itself hold spaces and parentheses (`(python (x) y)`),
 * so the fields after it are counted from the last ')'. Depends on node built-ins only (the process
 * tests load the process modules on their own).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  /** The command name between the parentheses, as the kernel keeps it. */
  comm: string;
  /** R, S, D, T, Z (zombie), X (dead), … */
  state: string;
  ppid: number;
  pgid: number;
  session: number;
  /** Start time in clock ticks since boot: tells a process from a later one with the same pid. */
  startTime: string;
}

/** The fields of a stat line, or undefined when it has no command name in parentheses. */
export function parseProcStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // Field 3 (state) onwards: state ppid pgrp session tty_nr … starttime is field 22.
  const fields = text.slice(close + 2).split(' ');
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state: fields[0] ?? '',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    session: Number(fields[3]),
    startTime: fields[19] ?? '',
  };
}

/** Neither a zombie nor dead. */
export function isLive(stat: ProcStat): boolean {
  return stat.state !== 'Z' && stat.state !== 'X';
}

/** One process's stat; undefined when it is gone or cannot be read. */
export function readProcStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Live (not zombie) processes from /proc; empty where there is no /proc. */
export function liveProcesses(): ProcStat[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const table: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (stat && isLive(stat)) table.push(stat);
  }
  return table;
}

/** The same process (same start time) is still there and not a zombie. */
export function stillRunning(known: ProcStat): boolean {
  const now = readProcStat(known.pid);
  return now !== undefined && isLive(now) && now.startTime === known.startTime;
}
