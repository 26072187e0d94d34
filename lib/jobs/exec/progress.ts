/**
 * The exec runner's progress channel: the child writes JSON lines to file
 * descriptor 3, one object per line, `{"cursor": N}` with N a whole number
 * ≥ 0 (other keys are ignored). Each accepted line moves the cursor the
 * runtime's reports carry; a cursor lower than the last one is ignored (a
 * cursor never goes back). Pure: a line in, a cursor or the reason it was
 * refused out.
 *
 * Why fd 3 and not a prefix on stdout: the program's own output stays its
 * own (no line of it can be mistaken for progress), and a program that never
 * opens fd 3 loses nothing.
 */

/** Longer lines are refused unread (a line is one small object). */
const MAX_PROGRESS_LINE = 1_024;

export type ProgressLine = { kind: 'cursor'; cursor: number } | { kind: 'refused'; why: 'too_long' | 'not_json' | 'no_cursor' };

export function parseProgressLine(line: string): ProgressLine {
  if (line.length > MAX_PROGRESS_LINE) return { kind: 'refused', why: 'too_long' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'refused', why: 'not_json' };
  }
  const cursor = typeof value === 'object' && value !== null ? (value as { cursor?: unknown }).cursor : undefined;
  if (typeof cursor !== 'number' || !Number.isSafeInteger(cursor) || cursor < 0) return { kind: 'refused', why: 'no_cursor' };
  return { kind: 'cursor', cursor };
}
