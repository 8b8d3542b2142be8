/**
 * The line splitter on its own: characters and line ends that arrive split across chunks, and the
 * bound on a line's length.
 */
import { LineSplitter } from '../../src/runner/line-splitter.js';

function split(chunks: ReadonlyArray<Buffer | string>, maxBytes?: number): { lines: string[]; dropped: number[]; splitter: LineSplitter } {
  const lines: string[] = [];
  const dropped: number[] = [];
  const splitter = new LineSplitter((line, bytes) => {
    lines.push(line);
    dropped.push(bytes);
  }, maxBytes);
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  splitter.end();
  return { lines, dropped, splitter };
}

/** Every way of cutting `bytes` into two chunks. */
function twoChunks(bytes: Buffer): Buffer[][] {
  return Array.from({ length: bytes.length + 1 }, (_, at) => [bytes.subarray(0, at), bytes.subarray(at)]);
}

describe('LineSplitter', () => {
  it('joins a UTF-8 character split across chunks at every byte', () => {
    // é is 2 bytes, € 3, 🚀 4: a cut inside any of them must not give U+FFFD.
    const text = 'é€🚀\nnext';
    for (const chunks of twoChunks(Buffer.from(text))) expect(split(chunks).lines).toEqual(['é€🚀', 'next']);
  });

  it('joins a character split over three chunks, one byte each', () => {
    const rocket = Buffer.from('🚀\n');
    expect(split([rocket.subarray(0, 1), rocket.subarray(1, 2), rocket.subarray(2)]).lines).toEqual(['🚀']);
  });

  it('takes a CRLF split across chunks as one line end', () => {
    for (const chunks of twoChunks(Buffer.from('one\r\ntwo\r\n'))) expect(split(chunks).lines).toEqual(['one', 'two']);
  });

  it('takes a lone CR as a line end, and CR CR LF as two', () => {
    expect(split(['a\rb\n']).lines).toEqual(['a', 'b']);
    expect(split(['a\r', '\r', '\n']).lines).toEqual(['a', '']);
  });

  it('keeps an empty line between two LFs, and gives the last line without an end', () => {
    expect(split(['x\n\n', 'y']).lines).toEqual(['x', '', 'y']);
    expect(split(['x\n']).lines).toEqual(['x']);
  });

  it('cuts a line at maxBytes, counts what it dropped, and goes on with the next line', () => {
    const { lines, dropped, splitter } = split(['0123', '4567', '89\r', '\nok\n'], 6);
    expect(lines).toEqual(['012345', 'ok']);
    expect(dropped).toEqual([4, 0]);
    expect([splitter.cutLines, splitter.cutBytes]).toEqual([1, 4]);
  });

  it('does not take the LF after a cut line ended by CR as an empty line', () => {
    expect(split(['abcdefgh\r', '\nz\n'], 4).lines).toEqual(['abcd', 'z']);
  });
});
