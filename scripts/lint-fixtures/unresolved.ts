// Lint fixture (ignored by `npm run lint`): an import of the project that resolves nowhere.
// @ts-expect-error -- the module is missing on purpose: the cycle check must fail on it, not drop the edge
import type { Missing } from '@/lib/no-such-module';

export type Kept = Missing;
