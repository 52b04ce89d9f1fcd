import type { StatusResponse } from '../../../../shared/bff-api';

/** Marks generated data on every page, so a screenshot of demo numbers is never mistaken. */
export function DemoBadge({ status }: { status: StatusResponse | undefined }) {
  if (status?.mode !== 'demo') return null;
  return (
    <span
      className="demo-badge"
      title="The numbers come from the built-in demo service, not the Global Risk Index API"
    >
      Demo data
    </span>
  );
}
