/**
 * Test support for the application host: a temp workspace holding a copy of the repository's
 * examples (agents, applications and the approved-artifacts folder), a host over it with the
 * reference gateway, and helpers to edit and re-seal the example manifest in place.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApplicationService, EntrypointValue } from '../application-service';
import { type ApplicationHostOptions, createApplicationHost } from '../application-host';
import type { GatewayOwner } from '../gateway-owner';
import { createLocalGatewayOwner } from '../local-gateway-owner';
import { sealed } from './application-manifests';

export const EXAMPLE_MANIFEST = 'examples/applications/release-brief/application.json';
export const ARTIFACTS_FOLDER = 'examples/applications/approved-artifacts';
export const EXAMPLE_INPUTS: EntrypointValue[] = [
  { node: 'request', port: 'value', value: { topic: 'application composition' } },
];

export function exampleWorkspace(prefix = 'agentdef-app-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(__dirname, '..', '..', '..', 'examples'), join(root, 'examples'), { recursive: true });
  return root;
}

export function localGateway(root: string): GatewayOwner {
  const opened = createLocalGatewayOwner({ workspaceRoot: root, folder: ARTIFACTS_FOLDER });
  if (!opened.ok) throw new Error(opened.message);
  return opened.gateway;
}

export async function openHost(
  root: string,
  options: Partial<ApplicationHostOptions> = {},
): Promise<ApplicationService> {
  const opened = await createApplicationHost({ workspaceRoot: root, gateway: localGateway(root), ...options });
  if (!opened.ok) throw new Error(opened.message);
  return opened.service;
}

export function readManifest(root: string, file = EXAMPLE_MANIFEST): any {
  return JSON.parse(readFileSync(join(root, file), 'utf8'));
}

/** Edits the manifest at `file`, re-seals its source digest and writes it back. */
export function editManifest(root: string, edit: (manifest: any) => void, file = EXAMPLE_MANIFEST): void {
  const manifest = readManifest(root, file);
  edit(manifest);
  writeFileSync(join(root, file), `${JSON.stringify(sealed(manifest), null, 2)}\n`);
}
