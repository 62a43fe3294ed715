/** The local host launcher (macOS, and the same launcher on Linux). For now: the plan and `launcher.json`. */
import type { Adapter } from '../../targets';
import { emitManifest } from '../manifest';

export const localMacAdapter: Adapter = {
  target: 'local-mac',
  hosts: ['local'],
  emit: async (plan, resolved) => emitManifest('local-mac', 'launcher.json', 'launcher.js', plan, resolved),
};
