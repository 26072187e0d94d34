/**
 * `leaseboard` as the @leaseboard/client package runs it: the commands that need no dashboard
 * (`run`, `scheduler`, `migrate`). scripts/build-packages.ts bundles this entry into the package's
 * dist/cli.cjs; tracing is the `leaseboard` package's (the build leaves lib/telemetry out).
 */
import { main, packageDispatch } from '../../lib/cli/main';

void main(process.argv.slice(2), packageDispatch(['run', 'scheduler', 'migrate'], { 'db/migrate-cli.ts': () => import('../../db/migrate-cli') }));
