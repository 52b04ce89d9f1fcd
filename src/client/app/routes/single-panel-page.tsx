import type { ReactNode } from 'react';
import { PanelBoundary } from '../../components/panel-boundary';

/** A page that is one heading and one panel (its own error boundary), titled like every page. */
export function SinglePanelPage({
  className,
  title,
  panelName,
  children,
}: {
  className: string;
  title: string;
  /** Names the panel in its error message ("The alerts"). */
  panelName: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <title>{`${title} · Global Risk Dashboard`}</title>
      <h1>{title}</h1>
      <PanelBoundary name={panelName}>{children}</PanelBoundary>
    </div>
  );
}
