/**
 * The Kubernetes target: the HB3 image contract (same image, entrypoint and job specs) plus the
 * manifests that run it on a cluster, applied with `kubectl apply -k` (docs/deploying.md). On this
 * machine `agentdef run` and `dev` run its job as the HB3 target does.
 */
import { JOB_FILE } from '../../host-contract/output-files';
import { loadLazily } from '../lazy-module';
import type { TargetDescriptor } from '../target';

const contract = () =>
  loadLazily(
    () => require('./container-contract') as typeof import('./container-contract'),
    () => import('./container-contract.js'),
  ).then((m) => m.containerContractTarget());

export const kubernetesTarget = {
  id: 'kubernetes',
  host: 'container',
  served: 'the container entrypoint as a process on this machine (as hb3)',
  deploys: 'kubectl apply -k of the manifests (the image built and pushed first)',
  endpoint: 'loopback-port',
  deployOptions: [],
  runs: JOB_FILE,
  adapter: () =>
    loadLazily(
      () => require('./emit') as typeof import('./emit'),
      () => import('./emit.js'),
    ).then((m) => m.kubernetesAdapter),
  run: () => contract().then((hb3) => hb3.run!()),
  serve: () => contract().then((hb3) => hb3.serve()),
  needs: () => contract().then((hb3) => hb3.needs()),
  deploy: () =>
    loadLazily(
      () => require('./deploy') as typeof import('./deploy'),
      () => import('./deploy.js'),
    ).then((m) => m.deployKubernetes),
} as const satisfies TargetDescriptor;
