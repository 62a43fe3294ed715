/** The eval executor's options: checked, handed to the eval operation, the recordings replayed only where they are. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evalOptions } from './executor';

const root = mkdtempSync(join(tmpdir(), 'agentdef-eval-executor-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('evalOptions', () => {
  it('passes its options on, and replays the recordings folder only when it exists', () => {
    mkdirSync(join(root, 'agents/a/recordings'), { recursive: true });
    expect(
      evalOptions(
        {
          definition: 'agents/a/agent.json',
          out: 'dist/eval/a',
          replay: 'agents/a/recordings',
          threshold: 0.8,
          concurrency: 2,
          cases: ['agents/a/evals/*.yaml'],
        },
        root,
      ),
    ).toEqual({
      definition: 'agents/a/agent.json',
      out: 'dist/eval/a',
      replay: 'agents/a/recordings',
      threshold: 0.8,
      concurrency: 2,
      cases: ['agents/a/evals/*.yaml'],
    });
    expect(evalOptions({ definition: 'agents/b/agent.json', replay: 'agents/b/recordings' }, root)).toEqual({
      definition: 'agents/b/agent.json',
    });
    // --record wins over the target's replay folder.
    expect(
      evalOptions({ definition: 'agents/a/agent.json', replay: 'agents/a/recordings', record: 'rec' }, root),
    ).toEqual({ definition: 'agents/a/agent.json', record: 'rec' });
  });

  it('names the option that is wrong', () => {
    expect(evalOptions({ definition: '' }, root)).toEqual({ problem: 'the "definition" option is required' });
    expect(evalOptions({ definition: 'a.json', threshold: '1' as never }, root)).toEqual({
      problem: 'the "threshold" option must be a number',
    });
    expect(evalOptions({ definition: 'a.json', cases: 'x' as never }, root)).toEqual({
      problem: 'the "cases" option must be a list of file paths or globs',
    });
  });
});
