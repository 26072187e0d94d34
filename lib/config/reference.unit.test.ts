/**
 * docs/configuration.md is generated from the schema: this fails when the
 * committed page is stale (a setting added, renamed or changed without
 * `npm run docs:config`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configurationReference } from './reference';
import { SETTINGS } from './settings';

const committed = readFileSync(path.resolve(__dirname, '../../docs/configuration.md'), 'utf8');

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` generates from the schema today', () => {
    expect(committed, 'docs/configuration.md is stale: run npm run docs:config').toBe(configurationReference());
  });

  it('names every setting, its file key and its default', () => {
    for (const spec of Object.values(SETTINGS)) {
      expect(committed).toContain(`\`${spec.env}\``);
      expect(committed).toContain(`file: \`${spec.key}\``);
    }
    expect(committed).toMatch(/\| `LEASEBOARD_READ_TIMEOUT`<br>file: `read_timeout` \| duration \| `2s` \| 100ms–30s \|/);
  });
});
