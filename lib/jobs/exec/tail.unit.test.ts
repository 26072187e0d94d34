import { describe, expect, it } from 'vitest';
import { parseProgressLine } from './progress';
import { OutputTail } from './tail';

describe('OutputTail', () => {
  it('keeps only the last limit bytes, across chunks', () => {
    const tail = new OutputTail(5);
    for (const part of ['ab', 'cd', 'ef', 'g']) tail.push(Buffer.from(part));
    expect(tail.text()).toBe('cdefg');
    tail.push(Buffer.from('0123456789'));
    expect(tail.text()).toBe('56789');
  });

  it('keeps nothing with limit 0', () => {
    const tail = new OutputTail(0);
    tail.push(Buffer.from('secret'));
    expect(tail.text()).toBe('');
  });
});

describe('parseProgressLine', () => {
  it('takes a whole cursor ≥ 0 and ignores other keys', () => {
    expect(parseProgressLine('{"cursor": 42, "note": "x"}')).toEqual({ kind: 'cursor', cursor: 42 });
    expect(parseProgressLine('{"cursor":0}')).toEqual({ kind: 'cursor', cursor: 0 });
  });

  it('refuses what is not one', () => {
    expect(parseProgressLine('cursor=3')).toEqual({ kind: 'refused', why: 'not_json' });
    expect(parseProgressLine('{"cursor": -1}')).toEqual({ kind: 'refused', why: 'no_cursor' });
    expect(parseProgressLine('{"cursor": 1.5}')).toEqual({ kind: 'refused', why: 'no_cursor' });
    expect(parseProgressLine('[3]')).toEqual({ kind: 'refused', why: 'no_cursor' });
    expect(parseProgressLine(`{"cursor": 1, "pad": "${'x'.repeat(2_000)}"}`)).toEqual({ kind: 'refused', why: 'too_long' });
  });
});
