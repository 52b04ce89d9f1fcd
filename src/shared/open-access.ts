/**
 * The name everyone acts under when the operator configured no access control (loopback or
 * ALLOW_ANONYMOUS): it is stored as the author of notes and overrides, and pages say it in words
 * of their own language (client/lib/person-name.ts). A module of its own, without zod: the SPA's
 * first script reads it.
 */
export const OPEN_ACCESS_NAME = 'Anyone (no sign-in configured)';
