/**
 * Test fixtures for the application MCP tools: two sealed manifests made against the real
 * built-in catalog digests, and a temporary workspace that holds them with an approved-artifacts
 * folder for the reference gateway (local-gateway-owner.ts).
 *
 * - `greeter` (JSON): input `who` → prompt template → output `greeting`. No side effect.
 * - `publisher` (YAML): input `request` → approved artifact (the gateway) → output `artifact`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApplicationManifest } from '../../schema/generated/application-manifest.types';
import { builtinCatalog } from '../catalog';
import { APPROVALS_FILE, APPROVALS_SCHEMA_VERSION } from '../local-gateway-owner';
import { APPLICATION_INVOCATION } from '../manifest-validate';
import { asText, sealed } from './application-manifests';

export const GREETER_PATH = 'applications/greeter/application.json';
export const PUBLISHER_PATH = 'applications/publisher/application.yaml';
export const ARTIFACTS_FOLDER = 'approved-artifacts';
export const ARTIFACT_FILE = 'release-notes.md';
export const ARTIFACT_TEXT = '# Release notes\n\n- The application MCP tools.\n';
export const ARTIFACT_DIGEST = createHash('sha256').update(ARTIFACT_TEXT).digest('hex');
export const ARTIFACT_CAPABILITY = 'release-notes.publish';

const BOUNDS = { maxSteps: 8, maxRuntimeMs: 30_000, maxOutputBytes: 65_536 };

function envelope(
  id: string,
  path: string,
): Omit<ApplicationManifest, 'nodes' | 'edges' | 'entrypoints' | 'outputs' | 'bounds'> {
  const catalog = builtinCatalog();
  return {
    schemaVersion: 'agentdef.application-manifest/v1',
    id,
    revision: '1.0.0',
    source: { uri: `workspace:/${path}`, sha256: '0'.repeat(64) },
    invocation: APPLICATION_INVOCATION,
    catalogDigest: catalog.catalogDigest,
    adapterPolicyDigest: catalog.adapterPolicyDigest,
  } as Omit<ApplicationManifest, 'nodes' | 'edges' | 'entrypoints' | 'outputs' | 'bounds'>;
}

/** `who` (an object with `name`) → `greeting` ("Hello {{name}}") → output `greeting`. */
export function greeterManifest(template = 'Hello {{name}}'): ApplicationManifest {
  return sealed({
    ...envelope('greeter', GREETER_PATH),
    nodes: [
      { id: 'who', component: { id: 'agentdef.input', revision: '1.0.0' }, config: { description: 'who to greet' } },
      {
        id: 'greeting',
        component: { id: 'agentdef.prompt-template', revision: '1.0.0' },
        config: { template, variables: ['name'] },
      },
      { id: 'result', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} },
    ],
    edges: [
      { from: { node: 'who', port: 'value' }, to: { node: 'greeting', port: 'vars' } },
      { from: { node: 'greeting', port: 'prompt' }, to: { node: 'result', port: 'value' } },
    ],
    entrypoints: [{ node: 'who', port: 'value' }],
    outputs: [{ name: 'greeting', node: 'result', port: 'value' }],
    bounds: BOUNDS,
  } as ApplicationManifest);
}

/** `request` → `publish` (the approved release notes, through the gateway) → output `artifact`. */
export function publisherManifest(): ApplicationManifest {
  return sealed({
    ...envelope('publisher', PUBLISHER_PATH),
    nodes: [
      { id: 'request', component: { id: 'agentdef.input', revision: '1.0.0' }, config: {} },
      {
        id: 'publish',
        component: { id: 'agentdef.approved-artifact', revision: '1.0.0' },
        config: { artifactDigest: ARTIFACT_DIGEST, capability: ARTIFACT_CAPABILITY },
      },
      { id: 'result', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} },
    ],
    edges: [
      { from: { node: 'request', port: 'value' }, to: { node: 'publish', port: 'request' } },
      { from: { node: 'publish', port: 'artifact' }, to: { node: 'result', port: 'value' } },
    ],
    entrypoints: [{ node: 'request', port: 'value' }],
    outputs: [{ name: 'artifact', node: 'result', port: 'value' }],
    bounds: BOUNDS,
  } as ApplicationManifest);
}

/** Writes both manifests and the approved-artifacts folder into `root` (an empty folder). */
export function writeMcpWorkspace(root: string): void {
  writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'mcp-fixture', private: true }, null, 2)}\n`);
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(GREETER_PATH, asText(greeterManifest(), 'json'));
  write(PUBLISHER_PATH, asText(publisherManifest(), 'yaml'));
  write(join(ARTIFACTS_FOLDER, ARTIFACT_FILE), ARTIFACT_TEXT);
  write(
    join(ARTIFACTS_FOLDER, APPROVALS_FILE),
    `${JSON.stringify(
      {
        schemaVersion: APPROVALS_SCHEMA_VERSION,
        approvals: [
          {
            artifactDigest: ARTIFACT_DIGEST,
            capability: ARTIFACT_CAPABILITY,
            file: ARTIFACT_FILE,
            mediaType: 'text/markdown',
            live: 'approved',
          },
        ],
      },
      null,
      2,
    )}\n`,
  );
}
