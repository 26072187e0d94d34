/**
 * `leaseboard` as the `leaseboard` package runs it: the dashboard (`start`, from the build the
 * package ships) and every command that needs no repository (`migrate`, `run`, `scheduler`,
 * `alerts`, `intent`, `maintenance`, `tokens`, `status`). scripts/build-packages.ts bundles this entry beside Next's standalone output,
 * whose node_modules give it `next`, `pg` and the other packages the dashboard loads at run time.
 */
import path from 'node:path';
import { main, packageDispatch } from '../../lib/cli/main';
import { applyShippedBuild } from './shipped-build';

/** The app beside this bundle (app/bin/cli.cjs): Next's standalone output, and where a default file is looked for. */
const APP = path.resolve(__dirname, '..');

void main(
  process.argv.slice(2),
  packageDispatch(['start', 'config', 'migrate', 'run', 'scheduler', 'alerts', 'intent', 'maintenance', 'tokens', 'status'], {
    // Keyed by the repository's programs (lib/cli/main.ts COMMANDS); the package runs the same commands from lib.
    'scripts/serve.ts': () => {
      applyShippedBuild(__dirname);
      return import('../../lib/cli/start').then(({ serve }) => serve(APP));
    },
    'db/migrate-cli.ts': () => import('../../db/migrate-cli'),
    'scripts/alerts.ts': () =>
      import('../../lib/cli/alerts').then(async ({ alerts }) => {
        process.exitCode = await alerts(process.argv.slice(2), APP);
      }),
    'scripts/intent.ts': () => import('../../lib/cli/intent').then(({ intent }) => intent(process.argv.slice(2))),
  }),
);
