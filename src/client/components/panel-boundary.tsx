import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../lib/i18n';

interface Props {
  /** Names the panel in the message ("The map"). */
  name: string;
  children: ReactNode;
}
interface State {
  error: Error | null;
}

/**
 * One per panel (map, table, chart, feed): a panel that fails to render shows why and offers a
 * retry, and the rest of the page stays usable.
 */
export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.name} failed to render`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="panel-error" role="alert">
        <p>
          <strong>{t('problems.couldNotShow', { what: this.props.name })}</strong>{' '}
          {this.state.error.message}
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          {t('problems.tryAgain')}
        </button>
      </div>
    );
  }
}
