// `npm start`, `npm run dev`, `leaseboard start` from the repository: the server (lib/cli/start.ts) on this repository's build.
import path from 'node:path';
import { serve } from '../lib/cli/start';

void serve(path.resolve(__dirname, '..'));
