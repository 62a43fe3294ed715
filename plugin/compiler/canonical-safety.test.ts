/**
 * The canonicaliser's safety net: should a value it cannot encode ever reach a digest (the
 * parsers refuse unpaired surrogates, so only a bug or a long-lived host's cache could carry
 * one), planning reports a located `canonical-json` diagnostic (exit 1), never an internal error.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDefinitionSource } from '../definition/validate-definition';
import { planAgent } from './compile';
import type { DefinitionCache } from './resolve';

const REPO = join(__dirname, '..', '..');

describe('a value with no canonical form reaching plan', () => {
  it('is a canonical-json diagnostic naming where it is, not an internal error', async () => {
    const child = 'examples/write-router/agent.json';
    const text = readFileSync(join(REPO, child), 'utf8');
    const loaded = validateDefinitionSource(text, child, 'json');
    expect(loaded.valid).toBe(true);
    // Poison what a long-lived host's cache holds for write-router.
    (loaded.definition as unknown as { metadata: { description: string } }).metadata.description = 'x\ud800';
    const cache: DefinitionCache = new Map([
      [`${child}\u0000${createHash('sha256').update(text).digest('hex')}`, loaded],
    ]);
    const result = await planAgent({
      file: join(REPO, 'examples/edit-assistant/agent.json'),
      workspaceRoot: REPO,
      definitionCache: cache,
    });
    expect(result.ioError).toBeUndefined();
    expect(result.plan).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        rule: 'canonical-json',
        severity: 'error',
        path: '/metadata/description',
        file: 'examples/edit-assistant/agent.json',
      }),
    ]);
    expect(result.diagnostics[0]!.message).toContain('unpaired UTF-16 surrogate');
    expect(result.diagnostics[0]!.message).not.toContain('\ud800');
  });
});
