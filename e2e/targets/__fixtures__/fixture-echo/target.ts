// @ts-nocheck
/**
 * Fixture: a fourth target, copied into plugin/targets/fixture-echo/ of a temporary copy of the
 * package, with one line added to TARGETS (e2e/targets/fixture-target.test.ts).
 */
import { loadLazily } from '../lazy-module';
import type { TargetDescriptor } from '../target';

const parts = () => loadLazily(() => require('./parts'), () => import('./parts.js'));

export const fixtureEchoTarget = {
  id: 'fixture-echo',
  host: 'worker',
  served: 'a loopback echo server',
  deploys: 'a line on standard output',
  endpoint: 'loopback-port',
  deployOptions: ['registry'],
  adapter: () => parts().then((m) => m.echoAdapter),
  needs: () => parts().then((m) => m.echoNeeds),
  serve: () => parts().then((m) => m.serveEcho),
  deploy: () => parts().then((m) => m.deployEcho),
} as const satisfies TargetDescriptor;
