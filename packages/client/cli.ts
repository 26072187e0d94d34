/**
 * `leaseboard` as the @leaseboard/client package runs it: the commands that need no dashboard
 * (`run`, `scheduler`, `migrate`). scripts/build-packages.ts bundles this entry into the package's
 * dist/cli.cjs; tracing is the `leaseboard` package's (the build leaves lib/telemetry out).
 *
 * Both packages name their command `leaseboard`, and where both are installed npm links only one.
 * The `leaseboard` package's command offers all of these and `start` besides, so when it is
 * installed beside this one, this one hands the command line over to it.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { main, packageDispatch } from '../../lib/cli/main';

function serverCommand(): string | null {
  try {
    return createRequire(__filename).resolve('leaseboard/app/bin/cli.cjs');
  } catch {
    return null;
  }
}

const server = serverCommand();
if (server !== null) void import(pathToFileURL(server).href);
else
  void main(process.argv.slice(2), packageDispatch(['run', 'scheduler', 'migrate', 'config'], { 'db/migrate-cli.ts': () => import('../../db/migrate-cli') }));
