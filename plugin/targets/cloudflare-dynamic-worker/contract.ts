/**
 * The Worker target's id as its output spells it: `host-plan.json`'s `target`, which the loader
 * checks before it runs anything. A leaf (it imports nothing), so the host contract and the Worker
 * host, which run inside the Worker, can read it.
 */
export const HOST_PLAN_TARGET = 'cloudflare-dynamic-worker';
