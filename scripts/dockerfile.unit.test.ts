/**
 * The Dockerfile is not built here (no Docker daemon, no registry), so its runtime stage is read
 * and compared with what scripts/build-image.ts builds and CI checks: the same entrypoint, default
 * command, user, working directory, environment, port and labels. A change to one without the
 * other fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMAGE, IMAGE_LABELS } from './build-image';

const dockerfile = readFileSync(path.resolve(__dirname, '../Dockerfile'), 'utf8');
/** The last stage: what runs. Continuation lines joined. */
const runtime = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split(/^FROM /m)
  .at(-1)!;

function instruction(name: string): string[] {
  return [...runtime.matchAll(new RegExp(`^${name} (.+)$`, 'gm'))].map((match) => match[1]!.trim());
}

describe('Dockerfile, kept in step with build:image', () => {
  it('the entrypoint and default command', () => {
    expect(instruction('ENTRYPOINT').map((json) => JSON.parse(json) as unknown)).toEqual([[IMAGE.node, IMAGE.bin]]);
    expect(instruction('CMD').map((json) => JSON.parse(json) as unknown)).toEqual([['start']]);
  });

  it('the user, working directory and port', () => {
    expect(instruction('USER')).toEqual([`${IMAGE.uid}:${IMAGE.uid}`]);
    expect(instruction('WORKDIR')).toEqual([IMAGE.home]);
    expect(instruction('EXPOSE')).toEqual([String(IMAGE.port)]);
    expect(instruction('COPY').join('\n')).toContain(` ${IMAGE.home}`);
  });

  it('the environment and the labels', () => {
    const env = instruction('ENV').join(' ');
    for (const [key, value] of Object.entries(IMAGE.env)) expect(env).toContain(`${key}=${value}`);
    const labels = instruction('LABEL').join(' ');
    for (const [key, value] of Object.entries(IMAGE_LABELS)) expect(labels).toContain(`${key}="${value}"`);
  });
});
