import { formatUtcDateTime } from '../lib/format';
import { t } from '../lib/i18n';

/** Text as a CSS string literal: quotes and backslashes escaped, line breaks dropped. */
function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&').replace(/[\r\n]+/g, ' ')}"`;
}

/**
 * The data's batch time in the bottom-left margin of every printed page (print.css puts the page
 * numbers on the right): on paper, the time the numbers are from, never the time of printing or
 * an "9 h ago" that is wrong the next morning. A `<style>` of its own because an @page margin
 * box reads no custom property or attribute of the document.
 */
export function PrintedPages({ asOf }: { asOf: string | null | undefined }) {
  if (!asOf) return null;
  const label = t('problems.dataOfBatch', { date: formatUtcDateTime(asOf) });
  return <style>{`@page { @bottom-left { content: ${cssString(label)}; } }`}</style>;
}
