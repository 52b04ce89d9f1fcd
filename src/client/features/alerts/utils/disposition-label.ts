import type { ParseKeys } from 'i18next';
import type { Disposition } from '../../../../shared/alert-triage-api';
import { t } from '../../../lib/i18n';

const DISPOSITION_KEYS: Record<Disposition, ParseKeys> = {
  no_impact: 'alertItems.noImpact',
  some_impact: 'alertItems.someImpact',
  significant_impact: 'alertItems.significantImpact',
  duplicate: 'alertItems.duplicate',
  false_positive: 'alertItems.falsePositive',
};

/** How the team judged an alert, in the page's language (the API's values stay its own). */
export function dispositionLabel(disposition: Disposition): string {
  return t(DISPOSITION_KEYS[disposition]);
}
