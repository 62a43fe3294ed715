/** The HB3 target: a container image, its job spec (and a workflow for a composition). */
import { JOB_FILE } from '../../host-contract/output-files';
import { loadLazily } from '../lazy-module';
import type { TargetDescriptor } from '../target';

export const hb3Target = {
  id: 'hb3',
  host: 'container',
  served: 'the container entrypoint as a process on this machine',
  deploys: 'docker or podman build and push, plus the job spec to submit',
  endpoint: 'loopback-port',
  deployOptions: ['registry'],
  runs: JOB_FILE,
  adapter: () =>
    loadLazily(
      () => require('./emit') as typeof import('./emit'),
      () => import('./emit.js'),
    ).then((m) => m.hb3Adapter),
  run: () =>
    loadLazily(
      () => require('./run') as typeof import('./run'),
      () => import('./run.js'),
    ).then((m) => m.runHb3Job),
  serve: () =>
    loadLazily(
      () => require('./run') as typeof import('./run'),
      () => import('./run.js'),
    ).then((m) => m.serveHb3Job),
  needs: () =>
    loadLazily(
      () => require('./output-needs') as typeof import('./output-needs'),
      () => import('./output-needs.js'),
    ).then((m) => m.jobNeeds),
  deploy: () =>
    loadLazily(
      () => require('./deploy') as typeof import('./deploy'),
      () => import('./deploy.js'),
    ).then((m) => m.deployHb3),
} as const satisfies TargetDescriptor;
