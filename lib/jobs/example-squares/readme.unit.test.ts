import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const FILE = 'lib/jobs/example-squares/job.ts';

// The README's "Run your own job under a lease" shows this very file, whole.
describe('the README example', () => {
  it('is exactly lib/jobs/example-squares/job.ts, at most about 40 lines', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = new RegExp(`<!-- example: ${FILE} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\`\\n`).exec(readme);
    expect(block, 'the README names the example file above its code block').not.toBeNull();
    const source = readFileSync(path.join(ROOT, FILE), 'utf8');
    expect(block![1]).toBe(source);
    expect(source.trimEnd().split('\n').length).toBeLessThanOrEqual(40);
  });
});
