import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';

/*
 * DASHBOARD_TOKEN must be random: made-up tokens (sequences, repeated patterns, keyboard rows,
 * words) are refused at start-up with one line, even when long and varied enough to pass a
 * character count; what `openssl rand` prints always passes.
 */
const MADE_UP = [
  ['a repeated character', 'a'.repeat(40)],
  ['digits then letters in order', '0123456789abcdefghijklmnopqrstuvwxyz'],
  ['the alphabet, both cases', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL'],
  ['the alphabet backwards', 'zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQ'],
  ['every other letter', 'acegikmoqsuwy13579bdfhjlnprtvxz02468'],
  ['hex digits twice', '0123456789abcdef0123456789abcdef'],
  ['a varied 16-character pattern twice', 'Kq8#Lw2$Zr5!Np7&Kq8#Lw2$Zr5!Np7&'],
  ['keyboard rows', 'qwertyuiopasdfghjklzxcvbnmQWERTYUIOP'],
  ['words with digits and symbols', 'Password1!Welcome2@Dragon3#Monkey4$'],
  ['words in leetspeak', 'P4ssw0rd!S3cr3t#D4shb0ard$Adm1n%G1obal'],
  ['a passphrase repeated', 'correcthorsebatterystaplecorrecthorse'],
  ['a word repeated', 'passwordpasswordpasswordpassword'],
] as const;

describe('DASHBOARD_TOKEN', () => {
  it.each(MADE_UP)('refuses %s with one config line', (_what, token) => {
    let error: unknown;
    try {
      parseConfig({ DASHBOARD_TOKEN: token });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^DASHBOARD_TOKEN is too easy to guess \(.+\): make one with `openssl rand -base64 32`$/,
    );
    expect(message).not.toContain('\n');
    // The refused value is a secret too: never repeated in the error.
    expect(message).not.toContain(token);
  });

  it('keeps the 32-character minimum', () => {
    const short = randomBytes(23).toString('base64').slice(0, 31);
    expect(() => parseConfig({ DASHBOARD_TOKEN: short })).toThrow(/it has 31 characters/);
  });

  it('accepts what openssl rand prints, every time', () => {
    for (let i = 0; i < 500; i++) {
      for (const token of [randomBytes(32).toString('base64'), randomBytes(32).toString('hex')]) {
        expect(parseConfig({ DASHBOARD_TOKEN: token }).access.dashboardToken?.reveal()).toBe(token);
      }
    }
  });
});
