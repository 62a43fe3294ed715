/** The promote executor: its options become `agentdef promote` arguments, values never read as flags. */
import { describe, expect, it } from 'vitest';
import promoteExecutor, { promoteArgv } from './executor';

describe('promote executor', () => {
  it('passes the stage and optional flags as --name=value, the definition last', () => {
    expect(promoteArgv({ definition: 'agents/a/agent.json', to: 'mcp-resident' })).toEqual(['promote', '--to=mcp-resident', 'agents/a/agent.json']);
    expect(promoteArgv({ definition: '-odd/agent.json', to: 'composed', key: 'keyref:k', at: '2026-03-01T00:00:00Z', credential: '--x.json' })).toEqual([
      'promote',
      '--to=composed',
      '--key=keyref:k',
      '--at=2026-03-01T00:00:00Z',
      '--credential=--x.json',
      './-odd/agent.json',
    ]);
  });

  it('fails without a stage, before running anything', async () => {
    expect(promoteArgv({ definition: 'a/agent.json' })).toEqual({ problem: 'name the stage: nx run <agent>:promote --to=<stage>' });
    const errors: string[] = [];
    const original = console.error;
    console.error = (text: string) => void errors.push(text);
    try {
      expect(await promoteExecutor({ definition: 'a/agent.json' }, { root: '/nonexistent' } as never)).toEqual({ success: false });
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain('--to=<stage>');
  });
});
