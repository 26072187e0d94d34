// Lint fixture (ignored by `npm run lint`): the other half of the cycle.
import { a } from './cycle-a';

export const b = (): number => (typeof a === 'function' ? 1 : 0);
