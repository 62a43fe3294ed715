/**
 * Starts a compiled agent in workerd (through miniflare), the way it is deployed: the tests use
 * the same starter `agentdef dev` serves Worker outputs with (plugin/targets/cloudflare-dynamic-worker/dev-worker-host.ts),
 * in its default `loopback-only` mode: no network, every outbound request reaches `upstreams` or
 * gets a 599, and is recorded either way.
 */
export {
  bundleLoader,
  type OutboundRecord,
  type StartedWorker,
  type StartOptions,
  startCompiledWorker,
} from '../../../plugin/targets/cloudflare-dynamic-worker/dev-worker-host';
