/**
 * The trace record's rows: the room a reader asks for up front (from its input's size) changes
 * neither what is kept nor what the record says of itself.
 */
import { OpLog } from '../../src/ingest/common/timeline.js';
import { TraceEvents } from '../../src/model/trace-events.js';

function filled(expectedRows: number): TraceEvents {
  const trace = new TraceEvents({ gpu: 3, host: 2 }, expectedRows);
  for (let k = 0; k < 5; k++) trace.add('kernel', `k${k % 2}`, k * 10, 4, 0, 7);
  trace.add('cpu-op', 'aten::mm', 1, 30, -1, 11);
  trace.add('range', 'ProfilerStep#1', 0, 60, -1, 11);
  trace.add('range', 'ProfilerStep#2', 60, 60, -1, 11);
  return trace;
}

describe('trace record rows', () => {
  it('keeps the same events, in order, whatever room it started with', () => {
    for (const rows of [1, 2, 4, 1024]) {
      const trace = filled(rows);
      expect(trace.count).toBe(5);
      expect([...trace.events()].map((e) => `${e.kind}:${e.name}@${e.startNs}`)).toEqual(['kernel:k0@0', 'kernel:k1@10', 'kernel:k0@20', 'cpu-op:aten::mm@1', 'range:ProfilerStep#1@0']);
      expect(trace.dropped()).toEqual({ kernel: 2, range: 1 });
    }
  });

  it('says the same as JSON whatever room it started with: its events, not its buffers', () => {
    const small = JSON.parse(JSON.stringify(filled(1)));
    expect(JSON.parse(JSON.stringify(filled(1024)))).toEqual(small);
    expect(small.count).toBe(5);
    expect(small.events).toHaveLength(5);
    expect(small.events[3]).toEqual({ kind: 'cpu-op', name: 'aten::mm', startNs: 1, durNs: 30, device: -1, lane: 11 });
  });

  it('sealed, is the same object whatever room it started with, and still takes more events', () => {
    expect(filled(1024).seal()).toEqual(filled(2).seal());
    expect(filled(1024)).not.toEqual(filled(2));
    const sealed = new TraceEvents({ gpu: 10, host: 10 }, 64);
    sealed.add('kernel', 'a', 0, 1, 0, 0);
    sealed.seal().add('kernel', 'b', 5, 1, 0, 0);
    expect([...sealed.events()].map((e) => e.name)).toEqual(['a', 'b']);
    // Sealed with nothing kept, its columns are empty: an event added after still fits.
    const empty = new TraceEvents({ gpu: 10, host: 10 }, 64).seal();
    empty.add('kernel', 'c', 1, 2, 0, 0);
    expect([...empty.events()]).toEqual([{ kind: 'kernel', name: 'c', startNs: 1, durNs: 2, device: 0, lane: 0 }]);
  });

  it('an op log given fewer rows than it is given ops grows and keeps them all', () => {
    const ops = new OpLog(2);
    for (let k = 0; k < 9; k++) ops.push(k, k + 1, k % 3, k, 1);
    expect(ops.count).toBe(9);
    expect(Array.from(ops.starts.subarray(0, 9))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Array.from(ops.devices.subarray(0, 9))).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2]);
  });
});
