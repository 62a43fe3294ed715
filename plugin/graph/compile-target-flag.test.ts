import { afterEach, describe, expect, it } from 'vitest';
import { COMPILE_TARGET_ENV } from './compile-target-env';
import { compileTargetFromArgv, preTasksExecution } from './compile-target-flag';

const nx = (...args: string[]) => ['/usr/bin/node', '/ws/node_modules/nx/dist/bin/nx.js', ...args];

describe('compileTargetFromArgv', () => {
  it('reads --target from `nx run <project>:compile` in either spelling', () => {
    expect(compileTargetFromArgv(nx('run', 'leaf:compile', '--target=local-mac'), 'compile')).toBe('local-mac');
    expect(
      compileTargetFromArgv(nx('run', 'root:compile:production', '--target', 'hb3', '--skip-nx-cache'), 'compile'),
    ).toBe('hb3');
    expect(compileTargetFromArgv(nx('run', '--verbose', 'root:compile', '--target=hb3'), 'compile')).toBe('hb3');
  });

  it('reads it from the infix form `nx compile <project>`, and follows a renamed compile target', () => {
    expect(compileTargetFromArgv(nx('compile', 'leaf', '--target=hb3'), 'compile')).toBe('hb3');
    expect(compileTargetFromArgv(nx('build-agent', 'leaf', '--target=hb3'), 'build-agent')).toBe('hb3');
    expect(compileTargetFromArgv(nx('run', 'leaf:build-agent', '--target=hb3'), 'compile')).toBeUndefined();
  });

  it('reads it from the targets that compile first (`run`, `serve`), so their dependsOn compiles for that target', () => {
    expect(compileTargetFromArgv(nx('run', 'leaf:run', '--target=hb3'), 'compile', ['run', 'serve'])).toBe('hb3');
    expect(
      compileTargetFromArgv(nx('run', 'leaf:serve', '--target', 'local-mac', '--port=8080'), 'compile', [
        'run',
        'serve',
      ]),
    ).toBe('local-mac');
    expect(compileTargetFromArgv(nx('serve', 'leaf', '--target=hb3'), 'compile', ['run', 'serve'])).toBe('hb3');
    expect(compileTargetFromArgv(nx('run', 'leaf:run', '--target=hb3'), 'compile')).toBeUndefined();
    expect(
      compileTargetFromArgv(nx('run', 'leaf:promote', '--target=hb3'), 'compile', ['run', 'serve']),
    ).toBeUndefined();
  });

  it('ignores other targets, other commands, and arguments after --', () => {
    expect(compileTargetFromArgv(nx('run', 'leaf:plan', '--target=hb3'), 'compile')).toBeUndefined();
    expect(compileTargetFromArgv(nx('run-many', '-t', 'compile', '--target=hb3'), 'compile')).toBeUndefined();
    expect(compileTargetFromArgv(nx('affected', '--target=compile'), 'compile')).toBeUndefined();
    expect(compileTargetFromArgv(nx('run', 'leaf:compile'), 'compile')).toBeUndefined();
    expect(compileTargetFromArgv(nx('run', 'leaf:compile', '--', '--target=hb3'), 'compile')).toBeUndefined();
  });
});

describe('preTasksExecution', () => {
  const saved = process.env[COMPILE_TARGET_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[COMPILE_TARGET_ENV];
    else process.env[COMPILE_TARGET_ENV] = saved;
  });
  const context = (argv: string[]) => ({ id: 'x', workspaceRoot: '/ws', nxJsonConfiguration: {}, argv });

  it('hands the value to every task as AGENTDEF_COMPILE_TARGET, and resets it when absent', async () => {
    await preTasksExecution({}, context(nx('run', 'leaf:compile', '--target=local-mac')));
    expect(process.env[COMPILE_TARGET_ENV]).toBe('local-mac');
    await preTasksExecution({}, context(nx('run', 'leaf:compile')));
    expect(process.env[COMPILE_TARGET_ENV]).toBe('');
    await preTasksExecution(
      { targetNames: { compile: 'build-agent' } },
      context(nx('build-agent', 'leaf', '--target', 'hb3')),
    );
    expect(process.env[COMPILE_TARGET_ENV]).toBe('hb3');
  });

  it('hands on the --target of `run`, `serve` and `deploy` (their dependsOn compile must not fall back to auto)', async () => {
    await preTasksExecution({}, context(nx('run', 'leaf:run', '--target=hb3')));
    expect(process.env[COMPILE_TARGET_ENV]).toBe('hb3');
    await preTasksExecution({}, context(nx('run', 'leaf:serve', '--target=local-mac')));
    expect(process.env[COMPILE_TARGET_ENV]).toBe('local-mac');
    await preTasksExecution({}, context(nx('run', 'leaf:deploy', '--target=kubernetes', '--dry-run')));
    expect(process.env[COMPILE_TARGET_ENV]).toBe('kubernetes');
    await preTasksExecution({}, context(nx('run', 'leaf:plan', '--target=hb3')));
    expect(process.env[COMPILE_TARGET_ENV]).toBe('');
  });
});
