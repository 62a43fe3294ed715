/** memory-egress: chat memory that may not leave the host goes to no remote model pin. */
import { describe, expect, it } from 'vitest';
import { memoryEgressRule as rule } from './memory-egress';
import { EXAMPLE_FILES, loadExample, runRule, summarize } from './test-support';

describe('memory-egress', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('keeps local-notes conversation on the host: its chat memory is not egress-allowed and its pin is local', () => {
    const def = loadExample('local-notes');
    expect(def.memoryContract.refs.some((r) => r.kind === 'chat' && !r.egressAllowed)).toBe(true);
    expect(def.modelSet.every((p) => p.tier === 'local')).toBe(true);
    expect(runRule(rule, def)).toEqual([]);
  });

  it('refuses a remote pin that would receive a chat memory with egressAllowed: false, at the pin', () => {
    const def = loadExample('write-router');
    const chat = def.memoryContract.refs.findIndex((r) => r.kind === 'chat');
    def.memoryContract.refs[chat]!.egressAllowed = false;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual(
      def.modelSet.map((_, i) => ({ path: `/modelSet/${i}`, code: 'agent_definition_invalid', severity: 'error' })),
    );
    expect(findings[0]?.message).toContain(`memoryContract.refs[${chat}]`);
  });

  it('refuses a local agent that adds a remote pin', () => {
    const def = loadExample('local-notes');
    def.modelSet.push({
      ...def.modelSet[0]!,
      role: 'evaluator',
      providerId: 'openai',
      modelId: 'gpt-4o-mini',
      tier: 'small',
    });
    expect(runRule(rule, def).map((f) => f.path)).toEqual([`/modelSet/${def.modelSet.length - 1}`]);
  });

  it('ignores memory kinds the runtime does not send to models', () => {
    const def = loadExample('web-summarizer');
    expect(def.memoryContract.refs.every((r) => r.kind !== 'chat' && !r.egressAllowed)).toBe(true);
    expect(runRule(rule, def)).toEqual([]);
  });
});
