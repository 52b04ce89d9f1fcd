import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Link } from '../../lib/app-link';

/** Last resort when a route itself fails (e.g. its chunk could not be loaded after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main id="main" className="page-message">
      <title>Something went wrong · Global Risk Dashboard</title>
      <h1>This page could not be shown</h1>
      <p>{message}</p>
      <p>
        <a href={window.location.href}>Reload the page</a> or <Link to="/">go to the overview</Link>
        .
      </p>
    </main>
  );
}
