// `npm run intent -- …`, `leaseboard intent` from the repository: lib/cli/intent.ts.
import { intent } from '../lib/cli/intent';

void intent(process.argv.slice(2));
