/** What the ledger worker process records, shared by the worker and sqlite-ledger.kill.test.ts. */
export const PLAN = 'ab'.repeat(32);
/** The worker's lease: a repeat with the clock this far ahead finds the dead holder's lease over. */
export const LEASE_MS = 60_000;
/** The result of a run is a function of its key, so the test knows what each run recorded. */
export const resultOf = (key: string) => ({ key, answer: `the result of ${key}`, steps: [key.length, 'done'] });
