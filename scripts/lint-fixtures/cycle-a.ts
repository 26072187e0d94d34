// Lint fixture (ignored by `npm run lint`): half of a deliberate import cycle.
import { b } from './cycle-b';

export const a = (): number => b() + 1;
