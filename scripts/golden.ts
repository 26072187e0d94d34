/**
 * Golden runner: `npm run golden -- FILE`.
 *
 * Reads any version-1 golden file, runs every case through the real
 * projection (lib/status), prints `PASS name` / `FAIL name: expected … got …`
 * per case, then `N passed, N failed`.
 * Exit codes: 0 all passed · 1 any case failed · 2 missing/unreadable/invalid file.
 * Judges nothing itself: mapping and comparison live in lib/status/golden.
 */
import { readFileSync } from 'node:fs';
import { goldenLine, parseGoldenFile, runGoldenCase } from '../lib/status/golden';

function usageError(message: string): never {
  process.stderr.write(`golden: ${message}\n`);
  process.exit(2);
}

function main(argv: readonly string[]): number {
  const args = argv.filter((a) => a !== '--');
  const file = args[0];
  if (file === undefined || args.length > 1) usageError('usage: npm run golden -- FILE (one golden file, format version 1)');

  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    usageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    usageError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parseGoldenFile(json);
  if (parsed.kind === 'invalid') {
    usageError(`${file} is not a version-1 golden file:\n  ${parsed.problems.join('\n  ')}`);
  }

  let passed = 0;
  let failed = 0;
  for (const c of parsed.cases) {
    const result = runGoldenCase(c);
    if (result.kind === 'pass') passed += 1;
    else failed += 1;
    process.stdout.write(`${goldenLine(result)}\n`);
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
