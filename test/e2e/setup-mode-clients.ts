import { installModeFetch } from './mode-clients.js';

// Every browser test file's fetch reaches its stacks in TEST_AUTH_MODE (mode-clients.ts).
installModeFetch();
