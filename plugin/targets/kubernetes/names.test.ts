/** Names and label values as Kubernetes allows them. */
import { describe, expect, it } from 'vitest';
import { dnsLabel, labelValue, secretsSecretName, standardLabels, taskStoreSecretName } from './names';

describe('names', () => {
  it('spells a version as a label value: OCI-like characters, at most 63, alphanumeric at both ends', () => {
    expect(labelValue('1.2.0+build.7')).toBe('1.2.0_build.7');
    expect(labelValue('1.0.0-rc.1')).toBe('1.0.0-rc.1');
    expect(labelValue(`1.0.0-${'a'.repeat(80)}`)).toHaveLength(63);
    expect(labelValue('1.0.0-x.-')).toBe('1.0.0-x');
  });

  it('names Secrets as DNS labels of at most 63 characters', () => {
    expect(secretsSecretName('write-router')).toBe('write-router-secrets');
    expect(taskStoreSecretName('write-router')).toBe('write-router-task-store');
    const long = dnsLabel(`${'a'.repeat(60)}-task-store`);
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/);
  });

  it('labels every object with the agent, its version and agentdef as the manager', () => {
    expect(standardLabels('write-router', '1.4.0+b.2')).toEqual({
      'app.kubernetes.io/managed-by': 'agentdef',
      'app.kubernetes.io/name': 'write-router',
      'app.kubernetes.io/version': '1.4.0_b.2',
    });
  });
});
