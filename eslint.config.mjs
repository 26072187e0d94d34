// ESLint flat config: Next.js core-web-vitals + TypeScript rules.
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  // Playwright fixtures call their `use` callback, which is not React's `use`.
  { files: ['e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
  { ignores: ['bench-results/**', '.next/**', '.next-e2e/**', 'test-reports/**', 'node_modules/**', '.data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
];

export default config;
