/**
 * `npm run favicons`: writes public/ from the one source of the icons
 * (lib/client/health-display.ts draws the per-health favicons; the brand mark
 * is below) — public/favicon.svg, public/favicons/<health>.svg for every
 * summary a page can show (the worst-health set), the PNG sizes an install or
 * a home screen asks for, and public/manifest.webmanifest.
 * scripts/favicons.unit.test.ts fails when public/ differs from what this
 * writes, so edit the source and re-run it; never edit public/ by hand.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FAVICON_SUMMARIES, faviconName, faviconSvg } from '../lib/client/health-display';

export const PUBLIC = path.resolve(__dirname, '..', 'public');

/** The brand mark: a board with one row held (green) under a lease bar. */
export const BRAND_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f2937"/>' +
  '<rect x="7" y="7" width="18" height="4" rx="2" fill="#e5e7eb"/><rect x="7" y="14" width="12" height="4" rx="2" fill="#9ca3af"/>' +
  '<rect x="7" y="21" width="12" height="4" rx="2" fill="#9ca3af"/><circle cx="23.5" cy="23" r="3.5" fill="#1f8f4e"/></svg>';

/** PNG renditions of the brand mark: name → edge in px. */
export const PNG_SIZES: Readonly<Record<string, number>> = { 'icon-192.png': 192, 'icon-512.png': 512, 'apple-touch-icon.png': 180 };

export function manifest(): string {
  const body = {
    name: 'Leaseboard',
    short_name: 'Leaseboard',
    description: 'Who holds each scheduler lease, whether the holder is getting work done, and where nobody can know.',
    // Relative to the manifest's own URL, so the app installs under any base path.
    start_url: './',
    scope: './',
    display: 'standalone',
    background_color: '#f6f7f9',
    theme_color: '#f6f7f9',
    icons: [
      { src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ...Object.entries(PNG_SIZES)
        .filter(([name]) => name.startsWith('icon-'))
        .map(([name, edge]) => ({ src: name, sizes: `${edge}x${edge}`, type: 'image/png' })),
    ],
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** The text files of public/ (path relative to public/ → content). */
export function textFiles(): Record<string, string> {
  const files: Record<string, string> = { 'favicon.svg': `${BRAND_SVG}\n`, 'manifest.webmanifest': manifest() };
  for (const summary of FAVICON_SUMMARIES) files[`favicons/${faviconName(summary)}.svg`] = `${faviconSvg(summary)}\n`;
  return files;
}

async function main(): Promise<void> {
  mkdirSync(path.join(PUBLIC, 'favicons'), { recursive: true });
  for (const [name, content] of Object.entries(textFiles())) writeFileSync(path.join(PUBLIC, name), content);
  // sharp comes with next (its image optimiser); only this script renders PNGs.
  const { default: sharp } = await import('sharp');
  for (const [name, edge] of Object.entries(PNG_SIZES)) {
    await sharp(Buffer.from(BRAND_SVG), { density: Math.ceil((72 * edge) / 32) })
      .resize(edge, edge)
      .png()
      .toFile(path.join(PUBLIC, name));
  }
  console.log(`favicons: wrote ${Object.keys(textFiles()).length} text files and ${Object.keys(PNG_SIZES).length} PNGs to public/`);
}

if (require.main === module) void main();
