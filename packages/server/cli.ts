/**
 * `leaseboard` as the `leaseboard` package runs it: the dashboard (`start`, from the build the
 * package ships) and every command that needs no repository (`migrate`, `run`, `scheduler`,
 * `alerts`, `intent`, `status`). scripts/build-packages.ts bundles this entry beside Next's standalone output,
 * whose node_modules give it `next`, `pg` and the other packages the dashboard loads at run time.
 */
import { main, packageDispatch } from '../../lib/cli/main';
import { applyShippedBuild } from './shipped-build';

void main(
  process.argv.slice(2),
  packageDispatch(['start', 'config', 'migrate', 'run', 'scheduler', 'alerts', 'intent', 'status'], {
    'scripts/serve.ts': () => {
      applyShippedBuild(__dirname);
      return import('../../scripts/serve');
    },
    'db/migrate-cli.ts': () => import('../../db/migrate-cli'),
    'scripts/alerts.ts': () => import('../../scripts/alerts'),
    'scripts/intent.ts': () => import('../../scripts/intent'),
  }),
);
