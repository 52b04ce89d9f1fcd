import { describe, expect, it } from 'vitest';
import { ALERT_KINDS, type Alert, type AlertRowKind } from '../../src/shared/alerts-api.js';
import {
  alertSentence,
  outputsIn,
  type Outputs,
} from '../../src/server/services/alerts/alert-words.js';

/*
 * Issue 34, what is sent: every alert kind's sentence exists in every language. The sentence of
 * each kind, with the numbers its evaluator stores, in French, Spanish and Arabic must be neither
 * the stored English message nor English words through the same path (an i18next fallback to
 * English, when a language lacks the key, gives exactly that).
 */

const numbers = (risk: number, tier: string, active: number, team: number) => ({
  as_of: '2026-03-01T10:00:00Z',
  risk,
  tier,
  active,
  team,
});

function sample(kind: AlertRowKind, message: string): Alert {
  return {
    id: '41',
    watchlist_id: '7',
    watchlist_name: 'Sahel desk',
    rule: kind,
    kind,
    iso: 'MLI',
    country: 'Mali',
    message,
    link: '/country/MLI',
    batch_as_of: '2026-03-01T10:00:00Z',
    before: numbers(41, 'mod', 30.5, 44),
    after: numbers(53.4, 'high', 42.9, 71),
    created_at: '2026-03-01T10:01:00Z',
    read_at: null,
  };
}

/** What the evaluator stores for each kind (English), one per kind: a new kind fails the type. */
const MESSAGES: Record<AlertRowKind, string> = {
  active_change: 'Active +12.4 (30.5 → 42.9) since the previous batch',
  tier_change: 'Tier mod → high',
  risk_threshold: 'Risk 41.0 → 53.4',
  breaking_event: 'Breaking event: Protests in Bamako (Reuters)',
  method_change: 'The provider changed its scoring method',
  team_index_threshold: 'Team index 44.0 → 71.0',
  override_expired: 'Our tier override ended',
};

describe('each alert kind in each language (issue 34)', () => {
  for (const kind of ALERT_KINDS) {
    for (const language of ['fr', 'es', 'ar'] as const) {
      it(`${kind} in ${language}`, () => {
        const alert = sample(kind, MESSAGES[kind]);
        const o = outputsIn(language);
        // The same path with English words: what a missing key would fall back to.
        const inEnglish: Outputs = { ...o, t: outputsIn('en').t };
        const said = alertSentence(alert, o);
        expect(said).not.toBe(alert.message);
        expect(said).not.toBe(alertSentence(alert, inEnglish));
        if (language === 'ar') expect(said).toMatch(/\p{Script=Arabic}/u);
        // The upstream's words stay as they came.
        if (kind === 'breaking_event') expect(said).toContain('Protests in Bamako (Reuters)');
      });
    }
  }

  it('an active move measured from an older batch names that batch in each language', () => {
    const alert = {
      ...sample('active_change', MESSAGES.active_change),
      message: 'Active +12.4 (30.5 → 42.9) since the batch of 2026-02-28 10:00 UTC: at least 10',
    };
    const said = (language: 'fr' | 'es' | 'ar') => alertSentence(alert, outputsIn(language));
    expect(said('fr')).toContain('depuis le lot du');
    expect(said('es')).toContain('desde el lote del');
    expect(said('ar')).toContain('منذ دفعة');
    for (const language of ['fr', 'es', 'ar'] as const) {
      expect(said(language)).toContain(outputsIn(language).time(alert.before!.as_of));
    }
  });

  it('English is what the evaluator stored, byte for byte', () => {
    for (const kind of ALERT_KINDS) {
      expect(alertSentence(sample(kind, MESSAGES[kind]), outputsIn('en'))).toBe(MESSAGES[kind]);
    }
  });
});
