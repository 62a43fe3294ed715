import { describe, expect, it } from 'vitest';
import { ADD_TOOL, agenticConfig } from '../../runtime/__test-support__/configs';
import { HostStartError } from './host-error';
import { checkLocalOnly, isLoopbackHost, loopbackOnlyFetch } from './loopback-fetch';

describe('the local-only guard', () => {
  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.4.5.6', 'localhost', 'api.localhost', '[::1]', '::1'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['10.0.0.1', '192.168.1.2', 'example.com', '0.0.0.0', '127.0.0.1.example.com', '[::2]'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('refuses to start an agent that would reach a host off this machine, naming it', () => {
    expect(() => checkLocalOnly(agenticConfig('ollama-chat', 'http://127.0.0.1:11434'), 'a@1.0.0')).not.toThrow();
    expect(() => checkLocalOnly(agenticConfig('ollama-chat', 'http://gpu-box.lan:11434'), 'a@1.0.0')).toThrow(
      new HostStartError(
        'a@1.0.0 is local-host-required but model llama3.1:8b (local-ollama) is at gpu-box.lan, off this machine: set OLLAMA_HOST to a loopback address such as http://127.0.0.1:11434',
      ),
    );
    const withTool = agenticConfig('ollama-chat', 'http://127.0.0.1:11434', {
      tools: [{ ...ADD_TOOL, endpoints: ['https://api.example.com'] }],
    });
    expect(() => checkLocalOnly(withTool, 'a@1.0.0')).toThrow(
      /tool calc\.add is at api\.example\.com, off this machine/,
    );
  });

  it('blocks a fetch off the machine before any connection, and lets loopback through', async () => {
    const reached: string[] = [];
    const blocked: string[] = [];
    const guarded = loopbackOnlyFetch(
      async (input) => (reached.push(String(input)), new Response('ok')),
      (host) => blocked.push(host),
    );
    await expect(guarded('https://example.com/x?token=1')).rejects.toMatchObject({ code: 'egress_blocked' });
    await expect(guarded(new Request('http://10.1.2.3:8080/'))).rejects.toMatchObject({ code: 'egress_blocked' });
    expect(await (await guarded('http://127.0.0.1:11434/api/chat')).text()).toBe('ok');
    expect(reached).toEqual(['http://127.0.0.1:11434/api/chat']);
    expect(blocked).toEqual(['example.com', '10.1.2.3:8080']);
  });
});
