import { describe, expect, it } from 'vitest';
import { checkLabels, formatLabels, LABELS_MAX, labelKeyProblem, labelValueProblem, parseLabelArgs, sameLabels } from './labels';
import { KEY_CASES, VALUE_CASES } from './labels-cases';

describe('label keys', () => {
  it.each(KEY_CASES)('$key → ok=$ok', ({ key, ok }) => {
    expect(labelKeyProblem(key) === null).toBe(ok);
  });
});

describe('label values', () => {
  it.each(VALUE_CASES)('$value → ok=$ok', ({ value, ok }) => {
    expect(labelValueProblem('team', value) === null).toBe(ok);
  });
});

describe('a label set', () => {
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

  it.each([
    { given: 'no labels', input: {}, ok: true },
    { given: 'three labels', input: { team: 'payments', service: 'documents', env: 'prod' }, ok: true },
    { given: `${LABELS_MAX} labels`, input: many(LABELS_MAX), ok: true },
    { given: `${LABELS_MAX + 1} labels`, input: many(LABELS_MAX + 1), ok: false },
    { given: 'a number value', input: { team: 1 }, ok: false },
    { given: 'a null value', input: { team: null }, ok: false },
    { given: 'an array', input: ['team=payments'], ok: false },
    { given: 'a string', input: 'team=payments', ok: false },
    { given: 'null', input: null, ok: false },
    { given: 'a bad key', input: { 'bad key': 'x' }, ok: false },
    { given: 'a bad value', input: { team: 'pay ments' }, ok: false },
  ])('$given → ok=$ok', ({ input, ok }) => {
    expect(checkLabels(input).ok).toBe(ok);
  });

  it('names the key and the rule in its refusal', () => {
    expect(checkLabels({ team: 'pay ments' })).toEqual({ ok: false, message: expect.stringMatching(/^label "team": the value must be empty or 1–63/) });
    expect(checkLabels(many(LABELS_MAX + 1))).toEqual({ ok: false, message: `labels: at most ${LABELS_MAX} per scheduler, got ${LABELS_MAX + 1}` });
  });

  it('comes back sorted by key, and formats as a selector would', () => {
    const checked = checkLabels({ team: 'payments', env: 'prod' });
    expect(checked.ok && Object.keys(checked.labels)).toEqual(['env', 'team']);
    expect(formatLabels({ team: 'payments', env: 'prod' })).toBe('env=prod,team=payments');
    expect(formatLabels({})).toBe('');
  });

  it('compares by content, not order', () => {
    expect(sameLabels({ a: '1', b: '2' }, { b: '2', a: '1' })).toBe(true);
    expect(sameLabels({ a: '1' }, { a: '1', b: '' })).toBe(false);
    expect(sameLabels({ a: '1' }, { a: '2' })).toBe(false);
  });
});

describe('--label KEY=VALUE arguments', () => {
  it.each([
    { args: [], expected: { ok: true, labels: {} } },
    { args: ['team=payments', 'env=prod'], expected: { ok: true, labels: { env: 'prod', team: 'payments' } } },
    { args: ['team='], expected: { ok: true, labels: { team: '' } } },
    { args: ['team=a=b'], expected: { ok: false, message: expect.stringContaining('label "team"') } },
    { args: ['team'], expected: { ok: false, message: expect.stringContaining('expected KEY=VALUE') } },
    { args: ['=payments'], expected: { ok: false, message: expect.stringContaining('expected KEY=VALUE') } },
    { args: ['team=a', 'team=b'], expected: { ok: false, message: 'label "team": given twice' } },
  ])('$args', ({ args, expected }) => {
    expect(parseLabelArgs(args)).toEqual(expected);
  });
});
