/**
 * Plans carry digests and public metadata only. Every example application is planned in both
 * modes (with its component host module when it has one) and its plan serialised; the text must
 * hold none of: a node's configuration values, template bodies, the approvals file's contents
 * (the gateway's transport-side settings), the artifacts' bytes, the entrypoint values, or
 * anything secret-shaped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHostModule } from '../../plugin/operations/open-application-host';
import { secretFindings } from '../../plugin/definition/rules/secrets';
import { createApplicationHost } from '../../plugin/application/application-host';
import {
  ARTIFACTS_FOLDER,
  exampleWorkspace,
  localGateway,
} from '../../plugin/application/__test-support__/application-workspace';

const root = exampleWorkspace('agentdef-app-privacy-');
const applications = readdirSync(join(root, 'examples/applications'), { withFileTypes: true })
  .filter(
    (entry) => entry.isDirectory() && existsSync(join(root, 'examples/applications', entry.name, 'application.json')),
  )
  .map((entry) => `examples/applications/${entry.name}`);

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value !== null && typeof value === 'object') for (const member of Object.values(value)) strings(member, out);
  return out;
}

describe('the plans of every example application', () => {
  it('covers at least the two examples', () => {
    expect(applications).toEqual(
      expect.arrayContaining(['examples/applications/release-brief', 'examples/applications/text-pack']),
    );
  });

  for (const folder of applications) {
    for (const mode of ['dry-run', 'live'] as const) {
      it(`${folder} (${mode}) carries digests and public metadata only`, async () => {
        const hostModule = join(folder, 'component-host.mjs');
        const packs = existsSync(join(root, hostModule)) ? await loadHostModule(root, root, hostModule) : undefined;
        if (packs !== undefined && !packs.ok) throw new Error(packs.message);
        const opened = await createApplicationHost({
          workspaceRoot: root,
          gateway: localGateway(root),
          ...(packs?.ok ? { packs: packs.packs } : {}),
        });
        if (!opened.ok) throw new Error(opened.message);
        const planned = await opened.service.plan({ manifest: { path: `${folder}/application.json` }, mode });
        expect(planned.ok, JSON.stringify(planned.diagnostics)).toBe(true);
        const text = JSON.stringify(planned.ok && planned.plan);

        const manifest = JSON.parse(readFileSync(join(root, folder, 'application.json'), 'utf8'));
        const forbidden = manifest.nodes
          .flatMap((node: { config: unknown }) => strings(node.config))
          .filter((s: string) => s.length >= 8);
        const inputs = join(root, folder, 'inputs.json');
        if (existsSync(inputs))
          forbidden.push(
            ...strings(JSON.parse(readFileSync(inputs, 'utf8')).map((i: { value: unknown }) => i.value)).filter(
              (s) => s.length >= 8,
            ),
          );
        const approvals = JSON.parse(readFileSync(join(root, ARTIFACTS_FOLDER, 'approvals.json'), 'utf8'));
        for (const approval of approvals.approvals) {
          forbidden.push(
            approval.file,
            approval.capability,
            readFileSync(join(root, ARTIFACTS_FOLDER, approval.file), 'utf8').trim(),
          );
        }
        expect(forbidden.length).toBeGreaterThan(2);
        for (const value of forbidden) expect(text, `the plan holds ${JSON.stringify(value)}`).not.toContain(value);
        expect(secretFindings(JSON.parse(text), 'a plan')).toEqual([]);
        await opened.service.close();
      });
    }
  }
});
