/** Cloudflare dynamic Worker (Worker Loader API). For now: the plan and `worker-descriptor.json`. */
import type { Adapter } from '../../targets';
import { emitManifest } from '../manifest';

export const cloudflareDynamicWorkerAdapter: Adapter = {
  target: 'cloudflare-dynamic-worker',
  hosts: ['worker'],
  emit: async (plan, resolved) => emitManifest('cloudflare-dynamic-worker', 'worker-descriptor.json', 'worker.js', plan, resolved),
};
