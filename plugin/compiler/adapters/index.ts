/** The adapter for each compile target. */
import type { Adapter, CompileTarget } from '../targets';
import { cloudflareDynamicWorkerAdapter } from './cloudflare-dynamic-worker/emit';
import { hb3Adapter } from './hb3/emit';
import { localMacAdapter } from './local-mac/emit';

export const ADAPTERS: Readonly<Record<CompileTarget, Adapter>> = {
  'cloudflare-dynamic-worker': cloudflareDynamicWorkerAdapter,
  hb3: hb3Adapter,
  'local-mac': localMacAdapter,
};

export function adapterFor(target: CompileTarget): Adapter {
  return ADAPTERS[target];
}
