/**
 * Removes what this browser keeps of the dashboard: the service worker's caches (the shell and
 * the API answers seen, src/client/app/offline-worker.ts), the worker itself, and web storage.
 * Sign-out calls it before the sign-out request, so the next person on a shared device finds
 * nothing of the last one's data, online or off. Never rejects: sign-out goes on regardless.
 */
export async function clearStoredData(): Promise<void> {
  try {
    if ('serviceWorker' in navigator) {
      const registrations = await navigator.serviceWorker.getRegistrations();
      await Promise.all(registrations.map((registration) => registration.unregister()));
    }
    if ('caches' in window) {
      const names = await caches.keys();
      await Promise.all(names.map((name) => caches.delete(name)));
    }
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // A browser that refuses storage access (a private mode) has nothing stored to clear.
  }
}
