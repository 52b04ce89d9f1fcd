import { vi } from 'vitest';

/**
 * The files a page saves (a CSV, a JSON) in the order it saves them: the browser's download
 * path (an object URL and a click on a link) is stubbed, and each file's Blob kept.
 */
export function catchSavedBlobs(): Blob[] {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:test';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  return blobs;
}
