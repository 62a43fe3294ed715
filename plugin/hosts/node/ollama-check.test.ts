import { describe, expect, it } from 'vitest';
import { agenticConfig } from '../../runtime/__test-support__/configs';
import { sendJson, startServer } from '../../runtime/__test-support__/stub-provider';
import { checkOllama } from './ollama-check';

describe('the Ollama check at start', () => {
  it('passes when Ollama lists the model (with or without :latest)', async () => {
    const server = await startServer((req, res) =>
      req.path === '/api/tags'
        ? sendJson(res, 200, { models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b' }, { name: 'qwen2:latest' }] })
        : sendJson(res, 404, {}),
    );
    try {
      await checkOllama([agenticConfig('ollama-chat', server.url)]);
      await checkOllama([
        agenticConfig('ollama-chat', server.url, {
          models: [{ ...agenticConfig('ollama-chat', server.url).models[0]!, model: 'qwen2' }],
        }),
      ]);
      await expect(
        checkOllama([
          agenticConfig('ollama-chat', server.url, {
            models: [{ ...agenticConfig('ollama-chat', server.url).models[0]!, model: 'mistral:7b' }],
          }),
        ]),
      ).rejects.toThrow(
        `Ollama at ${server.url} has no model mistral:7b (calc-agent@1.2.0 needs it): run \`ollama pull mistral:7b\``,
      );
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'GET /api/tags',
        'GET /api/tags',
        'GET /api/tags',
      ]);
    } finally {
      await server.close();
    }
  });

  it('says how to start Ollama when nothing answers', async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    await expect(checkOllama([agenticConfig('ollama-chat', url)])).rejects.toThrow(
      `Ollama is not reachable at ${url} (connection failed; calc-agent@1.2.0 needs model llama3.1:8b): start it with \`ollama serve\`, or set OLLAMA_HOST to where it listens`,
    );
  });

  it('ignores configs without Ollama pins', async () => {
    await checkOllama([agenticConfig('openai-chat', 'http://127.0.0.1:1')]);
  });
});
