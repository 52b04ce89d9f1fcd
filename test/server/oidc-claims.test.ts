import { describe, expect, it } from 'vitest';
import {
  claimAt,
  claimValues,
  emailRefusal,
  emailVerified,
  mergeClaims,
  personOf,
  SubjectMismatch,
} from '../../src/server/services/identity/oidc-claims.js';
import { hasControlOrBidi, plainText } from '../../src/server/services/identity/plain-text.js';
import { roleMapper } from '../../src/server/principal.js';

/*
 * Claims as providers send them (issue 30): merged from the ID token and UserInfo, roles at a
 * path, as a list or one separated string; and outside text made plain before anyone keeps it.
 */
const ROLES = { editors: ['risk-editors', 'Risk Editors'], admins: ['risk-admins'] };

describe('claims', () => {
  it('merge UserInfo over the ID token, keep the ID token’s sub, drop protocol claims', () => {
    const merged = mergeClaims(
      { sub: 'alice', iss: 'https://idp', aud: 'dashboard', nonce: 'n', name: 'old' },
      { sub: 'alice', name: 'Alice Analyst', email: 'alice@example.com' },
    );
    expect(merged).toEqual({ sub: 'alice', name: 'Alice Analyst', email: 'alice@example.com' });
  });

  it('refuse a UserInfo answer for another subject (OpenID Connect Core §5.3.2)', () => {
    expect(() => mergeClaims({ sub: 'alice' }, { sub: 'mallory' })).toThrow(SubjectMismatch);
    expect(() => mergeClaims({ sub: 'alice' }, { name: 'no sub' })).toThrow(SubjectMismatch);
  });

  it('find a role claim by name, a namespaced name with dots, or a dotted path', () => {
    const claims = {
      groups: ['a'],
      'https://example.com/roles': ['b'],
      realm_access: { roles: ['c'] },
      resource_access: { dashboard: { roles: ['d'] } },
    };
    expect(claimAt(claims, 'groups')).toEqual(['a']);
    expect(claimAt(claims, 'https://example.com/roles')).toEqual(['b']);
    expect(claimAt(claims, 'realm_access.roles')).toEqual(['c']);
    expect(claimAt(claims, 'resource_access.dashboard.roles')).toEqual(['d']);
    expect(claimAt(claims, 'realm_access.nothing.roles')).toBeUndefined();
    expect(claimAt(claims, 'groups.length')).toBeUndefined();
  });

  it.each([
    [
      ['risk-editors', 'staff', 3],
      ['risk-editors', 'staff'],
    ],
    ['risk-editors staff', ['risk-editors staff', 'risk-editors', 'staff']],
    ['staff, risk-editors', ['staff, risk-editors', 'staff', 'risk-editors']],
    ['Risk Editors', ['Risk Editors', 'Risk', 'Editors']],
    [{ roles: ['x'] }, []],
  ])('take values of %o as %o', (value, values) => {
    expect(claimValues(value)).toEqual(values);
  });

  it('map values to the highest role; a space-separated string counts', () => {
    const role = (groups: unknown) =>
      personOf({ sub: 's', groups }, 'groups', roleMapper(ROLES)).role;
    expect(role('staff risk-admins')).toBe('admin');
    expect(role('staff,risk-editors')).toBe('editor');
    expect(role('Risk Editors')).toBe('editor');
    expect(role(['staff'])).toBe('viewer');
    expect(role(undefined)).toBe('viewer');
  });

  it('name a person by name, given and family name, login, e-mail or sub, as plain text', () => {
    const name = (claims: Record<string, unknown>) =>
      personOf({ sub: 's-1', ...claims }, 'groups', roleMapper(ROLES)).name;
    expect(name({ name: ' Alice\u202E Analyst ' })).toBe('Alice Analyst');
    expect(name({ given_name: 'Alice', family_name: 'Analyst' })).toBe('Alice Analyst');
    expect(name({ preferred_username: 'alice' })).toBe('alice');
    expect(name({ email: 'alice@example.com' })).toBe('alice@example.com');
    expect(name({})).toBe('s-1');
  });

  it.each([
    [undefined, true],
    [true, true],
    ['true', true],
    [false, false],
    ['false', false],
    ['0', false],
    [0, false],
  ])('email_verified %o counts as verified: %o', (value, verified) => {
    expect(emailVerified({ email_verified: value })).toBe(verified);
    const refusal = emailRefusal({ email_verified: value }, 'una@example.com', ['example.com']);
    expect(refusal === null).toBe(verified);
  });
});

describe('plain text', () => {
  it('drops controls and bidi characters, neutralises a formula, keeps at most 200 characters', () => {
    expect(plainText('\u202Eexe.jpg\u202C')).toBe('exe.jpg');
    expect(plainText('line\r\nforged')).toBe('line forged');
    expect(plainText('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(plainText('  -2+3+cmd|x')).toBe(`'-2+3+cmd|x`);
    expect(plainText('\u2066@SUM(1)')).toBe(`'@SUM(1)`);
    expect(Array.from(plainText('😀'.repeat(300))).length).toBe(200);
    expect(plainText('Zoë 李')).toBe('Zoë 李');
  });

  it('tells text with a control or bidi character from text without', () => {
    expect(hasControlOrBidi('deploy\u202Egpj.exe')).toBe(true);
    expect(hasControlOrBidi('a\u0000b')).toBe(true);
    expect(hasControlOrBidi('a\tb')).toBe(true);
    expect(hasControlOrBidi('nightly export – Zoë')).toBe(false);
  });
});
