// An embedding host's component pack: the pack itself is pure JSON data (pack.json); the
// behaviour of each of its components is private host code here, one adapter and one owner
// resolver per component. agentdef admits them at start-up with
// createApplicationComponentPackRegistry (`--host examples/applications/text-pack/component-host.mjs`);
// nothing of this can be passed over MCP. Both components are deterministic and offline.
import { readFileSync } from 'node:fs';

const pack = JSON.parse(readFileSync(new URL('./pack.json', import.meta.url), 'utf8'));
const byId = Object.fromEntries(pack.components.map((component) => [component.id, component]));
const words = (text) => (typeof text === 'string' ? text.split(/\s+/).filter((word) => word.length > 0) : []);

const behaviour = {
  'acme.text.summarise': async (call) => ({ status: 'completed', outputs: { summary: words(call.inputs.text).slice(0, call.config.maxWords).join(' ') } }),
  'acme.text.word-count': async (call) => ({ status: 'completed', outputs: { count: { words: words(call.inputs.text).length } } }),
};

/** An adapter's descriptor is exactly its component's definition; admission refuses any mismatch. */
const adapterFor = (component) => ({
  component: { id: component.id, revision: component.revision },
  interface: component.interface,
  capability: component.capability,
  sideEffect: component.sideEffect,
  replay: component.replay,
  modes: [...component.modes],
  owner: component.owner.name,
  execute: behaviour[component.id],
});

/** Public owner evidence: which implementation of the owner runs (plans bind its digest). */
const ownerResolverFor = (component) => ({
  component: { id: component.id, revision: component.revision },
  owner: component.owner.name,
  resolve: () => ({ ok: true, evidence: { owner: component.owner.name, implementation: 'examples/text-pack@1' } }),
});

const components = [byId['acme.text.summarise'], byId['acme.text.word-count']];
export default { packs: [pack], adapters: components.map(adapterFor), ownerResolvers: components.map(ownerResolverFor) };
