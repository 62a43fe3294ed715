/** The promote executor: its options become the promote operation's, values passed as they are (never read as flags). */
import { describe, expect, it } from 'vitest';
import promoteExecutor, { promoteOptions } from './executor';

describe('promote executor', () => {
  it('passes the definition, the stage and the optional options as they are, in text format', () => {
    expect(promoteOptions({ definition: 'agents/a/agent.json', to: 'mcp-resident' })).toEqual({
      file: 'agents/a/agent.json',
      to: 'mcp-resident',
      format: 'text',
    });
    expect(
      promoteOptions({
        definition: '-odd/agent.json',
        to: 'composed',
        key: 'keyref:k',
        at: '2026-03-01T00:00:00Z',
        credential: '--x.json',
      }),
    ).toEqual({
      file: '-odd/agent.json',
      to: 'composed',
      format: 'text',
      key: 'keyref:k',
      at: '2026-03-01T00:00:00Z',
      credential: '--x.json',
    });
  });

  it('names the problem with an option that is not a string', () => {
    expect(promoteOptions({ definition: '', to: 'composed' })).toEqual({
      problem: 'the "definition" option is required',
    });
    expect(promoteOptions({ definition: 'a/agent.json', to: 'composed', key: 42 as never })).toEqual({
      problem: 'the "key" option must be a string',
    });
  });

  it('fails without a stage, before running anything', async () => {
    expect(promoteOptions({ definition: 'a/agent.json' })).toEqual({
      problem: 'name the stage: nx run <agent>:promote --to=<stage>',
    });
    const errors: string[] = [];
    const original = console.error;
    console.error = (text: string) => void errors.push(text);
    try {
      expect(await promoteExecutor({ definition: 'a/agent.json' }, { root: '/nonexistent' } as never)).toEqual({
        success: false,
      });
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain('--to=<stage>');
  });
});
