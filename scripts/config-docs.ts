/**
 * `npm run docs:config`: writes docs/configuration.md from the configuration
 * schema (lib/config/reference.ts). `--check`: exit 1 when the committed page
 * differs (lib/config/reference.unit.test.ts checks the same in the unit tier).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configurationReference } from '../lib/config/reference';

const file = path.resolve(__dirname, '../docs/configuration.md');
const page = configurationReference();
if (process.argv.includes('--check')) {
  const committed = readFileSync(file, 'utf8');
  if (committed !== page) {
    console.error('docs/configuration.md is stale: run npm run docs:config');
    process.exit(1);
  }
  console.log('docs/configuration.md is up to date');
} else {
  writeFileSync(file, page);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
