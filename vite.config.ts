import react from '@vitejs/plugin-react';
import { commonCountryNames } from './scripts/vite/common-country-names';
import { defineConfig } from 'vite';

// The SPA only. The BFF serves `dist/client` in production; in development Vite proxies the API
// to a BFF started with `npm start` (the key stays in the BFF either way).
export default defineConfig({
  plugins: [react(), commonCountryNames()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
