/** A raw message's Subject header, unfolded and with its RFC 2047 Q-encoded words decoded. */
export function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_m, text: string) =>
      Buffer.from(
        text
          .replace(/_/g, ' ')
          .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8'),
    )
    .replace(/\r?\n[ \t]/g, ' ');
}
