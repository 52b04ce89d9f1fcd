import { useMutation } from '@tanstack/react-query';
import type { AlertRule } from '../../../../shared/alerts-api';
import { backtestResponseSchema } from '../../../../shared/backtest-api';
import { writeBff } from '../../../lib/api-write';

/** What "Try on history" asks about: the form's countries and rules as they are, unsaved. */
export interface BacktestAsk {
  countries: string[];
  rules: AlertRule[];
}

/** `POST /api/watchlists/backtest`: reads the store only, so it changes no cached query. */
export async function runBacktest(ask: BacktestAsk) {
  const { data } = await writeBff('POST', '/api/watchlists/backtest', backtestResponseSchema, {
    body: ask,
  });
  return data;
}

export function useBacktest() {
  return useMutation({ mutationFn: runBacktest });
}
