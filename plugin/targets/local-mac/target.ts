/** The local target: a launcher for the user's own machine (macOS first, Linux too) and its user service. */
import { LAUNCHER_MANIFEST } from '../../host-contract/output-files';
import { loadLazily } from '../lazy-module';
import type { TargetDescriptor } from '../target';

export const localMacTarget = {
  id: 'local-mac',
  host: 'local',
  served: 'its launcher',
  deploys: 'a LaunchAgent or systemd user unit',
  endpoint: 'loopback-port',
  deployOptions: ['into', 'uninstall', 'service', 'port', 'allow-unregistered'],
  runs: LAUNCHER_MANIFEST,
  adapter: () =>
    loadLazily(
      () => require('./emit') as typeof import('./emit'),
      () => import('./emit.js'),
    ).then((m) => m.localMacAdapter),
  run: () =>
    loadLazily(
      () => require('./run') as typeof import('./run'),
      () => import('./run.js'),
    ).then((m) => m.runLauncher),
  serve: () =>
    loadLazily(
      () => require('./run') as typeof import('./run'),
      () => import('./run.js'),
    ).then((m) => m.serveLauncher),
  needs: () =>
    loadLazily(
      () => require('./output-needs') as typeof import('./output-needs'),
      () => import('./output-needs.js'),
    ).then((m) => m.launcherNeeds),
  deploy: () =>
    loadLazily(
      () => require('./deploy') as typeof import('./deploy'),
      () => import('./deploy.js'),
    ).then((m) => m.deployLocalService),
} as const satisfies TargetDescriptor;
