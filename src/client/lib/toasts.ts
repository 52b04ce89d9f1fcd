import { useSyncExternalStore } from 'react';

/**
 * A tiny store for toasts. Only failed background refreshes toast (house style): a failure of
 * something already on screen is news; a failure of a first load shows in its own panel instead.
 */
export interface Toast {
  id: string;
  message: string;
}

const AUTO_DISMISS_MS = 10_000;
let toasts: readonly Toast[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function dismissToast(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

/** Shows a toast; the same `id` replaces the earlier one, so a repeated failure does not pile up. */
export function showToast(id: string, message: string): void {
  clearTimeout(timers.get(id));
  toasts = [...toasts.filter((toast) => toast.id !== id), { id, message }];
  timers.set(
    id,
    setTimeout(() => dismissToast(id), AUTO_DISMISS_MS),
  );
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}

/** For tests: start from an empty store. */
export function clearToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  toasts = [];
  emit();
}
