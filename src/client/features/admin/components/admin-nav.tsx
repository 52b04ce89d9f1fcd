import { NavLink } from 'react-router';

/**
 * The admin pages, one link each: the header keeps a single "Audit log" link (a phone's header
 * has no room for more), and each admin page leads to the others from here.
 */
export function AdminNav() {
  return (
    <nav aria-label="Admin pages" className="admin-nav">
      <NavLink to="/admin/audit">Audit log and sessions</NavLink>
      <NavLink to="/admin/reach">Feeds and embeds</NavLink>
    </nav>
  );
}
