/** Runtime configs for tests, shaped like what the compiler emits. */
import type { RunDeps } from '../run-agent';
import type { Receipt } from '../receipts';
import type { ProviderWire, RuntimeConfig, RuntimeModelPin, RuntimeTool } from '../runtime-config';
import { RUNTIME_CONFIG_VERSION } from '../runtime-config';

export const TEST_KEY = 'sk-test-SECRET-0123456789abcdef';

export const ADD_TOOL: RuntimeTool = {
  id: 'calc.add',
  name: 'add',
  version: '1.0.0',
  description: 'Adds two numbers.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  kind: 'bundled',
  risk: 'low',
};

export const MUL_TOOL: RuntimeTool = {
  id: 'calc.mul',
  name: 'mul',
  version: '1.0.0',
  description: 'Multiplies two numbers.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  kind: 'bundled',
  risk: 'low',
};

export const calcTools: RunDeps['tools'] = {
  'calc.add': (args) => ({ sum: Number(args['a']) + Number(args['b']) }),
  'calc.mul': (args) => ({ product: Number(args['a']) * Number(args['b']) }),
};

export function pin(wire: ProviderWire, baseUrl: string, overrides: Partial<RuntimeModelPin> = {}): RuntimeModelPin {
  const providerId = wire === 'openai-chat' ? 'openai' : wire === 'anthropic-messages' ? 'anthropic' : 'local-ollama';
  return {
    role: 'primary',
    providerId,
    wire,
    model:
      wire === 'openai-chat'
        ? 'gpt-4o-mini-2024-07-18'
        : wire === 'anthropic-messages'
          ? 'claude-sonnet-4-20250514'
          : 'llama3.1:8b',
    modelVersion: '2024-07-18',
    sampling: { temperature: 0, maxTokens: 256, seed: 7 },
    ...(wire === 'ollama-chat'
      ? {}
      : { secretBinding: wire === 'openai-chat' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY' }),
    baseUrl,
    ...overrides,
  };
}

export function baseConfig(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return {
    configVersion: RUNTIME_CONFIG_VERSION,
    agent: {
      id: '01J9ZZZZZZZZZZZZZZZZZZZZZZ',
      slug: 'calc-agent',
      name: 'Calculator Agent',
      version: '1.2.0',
      versionId: '01J9ZZZZZZZZZZZZZZZZZZZZZY',
      description: 'Does arithmetic with tools.',
      owner: { kind: 'team', id: 'platform' },
    },
    card: {
      rpcPath: '/a2a/v1',
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain', 'application/json'],
      provider: { organization: 'Example Org', url: 'https://example.org' },
    },
    skills: [
      {
        id: 'arithmetic',
        name: 'Arithmetic',
        description: 'Adds and multiplies numbers.',
        version: '2.0.1',
        tags: ['math'],
        examples: ['What is 2 + 3?'],
      },
    ],
    agenticGate: 'agentic',
    models: [],
    tools: [ADD_TOOL, MUL_TOOL],
    limits: { wallClockMs: 10_000, maxSubrequests: 20, maxSteps: 8 },
    memory: {},
    composition: { kind: 'leaf', children: [], edges: [], quarantine: false },
    egress: { allow: [] },
    lifecycleState: 'kym-registered',
    receipts: {
      mode: 'signed',
      schemaVersion: 'receipt/v1',
      signerRef: 'keyref:calc-agent',
      keyBinding: 'RECEIPT_SIGNING_JWK',
    },
    ...overrides,
  };
}

export function agenticConfig(
  wire: ProviderWire,
  baseUrl: string,
  overrides: Partial<RuntimeConfig> = {},
): RuntimeConfig {
  return baseConfig({ models: [pin(wire, baseUrl)], ...overrides });
}

export function toolOnlyConfig(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return baseConfig({
    agent: {
      id: '01J9ZZZZZZZZZZZZZZZZZZZZZX',
      slug: 'adder-tool',
      name: 'Adder',
      version: '0.3.0',
      versionId: '01J9ZZZZZZZZZZZZZZZZZZZZZW',
      description: 'Adds two numbers.',
    },
    skills: [
      { id: 'add', name: 'Add', description: 'Adds a and b.', version: '0.3.0', tags: ['math'], toolId: 'calc.add' },
    ],
    agenticGate: 'tool-only',
    models: [],
    tools: [ADD_TOOL],
    lifecycleState: 'tool-shipped',
    ...overrides,
  });
}

/** A sink that records receipts. */
export function memorySink(): { receipts: Receipt[]; put(r: Receipt): Promise<void> } {
  const receipts: Receipt[] = [];
  return {
    receipts,
    async put(r) {
      receipts.push(r);
    },
  };
}

/** A tool-only child agent `slug@1.0.0` whose single skill routes to tool `<slug>.tool`. */
export function toolChildConfig(slug: string, toolOverrides: Partial<RuntimeTool> = {}): RuntimeConfig {
  return toolOnlyConfig({
    agent: {
      id: '01J9ZZZZZZZZZZZZZZZZZZZZCA',
      slug,
      name: slug,
      version: '1.0.0',
      versionId: '01J9ZZZZZZZZZZZZZZZZZZZZCB',
      description: slug,
    },
    skills: [{ id: 'run', name: 'Run', description: slug, version: '1.0.0', tags: ['run'] }],
    tools: [
      {
        id: `${slug}.tool`,
        name: `${slug.replace(/-/g, '_')}_tool`,
        version: '1.0.0',
        kind: 'bundled',
        risk: 'low',
        ...toolOverrides,
      },
    ],
    lifecycleState: 'composed',
  });
}

/** A dag parent `pipeline@3.0.0` over `slugs` (each pinned at 1.0.0). */
export function dagConfig(
  slugs: string[],
  edges: RuntimeConfig['composition']['edges'],
  overrides: Partial<RuntimeConfig> = {},
): RuntimeConfig {
  return baseConfig({
    agent: {
      id: '01J9ZZZZZZZZZZZZZZZZZZZZPA',
      slug: 'pipeline',
      name: 'Pipeline',
      version: '3.0.0',
      versionId: '01J9ZZZZZZZZZZZZZZZZZZZZPB',
      description: 'Composes children.',
    },
    skills: [{ id: 'handle', name: 'Handle', description: 'Handles a request.', version: '3.1.0', tags: ['handle'] }],
    agenticGate: 'tool-only',
    models: [],
    tools: [],
    composition: { kind: 'dag', children: slugs.map((slug) => ({ slug, version: '1.0.0' })), edges, quarantine: false },
    ...overrides,
  });
}
