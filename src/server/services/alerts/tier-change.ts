import type { AlertNumbers } from '../../../shared/alerts-api.js';
import { tierDirection, tierLabel } from '../../../shared/tiers.js';

/** Our override of a country's tier in force at a batch, as an alert's numbers carry it. */
export interface OverrideNumbers {
  tier: string;
  reason: string;
  set_by: string;
}

/** The override an alert's numbers carry (issue 31), or null. */
export function overrideOf(numbers: AlertNumbers | null | undefined): OverrideNumbers | null {
  const override = (numbers as { override?: unknown } | null | undefined)?.override;
  if (typeof override !== 'object' || override === null) return null;
  const { tier, reason, set_by: setBy } = override as Record<string, unknown>;
  if (typeof tier !== 'string' || typeof reason !== 'string') return null;
  return { tier, reason, set_by: typeof setBy === 'string' ? setBy : '' };
}

const one = (value: number): string => value.toFixed(1);

/** Our tier: the override's where one is in force, else the provider's. */
const ourTier = (numbers: AlertNumbers): string | null =>
  overrideOf(numbers)?.tier ?? numbers.tier ?? null;

/**
 * Why a tier-change rule fires between two batches, or null. Our overrides count (issue 31): a
 * tier change an override set or ended alerts like one of the provider's, saying it is our
 * override and why; a provider's change under an override in force still alerts, saying our
 * override keeps our tier. Without overrides the words are the provider's tier change, as before.
 */
export function tierChangeMessage(
  direction: 'up' | 'down' | 'both',
  before: AlertNumbers | null,
  after: AlertNumbers,
): string | null {
  if (!before) return null;
  const ours = tierDirection(ourTier(before), ourTier(after));
  const theirs = tierDirection(before.tier, after.tier);
  const moved = ours ?? theirs;
  if (moved === null || (direction !== 'both' && direction !== moved)) return null;
  const risk =
    before.risk != null && after.risk != null
      ? ` (risk ${one(before.risk)} → ${one(after.risk)})`
      : '';
  const was = overrideOf(before);
  const now = overrideOf(after);
  if (!was && !now) {
    return `Tier ${moved} from ${tierLabel(before.tier!)} to ${tierLabel(after.tier!)}${risk}`;
  }
  const from = tierLabel(ourTier(before)!);
  const to = tierLabel(ourTier(after)!);
  if (ours === null) {
    // The provider's tier moved; our override holds ours.
    return (
      `The provider's tier went ${moved} from ${tierLabel(before.tier!)} to ` +
      `${tierLabel(after.tier!)}${risk}; our override keeps it at ${to} (“${now!.reason}”)`
    );
  }
  if (now && (!was || was.tier !== now.tier || was.reason !== now.reason)) {
    return `Tier ${moved} from ${from} to ${to} by our override (“${now.reason}”, set by ${now.set_by})${risk}`;
  }
  return `Tier ${moved} from ${from} to ${to}: our override (“${was!.reason}”) ended, so the provider's tier applies again${risk}`;
}
