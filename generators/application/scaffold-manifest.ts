/**
 * What `nx g agentdef:application` writes, as pure functions: the options checked and turned into
 * a plan (`planApplicationScaffold`), and the manifest for that plan (`scaffoldManifest`).
 *
 * The manifest: an `agentdef.input` node `request` (the caller's `{ "question": "…" }`), an
 * `agentdef.prompt-template` node `prompt` filling `{{question}}`, one `agentdef.registered-agent`
 * node per agent (`agent-1`, `agent-2`…) fanned out from the template's `prompt`, and one
 * `agentdef.output` per agent (`result-<n>`, returned as `plan-<n>`). The catalog and
 * adapter-policy digests are the built-in catalog's, the source URI is `workspace:/<path of the
 * file>`, and `source.sha256` is `digestApplicationManifestSource` of the result, so the file is
 * valid as written. Beside it, `inputs.json` holds a sample question: the entrypoint values
 * `agentdef application check` runs its offline dry-run with.
 *
 * Node ids and output names are numbered, never the agents' slugs: a plan names its nodes, and the
 * check's privacy search would take a slug (a configuration value) found in the plan for a leak.
 * Nothing here reads a file or throws.
 */
import {
  APPLICATION_INVOCATION,
  APPLICATION_MANIFEST_SCHEMA_VERSION,
} from '../../plugin/application/manifest-validate';
import { BUILTIN_REVISION } from '../../plugin/application/builtin-components';
import type { ComponentCatalog } from '../../plugin/application/catalog';
import { digestApplicationManifestSource } from '../../plugin/application/source-digest';
import { checkSourceUri } from '../../plugin/application/source-uri';
import { folderPath, type Outcome } from '../../plugin/definition/scaffold';
import { isExactSemver, isSlug, SLUG_MAX_LENGTH } from '../../plugin/definition/workspace-definitions';
import type { ApplicationManifest } from '../../plugin/schema/generated/application-manifest.types';
import { APPLICATION_INPUTS_FILE } from '../../plugin/operations/application-inputs';

/** The file every generated application is written to, in its own folder. */
export const APPLICATION_FILE = 'application.json';

export const DEFAULT_REVISION = '0.1.0';

export interface ApplicationScaffoldOptions {
  /** The application id, or a folder path whose last segment is the id. */
  name: string;
  /** The folder that receives `<name>/application.json` (default: the workspace root). */
  directory?: string;
  /** The composed agents: `slug@version`, comma-separated. */
  agents: string;
  /** The application's exact revision (default 0.1.0). */
  revision?: string;
}

export interface AgentRef {
  slug: string;
  version: string;
}

export interface ApplicationScaffoldPlan {
  id: string;
  revision: string;
  /** The folder of the manifest, workspace-relative posix. */
  directory: string;
  /** The manifest, workspace-relative posix. */
  file: string;
  agents: AgentRef[];
}

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const problem = <T>(message: string): Outcome<T> => ({ ok: false, problem: message });

/** `slug@version,slug@version` with exact versions, each pair once, at least one. */
export function parseAgentRefs(value: unknown): Outcome<AgentRef[]> {
  if (typeof value !== 'string' || value.trim() === '') {
    return problem(
      'name the agents to compose: --agents=<slug>@<version>[,<slug>@<version>…], e.g. --agents=summarizer@0.1.0',
    );
  }
  const refs: AgentRef[] = [];
  for (const raw of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = raw.lastIndexOf('@');
    const slug = at > 0 ? raw.slice(0, at) : raw;
    const version = at > 0 ? raw.slice(at + 1) : '';
    if (!isSlug(slug) || !isExactSemver(version)) {
      return problem(`--agents entry "${raw}" must be slug@version with an exact version, e.g. summarizer@0.1.0`);
    }
    if (refs.some((r) => r.slug === slug && r.version === version))
      return problem(`--agents names "${raw}" twice: each agent appears once`);
    refs.push({ slug, version });
  }
  if (refs.length === 0) return problem('name at least one agent: --agents=<slug>@<version>');
  return ok(refs);
}

/** Checks the options in the order the generator reports them. */
export function planApplicationScaffold(options: ApplicationScaffoldOptions): Outcome<ApplicationScaffoldPlan> {
  const given = folderPath(String(options.name ?? ''), 'name');
  if (!given.ok) return given;
  const id = given.value === '.' ? '' : (given.value.split('/').pop() ?? '');
  if (!isSlug(id) || id.length > SLUG_MAX_LENGTH) {
    return problem(
      `the application id "${id}" (the last segment of the name) must be lowercase kebab-case: letters a-z, digits and single hyphens, 1-${SLUG_MAX_LENGTH} characters`,
    );
  }
  const base = options.directory === undefined ? ok('.') : folderPath(options.directory, 'directory');
  if (!base.ok) return base;
  const directory = base.value === '.' ? given.value : `${base.value}/${given.value}`;
  const file = `${directory}/${APPLICATION_FILE}`;
  const uri = checkSourceUri(`workspace:/${file}`);
  if (!uri.ok) {
    return problem(
      `${file} cannot be named by a workspace source URI (${uri.reason}); use folder names of lowercase letters and digits, joined by single ".", "_" or "-"`,
    );
  }
  const revision = options.revision ?? DEFAULT_REVISION;
  if (typeof revision !== 'string' || !isExactSemver(revision))
    return problem(`--revision "${String(revision)}" must be an exact semantic version such as 0.1.0`);
  const agents = parseAgentRefs(options.agents);
  if (!agents.ok) return agents;
  return ok({ id, revision, directory, file, agents: agents.value });
}

const component = (id: string) => ({ id, revision: BUILTIN_REVISION });

/** The entrypoint node, whose value is `{ "question": "…" }`, and the template variable it fills. */
export const ENTRYPOINT_NODE = 'request';
export const QUESTION_VARIABLE = 'question';

/** The manifest of `plan`, sealed with its source digest. */
export function scaffoldManifest(
  plan: ApplicationScaffoldPlan,
  catalog: Pick<ComponentCatalog, 'catalogDigest' | 'adapterPolicyDigest'>,
): Outcome<ApplicationManifest> {
  const numbered = plan.agents.map((agent, i) => ({
    agent,
    node: `agent-${i + 1}`,
    result: `result-${i + 1}`,
    output: `plan-${i + 1}`,
  }));
  const manifest: ApplicationManifest = {
    schemaVersion: APPLICATION_MANIFEST_SCHEMA_VERSION,
    id: plan.id,
    revision: plan.revision,
    source: { uri: `workspace:/${plan.file}`, sha256: '0'.repeat(64) },
    invocation: APPLICATION_INVOCATION,
    catalogDigest: catalog.catalogDigest,
    adapterPolicyDigest: catalog.adapterPolicyDigest,
    nodes: [
      {
        id: ENTRYPOINT_NODE,
        component: component('agentdef.input'),
        config: {
          description: `The caller's input: an object with the ${QUESTION_VARIABLE}, { "${QUESTION_VARIABLE}": "..." }`,
        },
      },
      {
        id: 'prompt',
        component: component('agentdef.prompt-template'),
        config: {
          template: `{{${QUESTION_VARIABLE}}}`,
          variables: [QUESTION_VARIABLE],
          description: 'The prompt every agent is planned with.',
        },
      },
      ...numbered.map(({ agent, node }) => ({
        id: node,
        component: component('agentdef.registered-agent'),
        config: { slug: agent.slug, version: agent.version },
      })),
      ...numbered.map(({ result }) => ({ id: result, component: component('agentdef.output'), config: {} })),
    ],
    edges: [
      { from: { node: ENTRYPOINT_NODE, port: 'value' }, to: { node: 'prompt', port: 'vars' } },
      ...numbered.map(({ node }) => ({ from: { node: 'prompt', port: 'prompt' }, to: { node, port: 'prompt' } })),
      ...numbered.map(({ node, result }) => ({ from: { node, port: 'plan' }, to: { node: result, port: 'value' } })),
    ],
    entrypoints: [{ node: ENTRYPOINT_NODE, port: 'value' }],
    outputs: numbered.map(({ result, output }) => ({
      name: output,
      node: result,
      port: 'value',
    })) as ApplicationManifest['outputs'],
    bounds: { maxSteps: Math.max(16, 2 + 2 * plan.agents.length), maxRuntimeMs: 60_000, maxOutputBytes: 1_048_576 },
  };
  const digest = digestApplicationManifestSource(manifest);
  if (!digest.ok) return problem(`the manifest has no source digest: ${digest.reason}`);
  manifest.source.sha256 = digest.sha256;
  return ok(manifest);
}

/** The file of sample entrypoint values beside the manifest, which `check` and `execute` read when no option names others. */
export const INPUTS_FILE = APPLICATION_INPUTS_FILE;

/** The sample entrypoint values: one question for the entrypoint. */
export function sampleInputsText(): string {
  return `${JSON.stringify([{ node: ENTRYPOINT_NODE, port: 'value', value: { [QUESTION_VARIABLE]: 'What should this application answer?' } }], null, 2)}\n`;
}

/** The manifest as written: two-space JSON and a final newline. */
export function manifestText(manifest: ApplicationManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
