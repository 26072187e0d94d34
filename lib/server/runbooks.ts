/**
 * The runbooks: one markdown file per alert rule in docs/runbooks, served at
 * /runbooks/{alertname} (each alert's `runbook_url`).
 *
 * Guarantees: only names of rules in the catalogue are read (anything else
 * is null, never a path), from the repository's docs/runbooks next to the
 * server's working directory; the text is returned as written (the page
 * renders it with react-markdown, which ignores raw HTML).
 */
import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlertName } from '../alerts';

const RUNBOOK_DIR = path.join(process.cwd(), 'docs', 'runbooks');

export async function readRunbook(name: string): Promise<{ rule: string; markdown: string } | null> {
  if (!isAlertName(name)) return null;
  try {
    return { rule: name, markdown: await readFile(path.join(RUNBOOK_DIR, `${name}.md`), 'utf8') };
  } catch {
    return null;
  }
}
