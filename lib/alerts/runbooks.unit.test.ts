/**
 * Runbooks: one markdown file per rule under docs/runbooks (served at
 * /runbooks/{alertname}, linked from runbook_url), each saying what the
 * alert means, what to check first, how to act and how to silence it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALERT_NAMES } from './catalogue';

const dir = path.resolve(__dirname, '..', '..', 'docs', 'runbooks');

describe('docs/runbooks', () => {
  it('has exactly one file per rule', () => {
    expect(readdirSync(dir).sort()).toEqual(ALERT_NAMES.map((n) => `${n}.md`).sort());
  });

  it.each(ALERT_NAMES)('%s: titled by its name, with the four sections', (name) => {
    const text = readFileSync(path.join(dir, `${name}.md`), 'utf8');
    expect(text.split('\n')[0]).toBe(`# ${name}`);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(sections).toEqual(['What it means', expect.stringMatching(/^First checks/), 'How to act', 'How to silence']);
  });
});
