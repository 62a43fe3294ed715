/**
 * Every URL-valued field of a definition is read by the same WHATWG URL parser the emitters and
 * the runtime use (plugin/runtime/endpoint-url.ts): a tool endpoint (an http(s) URL whose origin
 * joins the egress allow-list), the repository URL the card names as its provider's
 * (`metadata.provenance.repo`) and the AgentFacts reference (`identity.nandaFactsRef`, a URL or a
 * URN). A value the schema's pattern lets through but the parser refuses (`https://host^1.2.3`,
 * `https://[::1`, `http://host:99999`) is refused here, located, instead of failing an emit or a
 * host's start. Messages never repeat the value (a URL may carry a token).
 */
import { parseAbsoluteUrl, parseEndpointUrl, type ParsedUrl } from '../../runtime/endpoint-url';
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'url-fields';

function check(findings: Finding[], path: string, what: string, parsed: ParsedUrl): void {
  if (parsed.ok) return;
  findings.push({ rule: RULE, path, message: `${what} ${parsed.problem}.`, suggestion: `${parsed.suggestion}.` });
}

export const urlFieldsRule: SemanticRule = {
  name: RULE,
  description:
    'Tool endpoints are http(s) URLs, and metadata.provenance.repo and identity.nandaFactsRef absolute URLs, that the WHATWG URL parser of the emitters and the runtime accepts.',
  check(definition) {
    const findings: Finding[] = [];
    definition.toolInventory.forEach((tool, index) => {
      (tool.endpoints ?? []).forEach((endpoint, at) =>
        check(
          findings,
          `/toolInventory/${index}/endpoints/${at}`,
          `toolInventory[${index}].endpoints[${at}] of tool "${tool.id}"`,
          parseEndpointUrl(endpoint),
        ),
      );
    });
    check(
      findings,
      '/metadata/provenance/repo',
      'metadata.provenance.repo (the provider URL of the agent card)',
      parseAbsoluteUrl(definition.metadata.provenance.repo),
    );
    if (definition.identity.nandaFactsRef !== undefined)
      check(
        findings,
        '/identity/nandaFactsRef',
        'identity.nandaFactsRef',
        parseAbsoluteUrl(definition.identity.nandaFactsRef),
      );
    return findings;
  },
};
