/** HB3 container job. For now: the plan and the `hb3-job.json` stub descriptor. */
import type { Adapter } from '../../targets';
import { emitManifest } from '../manifest';

export const hb3Adapter: Adapter = {
  target: 'hb3',
  hosts: ['container'],
  emit: async (plan, resolved) => emitManifest('hb3', 'hb3-job.json', 'entrypoint.js', plan, resolved),
};
