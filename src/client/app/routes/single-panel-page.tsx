import type { ReactNode } from 'react';
import { PanelBoundary } from '../../components/panel-boundary';
import { pageTitle } from '../../lib/page-title';

/** A page that is one heading and one panel (its own error boundary), titled like every page. */
export function SinglePanelPage({
  className,
  title,
  panelName,
  children,
}: {
  className: string;
  /** The heading and the document title's first part, in the page language (the caller's `t`). */
  title: string;
  /** Names the panel in its error message ("The alerts"), in the page language. */
  panelName: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <title>{pageTitle(title)}</title>
      <h1>{title}</h1>
      <PanelBoundary name={panelName}>{children}</PanelBoundary>
    </div>
  );
}
