import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { lifecycleGatesRule as rule } from './lifecycle-gates';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

const error = (path: string) => ({ path, code: 'agent_definition_invalid', severity: 'error' });

function asTool(def: AgentDefinition): AgentDefinition {
  def.modelSet = [];
  def.telemetryContract.agenticGate = 'tool-only';
  def.telemetryContract.kymRegistrationRequired = false;
  return def;
}

describe('lifecycle-gates', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('tool-prototype: may leave receiptSigner null but must have no model', () => {
    const def = loadExample('text-stats');
    expect(runRule(rule, def)).toEqual([]);
    def.modelSet = baseDefinition().modelSet;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet')]);
    expect(findings[0]?.message).toMatch(/tool stage/);
  });

  it('tool-shipped: needs a receipt signer and no model', () => {
    const def = loadExample('text-stats');
    def.lifecycleState = 'tool-shipped';
    expect(runRule(rule, def)).toEqual([]);
    def.telemetryContract.receiptSigner = null;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/telemetryContract/receiptSigner')]);
    expect(findings[0]?.suggestion).toContain('"keyref:acme-receipts"');

    const withModel = loadExample('code-search');
    withModel.modelSet = baseDefinition().modelSet;
    expect(summarize(runRule(rule, withModel))).toEqual([error('/modelSet')]);
  });

  it('mcp-resident: needs at least one model and a receipt signer', () => {
    const def = asTool(loadExample('fallback-writer'));
    def.telemetryContract.receiptSigner = null;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/telemetryContract/receiptSigner'), error('/modelSet')]);
    expect(findings[1]?.message).toMatch(/agentic stage/);
  });

  it('kym-registered and later: need identity.kymRef', () => {
    for (const slug of ['splice-resolver', 'write-router', 'edit-assistant']) {
      const def = loadExample(slug);
      delete def.identity.kymRef;
      const findings = runRule(rule, def);
      expect(summarize(findings)).toEqual([error('/identity/kymRef')]);
      expect(findings[0]?.suggestion).toBe(
        `Add identity.kymRef: "kym://agents/${def.identity.slug}@${def.identity.versionSemver}".`,
      );
    }
  });

  it('mcp-resident does not need a kymRef yet', () => {
    const def = loadExample('fallback-writer');
    expect(def.identity.kymRef).toBeUndefined();
    expect(runRule(rule, def)).toEqual([]);
  });

  it('composed: needs a DAG', () => {
    const def = baseDefinition();
    def.composition = { kind: 'leaf' };
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/composition/kind')]);
    expect(findings[0]?.message).toContain('"leaf"');
  });

  it('marketplace-published: needs nandaFactsRef and cached AgentFacts', () => {
    const def = loadExample('edit-assistant');
    delete def.identity.nandaFactsRef;
    delete def.metadata.cardExports;
    expect(summarize(runRule(rule, def))).toEqual([
      error('/identity/nandaFactsRef'),
      error('/metadata/cardExports/agentFacts'),
    ]);
  });

  it('marketplace-published does not have to be a DAG', () => {
    const def = loadExample('web-summarizer');
    def.lifecycleState = 'marketplace-published';
    def.identity.nandaFactsRef = 'https://nanda.acme.dev/agentfacts/web-summarizer/2.0.0';
    def.metadata.cardExports = { agentFacts: { id: 'acme:web-summarizer' } };
    expect(runRule(rule, def)).toEqual([]);
  });

  it('reports every unmet gate at once', () => {
    const def = asTool(loadExample('edit-assistant'));
    def.telemetryContract.receiptSigner = null;
    delete def.identity.kymRef;
    delete def.identity.nandaFactsRef;
    def.metadata.cardExports = {};
    expect(runRule(rule, def).map((f) => f.path)).toEqual([
      '/telemetryContract/receiptSigner',
      '/modelSet',
      '/identity/kymRef',
      '/identity/nandaFactsRef',
      '/metadata/cardExports/agentFacts',
    ]);
  });
});
