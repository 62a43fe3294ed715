/** A target's part loads through `require`, and through `import()` only when `require` finds no such module. */
import { describe, expect, it } from 'vitest';
import { loadLazily } from './lazy-module';
import { TARGETS } from './targets';

describe('loadLazily', () => {
  it('takes what require gives, without importing', async () => {
    let imported = false;
    await expect(
      loadLazily(
        () => 'required',
        async () => ((imported = true), 'imported'),
      ),
    ).resolves.toBe('required');
    expect(imported).toBe(false);
  });

  it('imports when require finds no such module (Vitest, which has no TypeScript hook for require)', async () => {
    const missing = Object.assign(new Error("Cannot find module './emit'"), { code: 'MODULE_NOT_FOUND' });
    await expect(
      loadLazily(
        () => {
          throw missing;
        },
        async () => 'imported',
      ),
    ).resolves.toBe('imported');
  });

  it('never retries a module that failed while loading: its own error reaches the caller', async () => {
    let imported = false;
    const broken = Object.assign(new Error('boom while evaluating'), { code: 'ERR_SOMETHING' });
    await expect(
      loadLazily(
        () => {
          throw broken;
        },
        async () => ((imported = true), 'imported'),
      ),
    ).rejects.toBe(broken);
    await expect(
      loadLazily(
        () => {
          throw new TypeError('no code');
        },
        async () => ((imported = true), 'imported'),
      ),
    ).rejects.toThrow('no code');
    expect(imported).toBe(false);
  });

  it('loads a real part of each target from source (the table’s loaders resolve)', async () => {
    for (const target of TARGETS) {
      expect((await target.adapter()).target).toBe(target.id);
      expect(typeof (await target.serve())).toBe('function');
      expect(typeof (await target.deploy())).toBe('function');
      expect(typeof (await target.needs())).toBe('function');
    }
  });
});
