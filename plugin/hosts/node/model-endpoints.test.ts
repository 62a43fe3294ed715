import { describe, expect, it } from 'vitest';
import { ADD_TOOL, agenticConfig, pin } from '../../runtime/__test-support__/configs';
import { ollamaBaseUrl, providerEnvName, reachedUrls, withEndpointOverrides } from './model-endpoints';

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
        pin('openai-chat', 'http://127.0.0.1:8000/v1', { providerId: 'custom:acme-tuned', tier: 'tuned', role: 'specialist' }),
        pin('openai-chat', 'https://api.openai.com/v1', { role: 'router' }),
      ],
      tools: [{ ...ADD_TOOL, endpoints: ['https://tools.example.com'] }],
    });
    const before = JSON.stringify(config);
    const settled = withEndpointOverrides(config, { OLLAMA_HOST: '127.0.0.1:5000', AGENTDEF_INFERENCE_BASE_URL: 'http://127.0.0.1:9000/v1/', AGENTDEF_BASE_URL_OPENAI: 'http://127.0.0.1:7000/v1' });
    expect(settled.models.map((m) => m.baseUrl)).toEqual(['http://127.0.0.1:5000', 'http://127.0.0.1:9000/v1', 'http://127.0.0.1:7000/v1']);
    expect(JSON.stringify(config)).toBe(before);
    expect(withEndpointOverrides(config, {}).models.map((m) => m.baseUrl)).toEqual(['http://127.0.0.1:11434', 'http://127.0.0.1:8000/v1', 'https://api.openai.com/v1']);
    expect(reachedUrls(settled).map((r) => r.url)).toEqual(['http://127.0.0.1:5000', 'http://127.0.0.1:9000/v1', 'http://127.0.0.1:7000/v1', 'https://tools.example.com']);
  });
});
