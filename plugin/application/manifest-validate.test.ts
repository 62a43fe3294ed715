import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../definition/diagnostic';
import {
  ADAPTER_POLICY_DIGEST,
  asText,
  CATALOG_DIGEST,
  edited,
  positionOf,
  sealed,
  TEST_CATALOG,
  validManifest,
} from './__test-support__/application-manifests';
import {
  APPLICATION_INVOCATION,
  controlFieldFindings,
  SOURCE_DIGEST_PLACEHOLDER,
  validateApplicationManifest,
  validateApplicationManifestText,
  validateApplicationManifestValue,
} from './manifest-validate';
import { digestApplicationManifestSource } from './source-digest';
import { stableApplicationJson } from './stable-json';

const FORMATS = ['json', 'yaml'] as const;

/** json: a string value starts at its quote, one character before its text; yaml: at the text. */
const shiftFor = (format: 'json' | 'yaml') => (format === 'json' ? -1 : 0);

function check(manifest: unknown, format: 'json' | 'yaml') {
  const text = asText(manifest, format);
  return {
    text,
    result: validateApplicationManifestText(text, `apps/triage/application.${format}`, format, {
      catalog: TEST_CATALOG,
    }),
  };
}

/** The one diagnostic of `rule` at `path`, failing the test when there is not exactly one. */
function only(result: ReturnType<typeof check>['result'], rule: string, path: string) {
  const found = result.diagnostics.filter((d) => d.rule === rule && d.path === path);
  expect(found, JSON.stringify(result.diagnostics, null, 2)).toHaveLength(1);
  return found[0]!;
}

describe('a valid application manifest', () => {
  for (const format of FORMATS) {
    it(`is valid in ${format}, with and without a catalog`, () => {
      const { result } = check(validManifest(), format);
      expect(result.diagnostics).toEqual([]);
      expect(result.valid).toBe(true);
      expect(result.manifest?.id).toBe('support-triage');
      const bare = validateApplicationManifestText(asText(validManifest(), format), `application.${format}`, format);
      expect(bare.diagnostics).toEqual([]);
    });
  }

  it('is valid as a value (an MCP argument), located in its pretty-printed canonical JSON', () => {
    expect(validateApplicationManifestValue(validManifest(), 'manifest.json', { catalog: TEST_CATALOG })).toMatchObject(
      { valid: true, diagnostics: [] },
    );
    const stale = validManifest();
    stale.bounds.maxSteps = 17;
    const result = validateApplicationManifestValue(stale);
    const d = only(result, 'source-digest', '/source/sha256');
    const canonical = stableApplicationJson(stale);
    if (!canonical.ok) throw new Error(canonical.reason);
    const pretty = JSON.stringify(JSON.parse(canonical.text), null, 2);
    expect(d).toMatchObject({ file: 'manifest.json', ...positionOf(pretty, `"${stale.source.sha256}"`) });
  });

  it('is valid as UTF-8 bytes', () => {
    const bytes = new TextEncoder().encode(asText(validManifest(), 'json'));
    expect(validateApplicationManifestText(bytes, 'application.json', 'json').valid).toBe(true);
  });
});

describe('values that are not plain JSON data', () => {
  it('are refused at their pointer, and no getter runs', () => {
    let ran = false;
    const manifest: any = validManifest();
    Object.defineProperty(manifest.nodes[1], 'config', {
      enumerable: true,
      get() {
        ran = true;
        return {};
      },
    });
    const result = validateApplicationManifestValue(manifest);
    expect(result.valid).toBe(false);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      rule: 'not-json',
      path: '/nodes/1/config',
      code: ERROR_CODES.applicationInvalid,
    });
    expect(ran).toBe(false);
  });

  it.each([
    ['a Date', new Date(0)],
    ['a function', () => 1],
    ['a bigint', 10n],
    ['NaN', Number.NaN],
    ['undefined', undefined],
  ])('%s in config is refused', (_name, value) => {
    const manifest: any = validManifest();
    manifest.nodes[0].config.x = value;
    expect(validateApplicationManifestValue(manifest)).toMatchObject({
      valid: false,
      diagnostics: [{ rule: 'not-json', path: '/nodes/0/config/x' }],
    });
  });

  it('a cycle is refused', () => {
    const manifest: any = validManifest();
    manifest.nodes[0].config.self = manifest.nodes[0].config;
    expect(validateApplicationManifestValue(manifest).diagnostics[0]?.rule).toBe('not-json');
  });
});

describe('parse-level problems', () => {
  it('report a manifest, not an AgentDefinition, and the manifest code', () => {
    const result = validateApplicationManifestText('[1, 2]', 'application.json', 'json');
    expect(result.valid).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({
      code: ERROR_CODES.applicationInvalid,
      rule: 'not-an-object',
      line: 1,
      column: 1,
    });
    expect(result.diagnostics[0]!.message).toMatch(/^an application manifest must be an object/);
  });

  it('locate a syntax error', () => {
    const result = validateApplicationManifestText('{\n  "id": "x",\n  "nodes": [,]\n}\n', 'application.json', 'json');
    expect(result.valid).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ code: ERROR_CODES.applicationInvalid, line: 3 });
  });

  it('refuse invalid UTF-8 bytes', () => {
    const result = validateApplicationManifestText(new Uint8Array([0x7b, 0xff, 0x7d]), 'application.json', 'json');
    expect(result.valid).toBe(false);
    expect(result.diagnostics[0]?.code).toBe(ERROR_CODES.applicationInvalid);
  });
});

describe('the JSON Schema', () => {
  for (const format of FORMATS) {
    it(`locates a range revision, an unknown field and a missing field (${format})`, () => {
      const manifest = edited((m) => {
        m.revision = '^1.0.0';
        m.nodes[2].component.revision = 'latest';
        m.outputs[0].label = 'x';
        delete m.bounds.maxRuntimeMs;
      });
      const { text, result } = check(manifest, format);
      expect(result.valid).toBe(false);
      expect(result.manifest).toBeUndefined();
      const revision = only(result, 'schema', '/revision');
      expect(revision.message).toMatch(/exact semantic version/);
      expect(revision).toMatchObject(positionOf(text, '^1.0.0', 1, format === 'json' ? -1 : 0));
      const latest = only(result, 'schema', '/nodes/2/component/revision');
      expect(latest).toMatchObject(positionOf(text, 'latest', 1, format === 'json' ? -1 : 0));
      const unknown = only(result, 'schema', '/outputs/0/label');
      expect(unknown.message).toBe('unknown field `label` in `/outputs/0`');
      expect(unknown).toMatchObject(positionOf(text, 'label', 1, format === 'json' ? -1 : 0));
      expect(only(result, 'schema', '/bounds').message).toMatch(/missing the required field `maxRuntimeMs`/);
      for (const d of result.diagnostics) expect(d.code).toBe(ERROR_CODES.applicationInvalid);
    });
  }

  it('requires the exact invocation tuple and names it in full', () => {
    const { result } = check(
      edited((m) => {
        m.invocation =
          '/application.compose #application-composition @application-manifest @component-catalog @integration-profile @runtime-proof @operator';
      }),
      'json',
    );
    const d = only(result, 'schema', '/invocation');
    expect(d.suggestion).toBe(`set it to ${JSON.stringify(APPLICATION_INVOCATION)}`);
  });

  it.each([
    ['an uppercase catalog digest', (m: any) => (m.catalogDigest = 'C'.repeat(64)), '/catalogDigest'],
    [
      'a short adapter-policy digest',
      (m: any) => (m.adapterPolicyDigest = ADAPTER_POLICY_DIGEST.slice(1)),
      '/adapterPolicyDigest',
    ],
    ['too many steps', (m: any) => (m.bounds.maxSteps = 1025), '/bounds/maxSteps'],
    ['a runtime over one hour', (m: any) => (m.bounds.maxRuntimeMs = 3_600_001), '/bounds/maxRuntimeMs'],
    ['zero output bytes', (m: any) => (m.bounds.maxOutputBytes = 0), '/bounds/maxOutputBytes'],
    ['a fractional bound', (m: any) => (m.bounds.maxSteps = 1.5), '/bounds/maxSteps'],
    ['a config that is not an object', (m: any) => (m.nodes[0].config = ['x']), '/nodes/0/config'],
    ['a node id with a slash', (m: any) => (m.nodes[0].id = 'a/b'), '/nodes/0/id'],
    ['a port with a space', (m: any) => (m.edges[0].from.port = 'va lue'), '/edges/0/from/port'],
    [
      'a component id with a scheme',
      (m: any) => (m.nodes[0].component.id = 'npm:agentdef.input'),
      '/nodes/0/component/id',
    ],
    ['no entrypoints', (m: any) => (m.entrypoints = []), '/entrypoints'],
    ['no outputs', (m: any) => (m.outputs = []), '/outputs'],
    ['another schema version', (m: any) => (m.schemaVersion = 'agentdef.application-manifest/v2'), '/schemaVersion'],
  ])('refuses %s, located', (_name, edit, path) => {
    const { result } = check(edited(edit), 'json');
    expect(result.valid).toBe(false);
    expect(
      result.diagnostics.filter((d) => d.path === path).length,
      JSON.stringify(result.diagnostics),
    ).toBeGreaterThan(0);
  });
});

describe('control fields', () => {
  for (const format of FORMATS) {
    it(`are refused three levels down, at the key (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes[1].component.command = 'rm -rf /';
        m.bounds.limits = { transport: { headers: { 'x-trace': '1' } } };
      });
      const { text, result } = check(manifest, format);
      expect(result.valid).toBe(false);
      const command = only(result, 'control-field', '/nodes/1/component/command');
      expect(command.message).toMatch(/control field \(command\)/);
      expect(command).toMatchObject(positionOf(text, 'command', 1, format === 'json' ? -1 : 0));
      // The schema's "unknown field" is not reported a second time for the same key.
      expect(result.diagnostics.filter((d) => d.path === '/nodes/1/component/command')).toHaveLength(1);
      const transport = only(result, 'control-field', '/bounds/limits/transport');
      expect(transport).toMatchObject(positionOf(text, 'transport', 1, format === 'json' ? -1 : 0));
      const headers = only(result, 'control-field', '/bounds/limits/transport/headers');
      expect(headers.message).toMatch(/\(header\)/);
      expect(headers).toMatchObject(positionOf(text, 'headers', 1, format === 'json' ? -1 : 0));
      // `limits` is no control field, but the schema still refuses it as unknown.
      expect(only(result, 'schema', '/bounds/limits').message).toMatch(/unknown field `limits`/);
    });
  }

  it("exempt the schema's own members at their place only: `source.uri` is fine, `uri` on a node is not", () => {
    const { result } = check(
      edited((m) => {
        m.nodes[0].uri = 'workspace:/x';
      }),
      'json',
    );
    expect(only(result, 'control-field', '/nodes/0/uri').message).toMatch(/\(endpoint\)/);
    expect(result.diagnostics.some((d) => d.path === '/source/uri')).toBe(false);
  });

  it('are refused inside arrays and unknown subtrees, in every spelling', () => {
    const { result } = check(
      edited((m) => {
        m.edges[0].meta = [{ x: { API_KEY: 'a' } }, { 'on-callback': 'b', Environment: {} }];
      }),
      'json',
    );
    const paths = result.diagnostics.filter((d) => d.rule === 'control-field').map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/edges/0/meta/0/x/API_KEY',
        '/edges/0/meta/1/on-callback',
        '/edges/0/meta/1/Environment',
      ]),
    );
  });

  it("are not looked for inside a node's config by the envelope, but controlFieldFindings finds them there for built-in components", () => {
    const manifest = edited((m) => {
      m.nodes[1].config = { template: 'x', options: { deeper: { webhookUrl: 'workspace:/y' } } };
    });
    const { result } = check(manifest, 'json');
    expect(result.diagnostics).toEqual([]);
    const findings = controlFieldFindings(manifest.nodes[1]!.config, '/nodes/1/config');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: 'control-field',
      path: '/nodes/1/config/options/deeper/webhookUrl',
      at: 'key',
      code: ERROR_CODES.applicationInvalid,
    });
  });

  it('controlFieldFindings never throws on hostile values and visits shared objects once', () => {
    const shared = { cmd: 1 };
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    const cyclic: any = { a: shared, b: shared, trap: hostile };
    cyclic.self = cyclic;
    const findings = controlFieldFindings(cyclic, '/x');
    expect(findings.map((f) => f.path)).toEqual(['/x/a/cmd']);
    expect(controlFieldFindings(null)).toEqual([]);
    expect(controlFieldFindings('password')).toEqual([]);
  });

  it('a control field whose name looks like a credential is reported without the name', () => {
    const secretName = `sk-ant-api03-${'A'.repeat(40)}`;
    const { result } = check(
      edited((m) => {
        m.bounds.extra = { [`token_${secretName}`]: 1 };
      }),
      'json',
    );
    const control = result.diagnostics.filter((d) => d.rule === 'control-field');
    expect(control).toHaveLength(1);
    expect(control[0]!.path).toBe('/bounds/extra');
    expect(control[0]!.redactSource).toBe(true);
    for (const d of result.diagnostics)
      expect(`${d.path} ${d.message} ${d.suggestion ?? ''}`).not.toContain(secretName);
  });
});

describe('literal secrets', () => {
  it('are refused anywhere, config included, without echoing the value', () => {
    const secret = `sk-ant-api03-${'b'.repeat(60)}`;
    const { result } = check(
      edited((m) => {
        m.nodes[2].config.note = secret;
      }),
      'json',
    );
    const d = only(result, 'secrets', '/nodes/2/config/note');
    expect(d.redactSource).toBe(true);
    expect(JSON.stringify(result.diagnostics)).not.toContain(secret);
  });
});

describe('the source', () => {
  for (const format of FORMATS) {
    it.each([
      'https://evil.example/app.json',
      'workspace://host/app',
      'kgdoc:https://x',
      'urn:agentdef:http:evil',
      'workspace:/Apps/x',
      'workspace:/a/../b',
    ])(`refuses the source URI %s, located (${format})`, (uri) => {
      const { text, result } = check(
        edited((m) => {
          m.source.uri = uri;
        }),
        format,
      );
      const d = only(result, 'source-uri', '/source/uri');
      expect(d).toMatchObject(positionOf(text, uri, 1, format === 'json' ? -1 : 0));
      expect(result.valid).toBe(false);
    });
  }

  for (const format of FORMATS) {
    it(`names the expected digest and the digest command when source.sha256 is stale (${format})`, () => {
      const manifest = validManifest();
      const stale = structuredClone(manifest);
      stale.bounds.maxSteps = 15;
      const expected = digestApplicationManifestSource(stale);
      if (!expected.ok) throw new Error(expected.reason);
      expect(expected.sha256).not.toBe(manifest.source.sha256);
      const { text, result } = check(stale, format);
      const d = only(result, 'source-digest', '/source/sha256');
      expect(d.message).toContain(expected.sha256);
      expect(d.message).toMatch(/stale/);
      expect(d.suggestion).toContain('agentdef application digest <file>');
      expect(d).toMatchObject(positionOf(text, manifest.source.sha256, 1, format === 'json' ? -1 : 0));
      expect(result.valid).toBe(false);
    });
  }

  it('says when source.sha256 is still the placeholder, and the written digest then validates', () => {
    const draft = structuredClone(validManifest());
    draft.source.sha256 = SOURCE_DIGEST_PLACEHOLDER;
    const { result } = check(draft, 'json');
    const d = only(result, 'source-digest', '/source/sha256');
    expect(d.message).toMatch(/placeholder/);
    const digest = digestApplicationManifestSource(draft);
    if (!digest.ok) throw new Error(digest.reason);
    draft.source.sha256 = digest.sha256;
    expect(check(draft, 'json').result.valid).toBe(true);
  });

  it('any edit outside source.sha256 makes the recorded digest stale', () => {
    const edits: ((m: any) => void)[] = [
      (m) => (m.nodes[1].config.template = 'Triage:  {{question}}'),
      (m) => (m.source.uri = 'workspace:/examples/support-triage/application.yaml'),
      (m) => (m.catalogDigest = 'd'.repeat(64)),
      (m) => (m.outputs[0].name = 'answer'),
    ];
    for (const edit of edits) {
      const manifest: any = validManifest();
      edit(manifest);
      expect(check(manifest, 'json').result.diagnostics.map((d) => d.rule)).toContain('source-digest');
    }
  });
});

describe('the catalog and adapter-policy digests', () => {
  for (const format of FORMATS) {
    it(`a stale digest is refused when the active ones are given, located (${format})`, () => {
      const text = asText(validManifest(), format);
      const active = { catalogDigest: 'e'.repeat(64), adapterPolicyDigest: ADAPTER_POLICY_DIGEST };
      const result = validateApplicationManifestText(text, `application.${format}`, format, {
        catalog: TEST_CATALOG,
        activeDigests: active,
      });
      expect(result.valid).toBe(false);
      expect(result.diagnostics).toHaveLength(1);
      expect(result.diagnostics[0]).toMatchObject({
        rule: 'stale-digest',
        path: '/catalogDigest',
        ...positionOf(text, CATALOG_DIGEST, 1, shiftFor(format)),
      });
      expect(result.diagnostics[0]!.message).toContain('e'.repeat(64));
      const policy = validateApplicationManifestText(text, `application.${format}`, format, {
        activeDigests: { catalogDigest: CATALOG_DIGEST, adapterPolicyDigest: 'f'.repeat(64) },
      });
      expect(policy.diagnostics.map((d) => `${d.rule} ${d.path}`)).toEqual(['stale-digest /adapterPolicyDigest']);
      const current = validateApplicationManifestText(text, `application.${format}`, format, {
        activeDigests: { catalogDigest: CATALOG_DIGEST, adapterPolicyDigest: ADAPTER_POLICY_DIGEST },
      });
      expect(current.diagnostics).toEqual([]);
    });
  }
});

describe('unordered identity collections', () => {
  for (const format of FORMATS) {
    it(`refuse a repeated node id, edge, entrypoint, output name and output port, each located (${format})`, () => {
      const manifest = edited((m) => {
        m.nodes.push({ id: 'planner', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} });
        m.edges.push(structuredClone(m.edges[1]));
        m.entrypoints.push({ node: 'question', port: 'value' });
        m.outputs.push({ name: 'plan', node: 'planner', port: 'plan' });
        m.outputs.push({ name: 'again', node: 'result', port: 'value' });
      });
      const { text, result } = check(manifest, format);
      expect(result.valid).toBe(false);
      const node = only(result, 'duplicate-node', '/nodes/4/id');
      expect(node.message).toContain('/nodes/2');
      // The repeated id is the second `planner` of the text: nodes come before edges.
      expect(node).toMatchObject(positionOf(text, 'planner', 2, format === 'json' ? -1 : 0));
      expect(only(result, 'duplicate-edge', '/edges/3').message).toContain('/edges/1');
      expect(only(result, 'duplicate-entrypoint', '/entrypoints/1').message).toContain('/entrypoints/0');
      expect(only(result, 'duplicate-output', '/outputs/1/name').message).toContain('/outputs/0');
      expect(only(result, 'duplicate-output', '/outputs/2').message).toContain('/outputs/0');
      // The graph rules see each identity once: the repeated edge is no second producer.
      expect(result.diagnostics.filter((d) => d.rule === 'two-producers')).toEqual([]);
    });
  }
});

describe('validateApplicationManifest', () => {
  it('takes an already parsed document and is deterministic', () => {
    const text = asText(sealed(validManifest()), 'yaml');
    const first = validateApplicationManifestText(text, 'application.yaml', 'yaml');
    const again = validateApplicationManifest(first.document!, {});
    expect(again.valid).toBe(true);
    const bad = asText(
      edited((m) => {
        m.nodes[0].component.shell = 'x';
        m.edges.push({ from: { node: 'ghost', port: 'value' }, to: { node: 'result', port: 'value' } });
      }),
      'yaml',
    );
    expect(validateApplicationManifestText(bad, 'a.yaml', 'yaml').diagnostics).toEqual(
      validateApplicationManifestText(bad, 'a.yaml', 'yaml').diagnostics,
    );
  });
});
