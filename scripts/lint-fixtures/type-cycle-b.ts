// Lint fixture (ignored by `npm run lint`): the other half of the cycle of types.
import type { A } from './type-cycle-a';

export interface B {
  previous: A | null;
}
