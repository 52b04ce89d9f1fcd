import { useLocation } from 'react-router';
import { Link } from '../../lib/app-link';

export function NotFoundRoute() {
  const location = useLocation();
  return (
    <div className="page-message">
      <title>Page not found · Global Risk Dashboard</title>
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{location.pathname}</code>.
      </p>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </div>
  );
}
