import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/server/services/history/history-answers.js';

/*
 * /api/events' cursor (history-answers.ts): what the BFF hands out as next_cursor reads back as
 * the same keyset position, and nothing else reads as one (a 400, not a query from a made-up
 * position). Pure: Stryker runs it per mutant in milliseconds.
 */
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('the event cursor', () => {
  it('reads back what it wrote, to the millisecond and the id', () => {
    const ts = new Date('2026-03-01T10:00:00.123Z');
    const cursor = encodeCursor(ts, 987_654_321_012_345);
    expect(cursor).toBe(b64('2026-03-01T10:00:00.123Z|987654321012345'));
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ ts, id: 987_654_321_012_345 });
    expect(decodeCursor(b64('1970-01-01T00:00:00.000Z|0'))).toEqual({ ts: new Date(0), id: 0 });
  });

  it.each([
    ['empty', ''],
    ['longer than 80 characters', 'A'.repeat(81)],
    ['standard base64 characters', `${b64('2026-03-01T10:00:00.000Z|12')}+/`],
    ['padding', `${b64('2026-03-01T10:00:00.000Z|1')}=`],
    // Node's base64url decoder skips what is not of its alphabet: the check must be anchored.
    ['a character outside base64url before it', `.${b64('2026-03-01T10:00:00.000Z|12')}`],
    ['a space before it', ` ${b64('2026-03-01T10:00:00.000Z|12')}`],
    ['text before the time', b64('x2026-03-01T10:00:00.000Z|12')],
    ['text after the id', b64('2026-03-01T10:00:00.000Z|12x')],
    ['no id', b64('2026-03-01T10:00:00.000Z|')],
    ['an id of 16 digits', b64('2026-03-01T10:00:00.000Z|1234567890123456')],
    ['a time without milliseconds', b64('2026-03-01T10:00:00Z|12')],
    ['a time with an offset', b64('2026-03-01T10:00:00.000+01:00|12')],
    ['no separator', b64('2026-03-01T10:00:00.000Z12')],
    ['a time that is not one', b64('2026-13-45T10:00:00.000Z|12')],
    ['only the id', b64('|12')],
  ])('refuses %s', (_what, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });

  it('takes an 80-character cursor and a one-digit id', () => {
    const ts = new Date('2026-03-01T10:00:00.000Z');
    expect(decodeCursor(b64('2026-03-01T10:00:00.000Z|7'))).toEqual({ ts, id: 7 });
    const longest = encodeCursor(ts, 123_456_789_012_345);
    expect(longest.length).toBeLessThanOrEqual(80);
    expect(decodeCursor(longest)?.id).toBe(123_456_789_012_345);
  });
});
