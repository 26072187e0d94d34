// `npm run alerts -- SUBCOMMAND`, `leaseboard alerts` from the repository: lib/cli/alerts.ts, its golden file from this repository.
import path from 'node:path';
import { alerts } from '../lib/cli/alerts';

void alerts(process.argv.slice(2), path.resolve(__dirname, '..')).then((code) => {
  process.exitCode = code;
});
