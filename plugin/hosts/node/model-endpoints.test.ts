import { describe, expect, it } from 'vitest';
import { ADD_TOOL, agenticConfig, pin } from '../../runtime/__test-support__/configs';
import { parseProxyPath } from '../model-replay/proxy-routes';
import { MALFORMED_ENDPOINTS } from '../../runtime/__test-support__/malformed-urls';
import {
  endpointProblem,
  modelBaseUrls,
  ollamaBaseUrl,
  providerEnvName,
  reachedUrls,
  withEndpointOverrides,
  withModelProxy,
} from './model-endpoints';

describe('model endpoints from the environment', () => {
  it('reads OLLAMA_HOST the way Ollama does', () => {
    expect(ollamaBaseUrl({})).toBe('http://127.0.0.1:11434');
    expect(ollamaBaseUrl({ OLLAMA_HOST: '127.0.0.1:4000' })).toBe('http://127.0.0.1:4000');
    expect(ollamaBaseUrl({ OLLAMA_HOST: 'localhost' })).toBe('http://localhost:11434');
    expect(ollamaBaseUrl({ OLLAMA_HOST: 'http://127.0.0.1:4000/' })).toBe('http://127.0.0.1:4000');
    expect(ollamaBaseUrl({ OLLAMA_HOST: '0.0.0.0:11434' })).toBe('http://127.0.0.1:11434');
    expect(ollamaBaseUrl({ OLLAMA_HOST: 'https://gpu.example.com' })).toBe('https://gpu.example.com');
  });

  it('names the per-provider override variable', () => {
    expect(providerEnvName('custom:acme-tuned')).toBe('AGENTDEF_BASE_URL_CUSTOM_ACME_TUNED');
    expect(providerEnvName('openai')).toBe('AGENTDEF_BASE_URL_OPENAI');
  });

  it('settles each pin: Ollama from OLLAMA_HOST, tuned pins from AGENTDEF_INFERENCE_BASE_URL, any provider from its own variable', () => {
    const config = agenticConfig('openai-chat', 'https://api.openai.com/v1', {
      models: [
        pin('ollama-chat', 'http://127.0.0.1:11434'),
        pin('openai-chat', 'http://127.0.0.1:8000/v1', {
          providerId: 'custom:acme-tuned',
          tier: 'tuned',
          role: 'specialist',
        }),
        pin('openai-chat', 'https://api.openai.com/v1', { role: 'router' }),
      ],
      tools: [{ ...ADD_TOOL, endpoints: ['https://tools.example.com'] }],
    });
    const before = JSON.stringify(config);
    const settled = withEndpointOverrides(config, {
      OLLAMA_HOST: '127.0.0.1:5000',
      AGENTDEF_INFERENCE_BASE_URL: 'http://127.0.0.1:9000/v1/',
      AGENTDEF_BASE_URL_OPENAI: 'http://127.0.0.1:7000/v1',
    });
    expect(settled.models.map((m) => m.baseUrl)).toEqual([
      'http://127.0.0.1:5000',
      'http://127.0.0.1:9000/v1',
      'http://127.0.0.1:7000/v1',
    ]);
    expect(JSON.stringify(config)).toBe(before);
    expect(withEndpointOverrides(config, {}).models.map((m) => m.baseUrl)).toEqual([
      'http://127.0.0.1:11434',
      'http://127.0.0.1:8000/v1',
      'https://api.openai.com/v1',
    ]);
    expect(reachedUrls(settled).map((r) => r.url)).toEqual([
      'http://127.0.0.1:5000',
      'http://127.0.0.1:9000/v1',
      'http://127.0.0.1:7000/v1',
      'https://tools.example.com',
    ]);
  });
});

describe('the model record/replay server (AGENTDEF_MODEL_PROXY)', () => {
  const proxy = { AGENTDEF_MODEL_PROXY: 'http://127.0.0.1:4444', AGENTDEF_MODEL_PROXY_MODE: 'replay' };

  it('sends every pin through the server, each carrying its settled base in its route; without a mode nothing changes', () => {
    const config = agenticConfig('anthropic-messages', 'https://api.anthropic.com', {
      models: [
        pin('anthropic-messages', 'https://api.anthropic.com'),
        pin('ollama-chat', 'http://127.0.0.1:11434', { role: 'router' }),
        pin('openai-chat', 'http://127.0.0.1:8000/v1', { providerId: 'custom:acme', role: 'specialist' }),
      ],
    });
    const routed = withModelProxy(withEndpointOverrides(config, { ...proxy, OLLAMA_HOST: '127.0.0.1:5000' }), proxy);
    const parsed = routed.models.map((p) => {
      const base = p.baseUrl!;
      expect(base.startsWith('http://127.0.0.1:4444/m/')).toBe(true);
      return parseProxyPath(`${base.slice('http://127.0.0.1:4444'.length)}/v1/messages`);
    });
    expect(parsed.map((p) => [p?.wire, p?.upstreamBase, p?.path])).toEqual([
      ['anthropic-messages', 'https://api.anthropic.com', '/v1/messages'],
      ['ollama-chat', 'http://127.0.0.1:5000', '/v1/messages'],
      ['openai-chat', 'http://127.0.0.1:8000/v1', '/v1/messages'],
    ]);
    // The egress allow-list the runtime derives from the pins is the server's loopback origin only.
    expect(new Set(reachedUrls(routed).map((r) => new URL(r.url).origin))).toEqual(new Set(['http://127.0.0.1:4444']));
    expect(withModelProxy(config, { AGENTDEF_MODEL_PROXY: 'http://127.0.0.1:4444' })).toBe(config);
    expect(
      withModelProxy(config, { AGENTDEF_MODEL_PROXY: 'http://127.0.0.1:4444', AGENTDEF_MODEL_PROXY_MODE: 'live' }),
    ).toBe(config);
  });

  it('the record server may forward to every base a pin can have here, and to nothing else', () => {
    expect(
      modelBaseUrls({
        AGENTDEF_BASE_URL_CUSTOM_ACME: 'https://acme.example/api/',
        OLLAMA_HOST: '10.0.0.2',
        PATH: '/usr/bin',
      }),
    ).toEqual(
      [
        'http://10.0.0.2:11434',
        'http://127.0.0.1:11434',
        'http://127.0.0.1:8000/v1',
        'https://acme.example/api',
        'https://api.anthropic.com',
        'https://api.openai.com/v1',
      ].sort(),
    );
  });
});

describe('a URL a host cannot reach is named before the host starts (issue 23: it blamed OLLAMA_HOST)', () => {
  const config = () =>
    agenticConfig('openai-chat', 'https://api.openai.com/v1', {
      models: [pin('ollama-chat', 'http://127.0.0.1:11434'), pin('openai-chat', 'https://api.openai.com/v1')],
      tools: [{ ...ADD_TOOL, endpoints: ['https://tools.example.com'] }],
    });

  it('finds nothing in a well-formed config', () => {
    expect(endpointProblem(withEndpointOverrides(config(), {}), {})).toBeUndefined();
  });

  it('names the variable a malformed model base URL came from, and never repeats its value', () => {
    for (const { url } of MALFORMED_ENDPOINTS) {
      const ollama = { OLLAMA_HOST: url };
      expect(() => ollamaBaseUrl(ollama)).not.toThrow();
      const fromOllama = endpointProblem(withEndpointOverrides(config(), ollama), ollama);
      expect(fromOllama, url).toMatch(
        /^the base URL of model llama3\.1:8b \(local-ollama\) is not a URL .*: it comes from OLLAMA_HOST; /,
      );
      expect(fromOllama).not.toContain(url);
      const openai = { AGENTDEF_BASE_URL_OPENAI: url };
      const fromOpenai = endpointProblem(withEndpointOverrides(config(), openai), openai);
      expect(fromOpenai, url).toMatch(
        /^the base URL of model gpt-4o-mini-2024-07-18 \(openai\) is not a URL .*: it comes from AGENTDEF_BASE_URL_OPENAI; /,
      );
      expect(fromOpenai).not.toContain(url);
      // The record/replay server is never told to forward to it.
      expect(modelBaseUrls(ollama)).not.toContain(url);
    }
  });

  it('names a malformed tool endpoint of the compiled output as the definition to fix, not OLLAMA_HOST', () => {
    for (const { url } of MALFORMED_ENDPOINTS) {
      const tampered = config();
      tampered.tools[0]!.endpoints = [url];
      const problem = endpointProblem(withEndpointOverrides(tampered, {}), {});
      expect(problem, url).toMatch(
        /^tool calc\.add in the compiled output has an endpoint that is not a URL .*: fix the definition/,
      );
      expect(problem).not.toMatch(/OLLAMA_HOST/);
    }
  });
});
