import type { RiskEvent } from '../../../../shared/schemas/event';
import { timeValue } from '../../../lib/format';

export interface EventFilters {
  /** A role label as sent (`locus`, `actor`, or anything else), or null for all roles. */
  role: string | null;
  breakingOnly: boolean;
}

export function parseEventFilters(params: URLSearchParams): EventFilters {
  const role = params.get('role');
  return {
    role: role && role.trim() !== '' ? role : null,
    breakingOnly: params.get('breaking') === '1',
  };
}

/** Newest first; events with unreadable timestamps go last rather than disappearing. */
export function sortNewestFirst(events: readonly RiskEvent[]): RiskEvent[] {
  return [...events].sort((a, b) => timeValue(b.ts) - timeValue(a.ts));
}

export function filterEvents(events: readonly RiskEvent[], filters: EventFilters): RiskEvent[] {
  return events.filter(
    (event) =>
      (filters.role === null || event.role === filters.role) &&
      (!filters.breakingOnly || event.breaking === true),
  );
}

/** The roles present, for the filter's options (roles are free text, so never a fixed list). */
export function rolesPresent(events: readonly RiskEvent[]): string[] {
  return [...new Set(events.flatMap((event) => (event.role ? [event.role] : [])))].sort();
}
