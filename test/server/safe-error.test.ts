import { describe, expect, it } from 'vitest';
import { errorWords, safeError } from '../../src/server/safe-error.js';

/* Anything thrown, in words for the terminal and safe for the log (issue 18, points 2 and 4). */

const SECRET = `whsec_${'QUJD'.repeat(8)}`;

/** What drizzle throws for a failed query: parameters in the message, stack and `params`. */
function failedQuery(): Error {
  const cause = Object.assign(new Error('new row violates check constraint "x"'), {
    code: '23514',
    detail: `Failing row contains (1, Sahel, ${SECRET}).`,
  });
  const error = new Error(
    `Failed query: insert into "w" values ($1, $2)\nparams: Sahel,${SECRET}`,
    {
      cause,
    },
  );
  return Object.assign(error, {
    query: 'insert into "w" values ($1, $2)',
    params: ['Sahel', SECRET],
  });
}

describe('errorWords', () => {
  it.each([
    ['an Error', new Error('disk on fire'), 'disk on fire'],
    ['a string', 'plain words', 'plain words'],
    [
      "PGlite's ErrnoError (an object with a number, no message)",
      { name: 'ErrnoError', errno: 51 },
      'the file system refused an operation of the embedded store: no space left on the disk (ENOSPC)',
    ],
    [
      'an unknown errno',
      { name: 'ErrnoError', errno: 999 },
      'the file system refused an operation of the embedded store: error number 999',
    ],
    ['a plain object', { reason: 'odd' }, '{"reason":"odd"}'],
    ['nothing at all', undefined, 'an unknown error (it carried no description)'],
  ])('%s is one line of words', (_name, thrown, words) => {
    expect(errorWords(thrown)).toBe(words);
  });

  it('names the cause and never the parameters', () => {
    const words = errorWords(failedQuery());
    expect(words).toBe(
      'Failed query: insert into "w" values ($1, $2): new row violates check constraint "x" (23514)',
    );
  });
});

describe('safeError', () => {
  it('keeps what says what failed and drops values, at every depth', () => {
    const text = JSON.stringify(safeError(failedQuery()));
    expect(text).toContain('check constraint');
    expect(text).toContain('23514');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('Failing row');
    expect(text).not.toContain('params');
  });

  it('blanks credentials of a known shape in any message', () => {
    const error = new Error('connect failed for postgres://dash:hunter2@db:5432/risk');
    expect(safeError(error).message).toBe(
      'connect failed for postgres://dash:[redacted]@db:5432/risk',
    );
  });
});
