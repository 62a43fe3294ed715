import { describe, expect, it } from 'vitest';
import { MALFORMED_ENDPOINTS } from '../../runtime/__test-support__/malformed-urls';
import { urlFieldsRule as rule } from './url-fields';
import { EXAMPLE_FILES, loadExample, runRule } from './test-support';

describe('url-fields', () => {
  it('passes every example', () => {
    for (const slug of Object.keys(EXAMPLE_FILES)) expect(runRule(rule, loadExample(slug)), slug).toEqual([]);
  });

  it('reports each malformed tool endpoint at its pointer, with why and what to write, never the value', () => {
    for (const { url, problem } of MALFORMED_ENDPOINTS) {
      const def = loadExample('web-summarizer');
      def.toolInventory[0]!.endpoints = ['https://fetch.acme.dev', url];
      const findings = runRule(rule, def);
      expect(
        findings.map((f) => [f.rule, f.path]),
        url,
      ).toEqual([['url-fields', '/toolInventory/0/endpoints/1']]);
      expect(findings[0]!.message).toMatch(/^toolInventory\[0\]\.endpoints\[1\] of tool "web-fetch" is not a URL/);
      expect(findings[0]!.message).toMatch(problem);
      expect(findings[0]!.suggestion).toMatch(/^(write|give) .*\.$/);
      expect(`${findings[0]!.message}${findings[0]!.suggestion}`).not.toContain(url);
    }
  });

  it('reports a repository URL (the card provider URL) and an AgentFacts reference the parser refuses', () => {
    const def = loadExample('web-summarizer');
    def.metadata.provenance.repo = 'https://github.com^acme/agents';
    def.identity.nandaFactsRef = 'https://[nanda.example/facts';
    expect(runRule(rule, def).map((f) => f.path)).toEqual(['/metadata/provenance/repo', '/identity/nandaFactsRef']);
    def.metadata.provenance.repo = 'acme/agents';
    def.identity.nandaFactsRef = 'urn:nanda:facts:web-summarizer';
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual(['/metadata/provenance/repo']);
    expect(findings[0]!.message).toMatch(
      /metadata\.provenance\.repo \(the provider URL of the agent card\) is not a URL/,
    );
  });

  it('accepts the repository forms package.json names (git+https, git+ssh, ssh with a user, github:)', () => {
    for (const repo of [
      'git+https://github.com/acme/agents.git',
      'git+ssh://git@github.com/acme/agents.git',
      'ssh://git@github.com/acme/agents',
      'github:acme/agents',
    ]) {
      const def = loadExample('web-summarizer');
      def.metadata.provenance.repo = repo;
      expect(runRule(rule, def), repo).toEqual([]);
    }
  });
});
