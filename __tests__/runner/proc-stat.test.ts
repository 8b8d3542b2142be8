/**
 * /proc/<pid>/stat read into a record: the command name may hold spaces and parentheses, so the
 * fields after it are counted from its last ')'. The line below is laid out as proc(5) gives it
 * (52 fields; starttime is field 22).
 */
import { spawn } from 'node:child_process';
import { isLive, liveProcesses, parseProcStat, readProcStat, stillRunning } from '../../src/runner/proc-stat.js';
import { PYTHON, waitFor } from './stand-ins.js';

/** A stat line with the given pid, comm, state, ppid, pgrp, session and starttime. */
function statLine(pid: number, comm: string, state: string, ppid: number, pgrp: number, session: number, starttime: number): string {
  // fields 7..21 (tty_nr … itrealvalue), then 22 starttime, then 23..52
  const middle = ['34816', '-1', '4194304', '1120', '0', '0', '0', '3', '1', '0', '0', '20', '0', '1', '0'];
  const rest = Array.from({ length: 30 }, (_, i) => String(i + 100));
  return `${pid} (${comm}) ${[state, ppid, pgrp, session, ...middle, starttime, ...rest].join(' ')}\n`;
}

describe('parseProcStat', () => {
  it('reads a comm with spaces and parentheses, and the fields after it', () => {
    const stat = parseProcStat(statLine(4242, 'python (x) y', 'S', 17, 4240, 4200, 987654));
    expect(stat).toEqual({ pid: 4242, comm: 'python (x) y', state: 'S', ppid: 17, pgid: 4240, session: 4200, startTime: '987654' });
  });

  it('reads a comm that is only parentheses and a closing one at its end', () => {
    expect(parseProcStat(statLine(7, ') (', 'R', 1, 7, 7, 55))).toMatchObject({ comm: ') (', state: 'R', ppid: 1, pgid: 7, startTime: '55' });
    expect(parseProcStat(statLine(8, 'a)', 'S', 2, 3, 4, 66))).toMatchObject({ comm: 'a)', ppid: 2, pgid: 3, session: 4, startTime: '66' });
  });

  it('tells zombies and dead processes from live ones', () => {
    expect(isLive(parseProcStat(statLine(9, 'z', 'Z', 1, 9, 9, 1))!)).toBe(false);
    expect(isLive(parseProcStat(statLine(9, 'x', 'X', 1, 9, 9, 1))!)).toBe(false);
    expect(isLive(parseProcStat(statLine(9, 'd', 'D', 1, 9, 9, 1))!)).toBe(true);
  });

  it('gives nothing for a line without a command name', () => {
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('12 python S 1 12 12')).toBeUndefined();
  });
});

const linux = process.platform === 'linux';
(linux ? describe : describe.skip)('reading /proc', () => {
  it('reads a live process whose command name holds spaces and parentheses, and sees it go', async () => {
    // The child renames itself; the kernel keeps the name as comm, between the stat line's parentheses.
    const child = spawn(PYTHON, ['-c', "open('/proc/self/comm', 'w').write('python (x) y'); print('named', flush=True); import time; time.sleep(30)"], { stdio: ['ignore', 'pipe', 'ignore'] });
    let named = false;
    child.stdout!.on('data', () => (named = true));
    expect(await waitFor(() => named, 5000)).toBe(true);
    const stat = readProcStat(child.pid!)!;
    expect(stat).toMatchObject({ pid: child.pid, comm: 'python (x) y', ppid: process.pid, pgid: readProcStat(process.pid)!.pgid });
    expect(stat.startTime).toMatch(/^\d+$/);
    // The state letter may change between two reads (R while printing, S asleep); the rest is the process's identity.
    const listed = liveProcesses().find((entry) => entry.pid === child.pid);
    expect({ ...listed, state: '' }).toEqual({ ...stat, state: '' });
    expect(stillRunning(stat)).toBe(true);
    expect(stillRunning({ ...stat, startTime: `${Number(stat.startTime) + 1}` })).toBe(false);
    const gone = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    expect(stillRunning(stat)).toBe(false);
    expect(readProcStat(child.pid!)).toBeUndefined();
  });
});
