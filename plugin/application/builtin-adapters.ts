/**
 * The adapters and owner resolvers of the five v1 built-in components: what runs a node of each,
 * in both modes. Their descriptors are read from the component definitions themselves
 * (builtin-components.ts), so they can never disagree with the catalog.
 *
 * - `agentdef.input` / `agentdef.output`: pass their `value` on unchanged.
 * - `agentdef.prompt-template`: fills each declared `{{name}}` from the member `name` of `vars`
 *   (a string as it is, anything else as its canonical JSON). A missing member, an undeclared
 *   placeholder, or `vars` that is not an object fails the step.
 * - `agentdef.registered-agent`: the zero-call owner. Plan time checks `slug@version` resolves to
 *   exactly one workspace definition and binds the digest of its compile plan (`planAgent`: it
 *   resolves, validates and chooses a runtime; it has no way to call a model). Execute plans it
 *   again and returns the agent plan's public metadata; it never calls a model, in either mode.
 * - `agentdef.approved-artifact`: delegates exactly once per step key to the injected gateway
 *   owner (gateway-owner.ts). Without one, planning reports that the host injected no gateway.
 */
import { isAbsolute } from 'node:path';
import type { Finding } from '../definition/diagnostic';
import { planAgent } from '../compiler/compile';
import { indexWorkspace, lookupWorkspace, type WorkspaceIndex } from '../compiler/workspace-index';
import { builtinComponents } from './builtin-components';
import {
  type AdapterCall,
  type AdapterOutcome,
  adapterDescriptorOf,
  type ComponentAdapter,
  type NodeCheck,
  type OwnerResolver,
} from './component-adapter';
import type { GatewayOwner } from './gateway-owner';
import { canonicalText, digestPlainJson, type JsonValue } from './stable-json';

export interface BuiltinAdapterOptions {
  /** Absolute: where registered agents are looked up. */
  readonly workspaceRoot: string;
  /** The host-injected gateway owner of `agentdef.approved-artifact`; absent: that component cannot be planned. */
  readonly gateway?: GatewayOwner;
}

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_-]{0,63})\}\}/g;
const BUILTIN_IMPLEMENTATION = 'agentdef.builtin/v1';

type Run = (call: AdapterCall) => Promise<AdapterOutcome>;

const passValue: Run = async (call) => ({ status: 'completed', outputs: { value: call.inputs.value ?? null } });

const fillTemplate: Run = async (call) => {
  const config = call.config as { template: string; variables?: string[] };
  const vars = call.inputs.vars;
  if (vars === null || typeof vars !== 'object' || Array.isArray(vars))
    return { status: 'failed', code: 'template-vars', message: 'the `vars` input must be an object of named values' };
  const declared = new Set(config.variables ?? []);
  let problem: string | undefined;
  const prompt = config.template.replace(PLACEHOLDER, (whole, name: string) => {
    if (declared.size > 0 && !declared.has(name))
      problem ??= `the placeholder \`${name}\` is not declared in \`variables\``;
    if (!Object.hasOwn(vars, name)) {
      problem ??= `the \`vars\` input has no member \`${name}\``;
      return whole;
    }
    const value = vars[name] as JsonValue;
    if (typeof value === 'string') return value;
    const text = canonicalText(value);
    return text.ok ? text.text : '';
  });
  if (problem !== undefined) return { status: 'failed', code: 'template-variable', message: problem };
  return { status: 'completed', outputs: { prompt } };
};

/** Plan time: with `variables` declared, every placeholder of the template is one of them. */
const checkTemplate = (config: JsonValue, pointer: string): NodeCheck => {
  const { template, variables } = config as { template: string; variables?: string[] };
  if (variables === undefined) return { findings: [] };
  const undeclared = [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))].filter(
    (name) => !variables.includes(name),
  );
  return {
    findings: undeclared.map((name) => ({
      rule: 'prompt-template',
      path: `${pointer}/template`,
      message: `the placeholder \`{{${name}}}\` is not declared in \`variables\``,
      suggestion: `add "${name}" to \`variables\`, or remove the placeholder`,
    })),
  };
};

/** The one workspace definition of `slug@version`, or why not. */
function lookupAgent(index: WorkspaceIndex, slug: string, version: string): { file: string } | { problem: string } {
  const hits = lookupWorkspace(index, slug, version);
  if (hits.length === 1) return { file: hits[0]!.file };
  if (hits.length === 0) {
    const known = (index.bySlug.get(slug) ?? []).map((e) => e.versionSemver);
    return {
      problem:
        known.length === 0
          ? `no agent definition in the workspace has slug \`${slug}\``
          : `the workspace has \`${slug}\` at ${known.join(', ')}, not at exactly ${version} (a newer revision is never selected implicitly)`,
    };
  }
  return {
    problem: `\`${slug}@${version}\` is defined by ${hits.length} files (${hits.map((h) => h.file).join(', ')}); one definition per version`,
  };
}

/** The zero-call plan of `slug@version`: its public metadata, or a problem. */
async function agentPlanOf(
  workspaceRoot: string,
  slug: string,
  version: string,
): Promise<{ ok: true; metadata: Record<string, JsonValue> } | { ok: false; message: string }> {
  const index = indexWorkspace(workspaceRoot);
  const found = lookupAgent(index, slug, version);
  if ('problem' in found) return { ok: false, message: found.problem };
  const planned = await planAgent({ file: found.file, workspaceRoot, index });
  if (planned.ioError !== undefined)
    return { ok: false, message: `\`${slug}@${version}\` cannot be planned: ${planned.ioError}` };
  const plan = planned.plan;
  if (plan === undefined) {
    const first = planned.diagnostics.find((d) => d.severity === 'error');
    const where = first ? ` (${first.file}:${first.line}:${first.column} ${first.rule})` : '';
    return { ok: false, message: `\`${slug}@${version}\` does not plan: run \`agentdef plan ${found.file}\`${where}` };
  }
  return {
    ok: true,
    metadata: {
      agent: { slug, version },
      planDigest: plan.digest,
      target: plan.target,
      runtimeCapabilityClass: plan.runtime.chosenClass,
      nodes: plan.nodes.length,
    },
  };
}

function registeredAgent(workspaceRoot: string): Pick<ComponentAdapter, 'checkConfig'> & { run: Run } {
  return {
    checkConfig: async (config, pointer): Promise<NodeCheck> => {
      const { slug, version } = config as { slug: string; version: string };
      const planned = await agentPlanOf(workspaceRoot, slug, version);
      if (!planned.ok) {
        return {
          findings: [
            {
              rule: 'registered-agent',
              path: pointer,
              message: planned.message,
              suggestion:
                'pin an exact `slug` and `version` of an agent definition in this workspace (`agentdef validate <dir>` lists them)',
            },
          ],
        };
      }
      return { findings: [], evidence: planned.metadata };
    },
    run: async (call) => {
      const { slug, version } = call.config as { slug: string; version: string };
      const planned = await agentPlanOf(workspaceRoot, slug, version);
      if (!planned.ok) return { status: 'failed', code: 'agent-plan', message: planned.message };
      const prompt = digestPlainJson(call.inputs.prompt ?? null);
      if (!prompt.ok) return { status: 'failed', code: 'agent-plan', message: 'the prompt is not plain JSON data' };
      // Zero-call: the agent's plan and the prompt's digest, never a model call and never the prompt itself.
      return {
        status: 'completed',
        outputs: { plan: { ...planned.metadata, promptDigest: prompt.sha256, modelCalls: 0 } },
      };
    },
  };
}

function approvedArtifact(gateway: GatewayOwner | undefined): Pick<ComponentAdapter, 'checkConfig'> & { run: Run } {
  return {
    checkConfig: async (config, pointer): Promise<NodeCheck> => {
      if (gateway === undefined) {
        return {
          findings: [
            {
              rule: 'gateway-owner',
              path: pointer,
              message: 'the host injected no gateway owner, so an approved external artifact cannot be planned',
              suggestion:
                'start the host with a gateway (for `agentdef mcp`: `--artifacts <folder>` with an approvals.json)',
            },
          ],
        };
      }
      const { artifactDigest, capability } = config as { artifactDigest: string; capability: string };
      const findings: Finding[] = [];
      if (!/^[0-9a-f]{64}$/.test(artifactDigest))
        findings.push({
          rule: 'approved-artifact',
          path: `${pointer}/artifactDigest`,
          message: '`artifactDigest` must be 64 lowercase hexadecimal characters',
        });
      else findings.push(...(await gateway.check(artifactDigest, capability, pointer)));
      return { findings, evidence: { artifactDigest, capability } };
    },
    run: async (call) => {
      if (gateway === undefined)
        return { status: 'failed', code: 'gateway-owner', message: 'the host injected no gateway owner' };
      const { artifactDigest, capability } = call.config as { artifactDigest: string; capability: string };
      return gateway.invoke({
        mode: call.mode,
        artifactDigest,
        capability,
        request: call.inputs.request ?? null,
        idempotencyKey: call.idempotencyKey,
        signal: call.signal,
        markDispatched: () => call.markDispatched(),
      });
    },
  };
}

/** The adapters of the five built-ins. */
export function builtinAdapters(options: BuiltinAdapterOptions): ComponentAdapter[] {
  const root = options.workspaceRoot;
  if (!isAbsolute(root)) throw new TypeError('builtinAdapters: workspaceRoot must be absolute');
  const agent = registeredAgent(root);
  const artifact = approvedArtifact(options.gateway);
  const behaviour: Record<string, Pick<ComponentAdapter, 'checkConfig'> & { run: Run }> = {
    'agentdef.input': { run: passValue },
    'agentdef.output': { run: passValue },
    'agentdef.prompt-template': { checkConfig: checkTemplate, run: fillTemplate },
    'agentdef.registered-agent': agent,
    'agentdef.approved-artifact': artifact,
  };
  return builtinComponents().map((definition) => {
    const own = behaviour[definition.id]!;
    return {
      ...adapterDescriptorOf(definition),
      ...(own.checkConfig ? { checkConfig: own.checkConfig } : {}),
      execute: own.run,
    };
  });
}

/** The owner resolvers of the five built-ins: agentdef's own owners, and the injected gateway. */
export function builtinOwnerResolvers(gateway: GatewayOwner | undefined): OwnerResolver[] {
  return builtinComponents().map((definition) => ({
    component: { id: definition.id, revision: definition.revision },
    owner: definition.owner.name,
    resolve: async () => {
      if (definition.owner.selection === 'builtin')
        return { ok: true, evidence: { owner: definition.owner.name, implementation: BUILTIN_IMPLEMENTATION } };
      if (gateway === undefined) return { ok: false, message: 'the host injected no gateway owner' };
      return gateway.evidence();
    },
  }));
}
