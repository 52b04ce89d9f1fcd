/**
 * Leaflet writes attributions as HTML. The tile attribution is operator configuration, but it
 * is still escaped: it is shown as text, so nothing in it can become markup or script.
 */
export function plainAttribution(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
