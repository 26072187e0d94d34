// public/ is what scripts/favicons.ts writes from the one icon source: every
// worst-health favicon the page can show exists as a file identical to the
// data URL the page sets, the manifest is current, and the PNGs have their
// declared sizes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAVICON_SUMMARIES, faviconDataUrl, faviconName } from '../lib/client/health-display';
import { PNG_SIZES, PUBLIC, textFiles } from './favicons';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('public/ favicons and manifest', () => {
  it.each(Object.entries(textFiles()))('public/%s is current (run `npm run favicons` after changing the source)', (name, content) => {
    expect(readFileSync(path.join(PUBLIC, name), 'utf8')).toBe(content);
  });

  it('holds one favicon per summary, the same drawing the page sets as a data URL', () => {
    expect(FAVICON_SUMMARIES.map(faviconName)).toEqual([
      'stalled',
      'no-leader',
      'unknown',
      'disabled',
      'idle',
      'progressing',
      'not-observed',
      'store-unreadable',
      'empty',
    ]);
    for (const summary of FAVICON_SUMMARIES) {
      const file = readFileSync(path.join(PUBLIC, 'favicons', `${faviconName(summary)}.svg`), 'utf8').trim();
      expect(`data:image/svg+xml,${encodeURIComponent(file)}`).toBe(faviconDataUrl(summary));
    }
  });

  it.each(Object.entries(PNG_SIZES))('public/%s is %i px square', (name, edge) => {
    expect(pngSize(path.join(PUBLIC, name))).toEqual({ width: edge, height: edge });
  });

  it('the manifest names only files that exist', () => {
    const manifest = JSON.parse(readFileSync(path.join(PUBLIC, 'manifest.webmanifest'), 'utf8')) as { icons: { src: string }[]; start_url: string };
    expect(manifest.start_url).toBe('./');
    for (const icon of manifest.icons) expect(() => readFileSync(path.join(PUBLIC, icon.src))).not.toThrow();
  });
});
