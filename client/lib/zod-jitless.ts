import { config } from 'zod/v4/core';

/**
 * zod compiles fast object parsers with `new Function`, and probes for it on the first parse.
 * The app's content security policy forbids eval (no 'unsafe-eval'), so the probe was blocked and
 * reported as a violation on every signed-in page. The client parses little; the interpreted
 * parser is enough. Imported first by main.tsx, before any schema parses.
 */
config({ jitless: true });
