/** The Cloudflare Worker target: a Worker module loaded through the Worker Loader API (workerd). */
import { loadLazily } from '../lazy-module';
import { HOST_PLAN_TARGET } from './contract';
import type { TargetDescriptor } from '../target';

export const cloudflareDynamicWorkerTarget = {
  id: HOST_PLAN_TARGET,
  host: 'worker',
  served: 'workerd through miniflare, with its loader',
  deploys: 'wrangler deploy (secrets listed by name only)',
  endpoint: 'public-url',
  deployOptions: ['allow-unregistered'],
  adapter: () =>
    loadLazily(
      () => require('./emit') as typeof import('./emit'),
      () => import('./emit.js'),
    ).then((m) => m.cloudflareDynamicWorkerAdapter),
  serve: () =>
    loadLazily(
      () => require('./serve') as typeof import('./serve'),
      () => import('./serve.js'),
    ).then((m) => m.serveWorker),
  needs: () =>
    loadLazily(
      () => require('./output-needs') as typeof import('./output-needs'),
      () => import('./output-needs.js'),
    ).then((m) => m.workerNeeds),
  deploy: () =>
    loadLazily(
      () => require('./deploy') as typeof import('./deploy'),
      () => import('./deploy.js'),
    ).then((m) => m.deployWorker),
} as const satisfies TargetDescriptor;
