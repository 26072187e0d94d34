// Lint fixture (ignored by `npm run lint`): half of a deliberate cycle of types, through the `@/` alias.
import type { B } from '@/scripts/lint-fixtures/type-cycle-b';

export interface A {
  next: B | null;
}
