import { describe, expect, it } from 'vitest';
import { formatSelector, matchesSelector, parseSelector, SELECTOR_MAX_LENGTH, SELECTOR_MAX_REQUIREMENTS, type Selector } from './selector';

describe('parsing a selector', () => {
  it.each<{ text: string; selector: Selector }>([
    { text: '', selector: [] },
    { text: '   ', selector: [] },
    { text: 'team=payments', selector: [{ key: 'team', op: 'eq', value: 'payments' }] },
    { text: 'team==payments', selector: [{ key: 'team', op: 'eq', value: 'payments' }] },
    { text: 'env!=dev', selector: [{ key: 'env', op: 'neq', value: 'dev' }] },
    { text: 'env=', selector: [{ key: 'env', op: 'eq', value: '' }] },
    { text: 'env in (prod,staging)', selector: [{ key: 'env', op: 'in', values: ['prod', 'staging'] }] },
    { text: 'env notin (dev, test)', selector: [{ key: 'env', op: 'notin', values: ['dev', 'test'] }] },
    { text: 'env in(prod)', selector: [{ key: 'env', op: 'in', values: ['prod'] }] },
    { text: 'team', selector: [{ key: 'team', op: 'exists' }] },
    { text: '!team', selector: [{ key: 'team', op: 'notexists' }] },
    { text: 'example.com/owner=a', selector: [{ key: 'example.com/owner', op: 'eq', value: 'a' }] },
    {
      text: ' team = payments , env in (prod,staging), !legacy,tier ',
      selector: [
        { key: 'team', op: 'eq', value: 'payments' },
        { key: 'env', op: 'in', values: ['prod', 'staging'] },
        { key: 'legacy', op: 'notexists' },
        { key: 'tier', op: 'exists' },
      ],
    },
  ])('$text', ({ text, selector }) => {
    expect(parseSelector(text)).toEqual({ ok: true, selector });
  });

  it.each([
    { text: 'team=payments,', problem: 'an empty requirement' },
    { text: ',team', problem: 'an empty requirement' },
    { text: 'team=a=b', problem: 'is not a requirement' },
    { text: 'team=pay ments', problem: 'is not a requirement' },
    { text: 'env in ()', problem: 'needs at least one value' },
    { text: 'env in (a,b', problem: 'unclosed' },
    { text: 'env in a,b)', problem: 'unbalanced' },
    { text: 'env in ((a))', problem: 'unbalanced' },
    { text: 'env inn (a)', problem: 'is not a requirement' },
    { text: 'env in (a b)', problem: 'is not a value' },
    { text: '!team=x', problem: 'is not a requirement' },
    { text: '-team', problem: 'the name must be' },
    { text: 'Team.Example/x=y', problem: 'the prefix' },
    { text: 'team=-x', problem: 'the value must be' },
    { text: `team=${'v'.repeat(64)}`, problem: 'the value must be' },
    { text: 'x'.repeat(SELECTOR_MAX_LENGTH + 1), problem: `at most ${SELECTOR_MAX_LENGTH} characters` },
    { text: Array.from({ length: SELECTOR_MAX_REQUIREMENTS + 1 }, (_, i) => `k${i}`).join(','), problem: `at most ${SELECTOR_MAX_REQUIREMENTS} requirements` },
  ])('refuses $text: $problem', ({ text, problem }) => {
    const parsed = parseSelector(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toContain(problem);
    expect(!parsed.ok && parsed.message.startsWith('selector: ')).toBe(true);
  });
});

describe('matching labels', () => {
  const payments = { team: 'payments', env: 'prod' };
  const search = { team: 'search', env: 'dev', legacy: '' };
  const bare = {};

  it.each([
    { text: '', matches: [true, true, true] },
    { text: 'team=payments', matches: [true, false, false] },
    { text: 'team==search', matches: [false, true, false] },
    { text: 'env!=dev', matches: [true, false, true] },
    { text: 'env in (prod,staging)', matches: [true, false, false] },
    { text: 'env notin (prod)', matches: [false, true, true] },
    { text: 'legacy', matches: [false, true, false] },
    { text: '!legacy', matches: [true, false, true] },
    { text: 'legacy=', matches: [false, true, false] },
    { text: 'team=payments,env!=dev', matches: [true, false, false] },
    { text: 'team,env!=prod', matches: [false, true, false] },
  ])('$text', ({ text, matches }) => {
    const parsed = parseSelector(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect([payments, search, bare].map((labels) => matchesSelector(parsed.selector, labels))).toEqual(matches);
  });
});

describe('the canonical text', () => {
  it.each(['team=payments', 'env!=dev', 'env in (prod,staging)', 'env notin (dev)', 'team', '!team', 'team=payments,!legacy,env='])(
    '%s parses back to itself',
    (text) => {
      const parsed = parseSelector(text);
      if (!parsed.ok) throw new Error(parsed.message);
      expect(formatSelector(parsed.selector)).toBe(text);
      expect(parseSelector(formatSelector(parsed.selector))).toEqual(parsed);
    },
  );
});
