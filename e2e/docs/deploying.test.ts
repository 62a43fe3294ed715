/**
 * docs/deploying.md, every command as written, in order (e2e/support/doc-page.ts), in a scratch
 * workspace holding the repository's examples (e2e/support/doc-workspace.ts): one example per
 * target compiled, the dry run of each (wrangler's own for the Worker, the image commands and job
 * specs for HB3, the service file's place for the launcher, the Secrets and the apply line for
 * Kubernetes, whose manifests the real `kubectl kustomize` builds) and through Nx, then the launcher's
 * service file installed and removed for real (in the test's HOME: `~/.config/systemd/user`; it
 * is not started). Each must print what the page shows. Left out, with the reason the page gives
 * next to them: the real Worker deploy (Cloudflare, the network), the image build and push to
 * a registry and the real `kubectl apply` (a cluster); what the page shows they print is checked against their dry runs instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPagePrinting, killLeftovers, missingShownLine, type Prints, shownBlock } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import type { TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';

const PAGE = docPageTest('e2e/docs/deploying.test.ts');
const SERVICE = '.config/systemd/user/agentdef-local-notes.service';
const WORKER_SECRETS = shownBlock(PAGE.path, 'secrets the Worker needs');
const HB3_PUSH = shownBlock(PAGE.path, 'HB3 image ghcr.io/acme/');
const KUBERNETES_DRY_RUN = shownBlock(PAGE.path, 'Kubernetes manifests from');

const PRINTS: readonly Prints[] = [
  {
    command: /^npx nx run-many -t compile --projects=web-summarizer,splice-resolver,local-notes/,
    prints: ['Successfully ran target compile for 3 projects'],
  },
  {
    command: /^npx agentdef deploy dist\/agents\/web-summarizer --dry-run/,
    prints: [
      'running: wrangler deploy --config dist/agents/web-summarizer/wrangler.jsonc --dry-run',
      'dry run: nothing was uploaded',
    ],
    shows: WORKER_SECRETS,
  },
  {
    command: /^npx agentdef deploy dist\/agents\/splice-resolver --dry-run/,
    prints: [
      /^HB3 image agentdef\/splice-resolver:0\.4\.2-[0-9a-f]{12} from dist\/agents\/splice-resolver$/m,
      '  dist/agents/splice-resolver/hb3-job.json',
      'dry run: nothing was built or pushed',
    ],
  },
  {
    command: /^npx agentdef deploy dist\/agents\/local-notes --dry-run/,
    prints: [
      /^dry run: would install the systemd service for local-notes at .*\/\.config\/systemd\/user\/agentdef-local-notes\.service/m,
    ],
  },
  {
    command: /^npx nx run web-summarizer:deploy --dry-run/,
    prints: ['dry run: nothing was uploaded', 'Successfully ran target deploy for project web-summarizer'],
  },
  {
    command: /^npx agentdef compile examples\/write-router\/agent\.json --target=kubernetes/,
    prints: [/^compiled write-router@1\.4\.0 for kubernetes .*kubernetes\/kustomization\.yaml/m],
  },
  {
    command: /^npx agentdef deploy dist\/agents\/write-router --dry-run/,
    prints: ['dry run: nothing was applied'],
    shows: KUBERNETES_DRY_RUN,
  },
  {
    command: /^kubectl kustomize dist\/agents\/write-router\/kubernetes/,
    prints: [
      'kind: Deployment',
      'kind: NetworkPolicy',
      'name: write-router-01-splice-resolver-0-4-2',
      'name: write-router-02-fallback-writer-1-1-0',
    ],
  },
  {
    command: /^npx nx run write-router:compile --target=kubernetes/,
    prints: ['Successfully ran target compile for project write-router'],
  },
  {
    command: /^npx nx run write-router:deploy --target=kubernetes --dry-run/,
    prints: [
      '  kubectl apply -k dist/agents/write-router/kubernetes',
      'dry run: nothing was applied',
      'Successfully ran target deploy for project write-router',
    ],
  },
  {
    command: /^npx agentdef deploy dist\/agents\/local-notes --allow-unregistered\s+#/,
    prints: [
      /^installed the systemd service for local-notes at .*\/\.config\/systemd\/user\/agentdef-local-notes\.service; load it with:$/m,
      'systemctl --user enable --now agentdef-local-notes.service',
    ],
  },
  {
    command: /^npx agentdef deploy dist\/agents\/local-notes --uninstall/,
    prints: [
      /^removed .*\/\.config\/systemd\/user\/agentdef-local-notes\.service; if the service was loaded, stop it with:$/m,
    ],
  },
];

describe('docs/deploying.md, every command as written in a scratch workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('deploying', { examples: true });
  });

  afterAll(() => killLeftovers());

  it('runs every dry run and the service file install and uninstall, each printing what the page shows', async () => {
    const installed: boolean[] = [];
    const results = await followPagePrinting(PAGE, ws, PRINTS, (result) => {
      if (
        /^npx agentdef deploy dist\/agents\/local-notes(\s|$)/.test(result.command) &&
        !result.command.includes('--dry-run')
      )
        installed.push(existsSync(join(ws.home, SERVICE)));
    });
    expect(results.filter((r) => r.skipped !== undefined).map((r) => r.command)).toEqual([
      'npx agentdef deploy dist/agents/web-summarizer',
      'npx agentdef deploy dist/agents/splice-resolver --registry ghcr.io/acme',
      'npx agentdef deploy dist/agents/write-router',
    ]);
    // Installed into the (test's) user folder, then removed again.
    expect(installed).toEqual([true, false]);
  });

  it('the image commands the page shows for --registry are the ones its dry run prints', () => {
    const r = spawnSync(
      'sh',
      ['-c', 'npx agentdef deploy dist/agents/splice-resolver --registry ghcr.io/acme --dry-run'],
      { cwd: ws.dir, env: ws.env, encoding: 'utf8' },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(missingShownLine(r.stdout, HB3_PUSH)).toBeUndefined();
  });
});
