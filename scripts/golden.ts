/**
 * Golden runner: `npm run golden -- FILE`.
 *
 * Reads a golden file of either format and tells them apart by `format`:
 * - `"format": "leaseboard-alert-golden/1"` → every case through the real
 *   alert evaluator (lib/alerts);
 * - no `format` (`"version": 1`) → every case through the real projection
 *   (lib/status).
 * Prints `PASS name` / `FAIL name: expected … got …` per case, then
 * `N passed, N failed`.
 * Exit codes: 0 all passed · 1 any case failed · 2 missing/unreadable/invalid file.
 * Judges nothing itself: mapping and comparison live in lib/status/golden and
 * lib/alerts/golden.
 */
import { readFileSync } from 'node:fs';
import { ALERT_GOLDEN_FORMAT, alertGoldenLine, parseAlertGoldenFile, runAlertGoldenCase } from '../lib/alerts/golden';
import { goldenLine, parseGoldenFile, runGoldenCase } from '../lib/status/golden';

function usageError(message: string): never {
  process.stderr.write(`golden: ${message}\n`);
  process.exit(2);
}

/** One PASS/FAIL line per case; `pass` tells the runner how to count it. */
type Run = { pass: boolean; line: string }[];

function runFile(file: string, json: unknown): Run {
  const format = typeof json === 'object' && json !== null && 'format' in json ? (json as { format: unknown }).format : undefined;
  if (format === undefined) {
    const parsed = parseGoldenFile(json);
    if (parsed.kind === 'invalid') usageError(`${file} is not a version-1 golden file:\n  ${parsed.problems.join('\n  ')}`);
    return parsed.cases.map((c) => {
      const result = runGoldenCase(c);
      return { pass: result.kind === 'pass', line: goldenLine(result) };
    });
  }
  if (format !== ALERT_GOLDEN_FORMAT)
    usageError(`${file} has format ${JSON.stringify(format)}; known: ${ALERT_GOLDEN_FORMAT} (or none for projection cases, version 1)`);
  const parsed = parseAlertGoldenFile(json);
  if (parsed.kind === 'invalid') usageError(`${file} is not a ${ALERT_GOLDEN_FORMAT} file:\n  ${parsed.problems.join('\n  ')}`);
  return parsed.cases.map((c) => {
    const result = runAlertGoldenCase(c);
    return { pass: result.kind === 'pass', line: alertGoldenLine(result) };
  });
}

function main(argv: readonly string[]): number {
  const args = argv.filter((a) => a !== '--');
  const file = args[0];
  if (file === undefined || args.length > 1)
    usageError(`usage: npm run golden -- FILE (one golden file: projection cases version 1, or ${ALERT_GOLDEN_FORMAT})`);

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

  let passed = 0;
  let failed = 0;
  for (const { pass, line } of runFile(file, json)) {
    if (pass) passed += 1;
    else failed += 1;
    process.stdout.write(`${line}\n`);
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
