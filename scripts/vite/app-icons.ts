import { crc32, deflateSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The brand mark's four tier colours, clockwise from twelve o'clock (as public/favicon.svg). */
const QUADRANTS: readonly (readonly [number, number, number])[] = [
  [0xa5, 0x00, 0x26],
  [0xf4, 0x6d, 0x43],
  [0xfe, 0xe0, 0x90],
  [0x45, 0x75, 0xb4],
];
/** The app bar's dark text colour: the maskable icon's full-bleed background. */
const MASK_BACKGROUND = [0x1b, 0x1f, 0x24] as const;

/** The icons the web app manifest names (vite.config.ts), written into the build's root. */
export const APP_ICONS = [
  { file: 'icon-192.png', size: 192, purpose: 'any' },
  { file: 'icon-512.png', size: 512, purpose: 'any' },
  // Launchers crop a maskable icon to a shape inside its middle 80 %: the mark stays inside.
  { file: 'icon-maskable-512.png', size: 512, purpose: 'maskable' },
] as const;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** One RGBA pixel of the mark: a disc in four quadrants, on transparency or the mask colour. */
function pixel(x: number, y: number, size: number, maskable: boolean): number[] {
  const centre = size / 2;
  const radius = size * (maskable ? 0.38 : 0.47);
  const dx = x + 0.5 - centre;
  const dy = y + 0.5 - centre;
  if (dx * dx + dy * dy > radius * radius) {
    return maskable ? [...MASK_BACKGROUND, 255] : [0, 0, 0, 0];
  }
  const quadrant = dy < 0 ? (dx >= 0 ? 0 : 3) : dx >= 0 ? 1 : 2;
  return [...(QUADRANTS[quadrant] ?? QUADRANTS[0]!), 255];
}

/** A PNG of the mark, encoded here (8-bit RGBA, one filter byte per row): no image library. */
export function iconPng(size: number, maskable: boolean): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < size; y += 1) {
    rows.push(0);
    for (let x = 0; x < size; x += 1) rows.push(...pixel(x, y, size, maskable));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes the manifest's PNG icons into the build (public/favicon.svg is the SVG one). */
export function appIcons(): Plugin {
  return {
    name: 'app-icons',
    apply: 'build',
    generateBundle() {
      for (const icon of APP_ICONS) {
        this.emitFile({
          type: 'asset',
          fileName: icon.file,
          source: iconPng(icon.size, icon.purpose === 'maskable'),
        });
      }
    },
  };
}
