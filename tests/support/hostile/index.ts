/**
 * Generators of hostile input for the hostile-input suite, all seeded (a failing run can be
 * replayed with its seed): values and raw JSON (values.ts), whole HTTP requests with one known
 * defect each (requests.ts), push rows (rows.ts), chat socket frames (chat-frames.ts) and upgrade
 * requests (upgrades.ts).
 */
export * from './values';
export * from './requests';
export * from './rows';
export * from './chat-frames';
export * from './upgrades';
