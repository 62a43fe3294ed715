/**
 * Where no symbolic link can be made (Windows without the privilege), the validated-definition
 * store keeps each entry as a regular file holding the digest, and reads those as it reads links:
 * `symlinkSync` made to fail for this file's process, the store filled, then a plan from it.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { planAgent } from './compile';
import { serializePlan } from './plan';
import { agent, tempWorkspace, type TempWorkspace } from './test-support';
import { openValidatedDefinitionStore } from './validated-definition-store';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    symlinkSync: vi.fn(() => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    }),
  };
});

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

describe('the validated-definition store where no link can be made', () => {
  it('keeps entries as files holding the digest, and plans from them as from links', async () => {
    ws = tempWorkspace({
      'agents/root/agent.json': agent('root', '1.0.0', { nodes: [['child', '1.0.0']] }),
      'agents/child/agent.json': agent('child', '1.0.0'),
    });
    const folder = join(ws.root, '.nx', 'workspace-data', 'agentdef-validated-definitions');
    const plan = async () => {
      const store = openValidatedDefinitionStore(folder, '9.9.9-test');
      const result = await planAgent({
        file: 'agents/root/agent.json',
        workspaceRoot: ws!.root,
        validatedDefinitions: store,
      });
      store.save();
      return result;
    };
    const without = await planAgent({ file: 'agents/root/agent.json', workspaceRoot: ws.root });
    const first = await plan();
    expect(serializePlan(first.plan!)).toBe(serializePlan(without.plan!));
    expect(vi.mocked(fs.symlinkSync)).toHaveBeenCalled();
    const names = fs.readdirSync(folder).sort();
    expect(names).toHaveLength(2);
    for (const name of names) {
      expect(fs.lstatSync(join(folder, name)).isFile()).toBe(true);
      expect(fs.readFileSync(join(folder, name), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(fs.readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]); // no temp link left
    // The entries are read: rewritten, they show in the plan.
    for (const name of names) fs.writeFileSync(join(folder, name), 'c'.repeat(64));
    const fromStore = await plan();
    expect(fromStore.plan?.nodes.map((node) => node.digest)).toEqual(['c'.repeat(64), 'c'.repeat(64)]);
  });
});
