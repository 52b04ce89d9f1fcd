import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './browser.js';

/**
 * Prints the page to an A4 PDF as Chromium does for a person (test-results/print-<name>.pdf, its
 * first page as a PNG beside it) and reads its text back with poppler's pdftotext: the whole
 * text, and each sheet's.
 */
export async function printedPdf(
  page: Page,
  name: string,
  format: 'A4' | 'Letter' = 'A4',
): Promise<{ text: string; pages: string[] }> {
  const pdf = resolve(SCREENSHOT_DIR, `print-${name}.pdf`);
  await page.pdf({ path: pdf, format, printBackground: true });
  execFileSync('/usr/bin/pdftoppm', [
    '-png',
    '-r',
    '60',
    '-f',
    '1',
    '-l',
    '3',
    pdf,
    pdf.replace(/\.pdf$/, ''),
  ]);
  const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  return { text, pages: text.split('\f').filter((sheet) => sheet.trim() !== '') };
}
