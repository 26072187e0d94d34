#!/usr/bin/env node
// `leaseboard COMMAND [options…]`: the package's one command (lib/cli/main.ts). The sources are
// TypeScript, run through tsx (a dependency): its loader — what `node --import tsx` loads — is
// registered first, for require and import alike.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS bin: tsx's loader must be in place before the TypeScript entry loads
import('tsx').then(() => require('../lib/cli/main.ts').main(process.argv.slice(2)));
