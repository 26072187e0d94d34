// A package's commands (packageDispatch): only those named, each program through the package's own loader.
import { describe, expect, it } from 'vitest';
import { COMMANDS, packageDispatch } from './main';

describe('packageDispatch', () => {
  it('offers only the commands named, and imports each program through the loader given for it', async () => {
    const loaded: string[] = [];
    const dispatch = packageDispatch(['run', 'migrate'], { 'db/migrate-cli.ts': async () => loaded.push('migrate') });
    expect(Object.keys(dispatch.commands)).toEqual(['run', 'migrate']);
    expect(dispatch.commands.run).toBe(COMMANDS.run);
    await dispatch.loadProgram('db/migrate-cli.ts');
    expect(loaded).toEqual(['migrate']);
  });

  it('refuses, naming it, a program named without a loader, or a command that does not exist', () => {
    expect(() => packageDispatch(['run', 'start'], {})).toThrow('packageDispatch: no loader for scripts/serve.ts');
    expect(() => packageDispatch(['run', 'strat'], {})).toThrow('packageDispatch: no command "strat"');
  });
});
