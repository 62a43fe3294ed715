/**
 * The documents `agentdef publish` writes, checked as an independent conformance suite would, for
 * every example agent on every target it plans for:
 * - the signed card and the KYM registration (a card too) against the A2A v1.0.1 proto's JSON form
 *   (the derived required-fields file in e2e/fixtures/conformance/a2a/): every member a field the
 *   proto names (camelCase), of the proto's type, every REQUIRED field present, URLs absolute,
 *   `supportedInterfaces` a known binding and a `major.minor` version;
 * - their signatures (§8.4): the protected header is exactly `alg`, `typ`, `kid`, the official
 *   `@a2a-js/sdk` 1.3.0 `verifyAgentCardSignature` accepts the card as read from the file, the card
 *   still verifies with its members reordered or written with `\u` escapes (the same JSON value,
 *   the same JCS form), and fails (here and in the SDK) after any one member changes;
 * - the AgentFacts credential against the W3C VC 2.0 JSON schema (fixture copied unedited) and its
 *   subject against the AgentFacts schema, its eddsa-jcs-2022 proof verifying.
 * Deterministic: fixed time, commit, ports and key.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import type { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planAgent } from '../../plugin/compiler/compile';
import { COMPILE_TARGETS } from '../../plugin/targets/targets';
import { toolOnlyConfig } from '../../plugin/runtime/__test-support__/configs';
import { buildAgentCard } from '../../plugin/runtime/agent-card';
import { signAgentCard, verifyAgentCard } from '../../plugin/runtime/card-signature';
import { jwkThumbprint } from '../../plugin/runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';
import { validateAgentFacts } from '../../plugin/trust/agentfacts';
import { verifyCredential } from '../../plugin/trust/agentfacts-credential';
import { preparePublication } from '../../plugin/trust/publish';

const REPO = join(__dirname, '../..');
const FIXTURES = join(REPO, 'e2e/fixtures/conformance');
const PUBLISHED_AT = '2026-01-02T03:04:05Z';

type Field = { json: string; type: string; required: boolean; repeated: boolean; map: boolean };
type Derived = Record<string, { required: string[]; oneofs: unknown[]; fields: Field[] }>;
const derived = JSON.parse(
  readFileSync(join(FIXTURES, 'a2a/a2a-v1.0.1.required-fields.derived.json'), 'utf8'),
) as Derived;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every departure of `value` from the ProtoJSON form of proto message `message`, by JSON Pointer. */
function protoJsonProblems(value: unknown, message: string, path = ''): string[] {
  const spec = derived[message];
  if (!spec) return [`${path}: no message ${message} in the proto`];
  if (!isRecord(value)) return [`${path}: ${message} must be a JSON object`];
  const problems: string[] = [];
  for (const name of spec.required) if (value[name] === undefined) problems.push(`${path}/${name}: REQUIRED, missing`);
  for (const [name, member] of Object.entries(value)) {
    const field = spec.fields.find((f) => f.json === name);
    if (!field) {
      problems.push(`${path}/${name}: ${message} has no field of that JSON name`);
      continue;
    }
    if (field.map) {
      const valueType = /^map<string, (.+)>$/.exec(field.type)?.[1] ?? '?';
      if (!isRecord(member)) problems.push(`${path}/${name}: a map must be a JSON object`);
      else
        for (const [key, item] of Object.entries(member))
          problems.push(...scalarOrMessage(item, valueType, `${path}/${name}/${key}`));
    } else if (field.repeated) {
      if (!Array.isArray(member)) problems.push(`${path}/${name}: a repeated field must be an array`);
      else member.forEach((item, i) => problems.push(...scalarOrMessage(item, field.type, `${path}/${name}/${i}`)));
    } else problems.push(...scalarOrMessage(member, field.type, `${path}/${name}`));
  }
  return problems;
}

function scalarOrMessage(value: unknown, type: string, path: string): string[] {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? [] : [`${path}: must be a string`];
    case 'bool':
      return typeof value === 'boolean' ? [] : [`${path}: must be a boolean`];
    case 'int32':
      return Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value))
        ? []
        : [`${path}: must be an int32`];
    case 'google.protobuf.Struct':
      return isRecord(value) ? [] : [`${path}: a Struct must be a JSON object`];
    case 'google.protobuf.Value':
      return [];
    default:
      return protoJsonProblems(value, type, path);
  }
}

/** Every URL member (`url`, `…Url`) of the card that is not an absolute http(s) URL. */
function relativeUrls(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => relativeUrls(item, `${path}/${i}`));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([name, member]) => {
    if (name === 'params' || name === 'signatures') return [];
    if ((name === 'url' || name.endsWith('Url')) && typeof member === 'string')
      return URL.canParse(member) && /^https?:\/\/[^/]/.test(member) ? [] : [`${path}/${name}`];
    return relativeUrls(member, `${path}/${name}`);
  });
}

function decodeHeader(encoded: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Every leaf of a JSON value outside `signatures`, with a changed copy of the value at it. */
function leafMutations(card: Record<string, unknown>): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    if (path[0] === 'signatures') return;
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, [...path, i]));
    if (isRecord(value)) return Object.entries(value).forEach(([k, v]) => walk(v, [...path, k]));
    const copy = structuredClone(card);
    let parent: Record<string | number, unknown> = copy;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    parent[last] = typeof value === 'boolean' ? !value : typeof value === 'number' ? value + 1 : `${String(value)}x`;
    out.push([`/${path.join('/')}`, copy]);
  };
  walk(card, []);
  return out;
}

/** The same value with every object's members in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

/** JSON text of `value` with every character of every string and key above U+001F written as a `\u` escape. */
function escapedText(value: unknown): string {
  return JSON.stringify(value).replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    const text = JSON.parse(literal) as string;
    return `"${[...text].map((ch) => [...ch].map((_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')).join('')}"`;
  });
}

interface Publication {
  label: string;
  card: Record<string, unknown>;
  kym: Record<string, unknown>;
  credential: Record<string, unknown>;
}

let privateJwk: JsonWebKey;
let publicJwk: JsonWebKey;
let kid: string;
const publications: Publication[] = [];

beforeAll(async () => {
  const keys = await generateReceiptKeyPair();
  publicJwk = keys.publicJwk;
  privateJwk = keys.privateJwk;
  kid = await jwkThumbprint(publicJwk);
  vi.spyOn(console, 'debug').mockImplementation(() => undefined);
  for (const name of readdirSync(join(REPO, 'examples')).sort()) {
    const file = ['agent.json', 'agent.yaml'].map((f) => join(REPO, 'examples', name, f)).find((f) => existsSync(f));
    if (!file) continue;
    for (const target of COMPILE_TARGETS) {
      const planned = await planAgent({ file, workspaceRoot: REPO, target });
      if (!planned.plan || !planned.resolved) continue; // the target the example's tree forbids
      const endpoint =
        target === 'cloudflare-dynamic-worker' ? { workerUrl: `https://${name}.acme.workers.dev` } : { port: 8080 };
      const decision = await preparePublication({
        resolved: planned.resolved,
        plan: planned.plan,
        commitSha: 'c0ffee'.padEnd(40, '0'),
        publishedAt: PUBLISHED_AT,
        signingKey: { privateJwk: keys.privateJwk, kid },
        endpoint,
        index: { snapshots: [] } as never,
      });
      if (decision.kind !== 'publish') throw new Error(`${name} on ${target}: ${JSON.stringify(decision)}`);
      const read = (suffix: string) =>
        JSON.parse(decision.files.find((f) => f.name.endsWith(suffix))!.text) as Record<string, unknown>;
      publications.push({
        label: `${name} on ${target}`,
        card: read('.card.json'),
        kym: read('.kym.json'),
        credential: read('.agentfacts.vc.json'),
      });
    }
  }
});
afterAll(() => vi.restoreAllMocks());

const sdkVerifies = (card: unknown): Promise<boolean> =>
  verifyAgentCardSignature(async (k) => {
    if (k !== kid) throw new Error('unknown kid');
    return { ...publicJwk, alg: 'EdDSA' };
  })(card as SdkAgentCard).then(
    () => true,
    () => false,
  );
const hereVerifies = async (card: unknown) =>
  (await verifyAgentCard(card, (k) => (k === kid ? publicJwk : undefined))).ok;

describe('every published card and KYM registration (every example, every target it plans for)', () => {
  it('covers every target and more than ten publications', () => {
    expect(publications.length).toBeGreaterThan(10);
    for (const target of COMPILE_TARGETS)
      expect(
        publications.some((p) => p.label.endsWith(` on ${target}`)),
        target,
      ).toBe(true);
  });

  it('is the ProtoJSON form of the A2A v1.0.1 AgentCard: known camelCase fields of the proto types, REQUIRED fields present', () => {
    for (const { label, card, kym } of publications) {
      expect(protoJsonProblems(card, 'AgentCard'), label).toEqual([]);
      expect(protoJsonProblems(kym, 'AgentCard'), `${label} (KYM)`).toEqual([]);
    }
  });

  it('names absolute URLs only, and interfaces of a known binding and a major.minor version', () => {
    for (const { label, card, kym } of publications) {
      for (const doc of [card, kym]) {
        expect(relativeUrls(doc), label).toEqual([]);
        const interfaces = doc['supportedInterfaces'] as { protocolBinding: string; protocolVersion: string }[];
        expect(interfaces.length, label).toBeGreaterThan(0);
        for (const entry of interfaces) {
          expect(['JSONRPC', 'GRPC', 'HTTP+JSON'], label).toContain(entry.protocolBinding);
          expect(entry.protocolVersion, label).toMatch(/^\d+\.\d+$/);
        }
        const skills = doc['skills'] as { id: string; tags: string[] }[];
        expect(new Set(skills.map((s) => s.id)).size, label).toBe(skills.length);
        for (const skill of skills) expect(skill.tags.length, `${label} ${skill.id}`).toBeGreaterThan(0);
      }
    }
  });

  it('carries one JWS whose protected header is exactly {alg: EdDSA, typ: JOSE, kid}, and verifies here and with @a2a-js/sdk', async () => {
    for (const { label, card, kym } of publications) {
      for (const doc of [card, kym]) {
        const signatures = doc['signatures'] as { protected: string; signature: string }[];
        expect(signatures, label).toHaveLength(1);
        expect(Object.keys(signatures[0]!).sort(), label).toEqual(['protected', 'signature']);
        const header = decodeHeader(signatures[0]!.protected);
        expect(Object.keys(header).sort(), label).toEqual(['alg', 'kid', 'typ']);
        expect(header, label).toEqual({ alg: 'EdDSA', typ: 'JOSE', kid });
        expect(await hereVerifies(doc), label).toBe(true);
        expect(await sdkVerifies(doc), label).toBe(true);
      }
    }
  });

  it('verifies with its members in any order and its strings written as \\u escapes (the same JCS form)', async () => {
    for (const { label, card } of publications) {
      const shuffled = reordered(card);
      expect(JSON.stringify(shuffled)).not.toBe(JSON.stringify(card));
      expect(await hereVerifies(shuffled), label).toBe(true);
      expect(await sdkVerifies(shuffled), label).toBe(true);
      const escaped = escapedText(card);
      expect(escaped).not.toMatch(/"[a-z]/); // every string is written as escapes only
      const reread = JSON.parse(escaped) as unknown;
      expect(reread).toEqual(card);
      expect(await hereVerifies(reread), label).toBe(true);
      expect(await sdkVerifies(reread), label).toBe(true);
    }
  });

  it('fails verification here and with @a2a-js/sdk after any one member changes', async () => {
    for (const { label, card } of publications) {
      const mutations = leafMutations(card);
      expect(mutations.length, label).toBeGreaterThan(15);
      for (const [pointer, changed] of mutations) {
        expect(await hereVerifies(changed), `${label} ${pointer}`).toBe(false);
        expect(await sdkVerifies(changed), `${label} ${pointer}`).toBe(false);
      }
    }
  });
});

describe('the checks find what they should', () => {
  it('names a snake_case or unknown member, a wrong type, a missing REQUIRED field and a relative URL', () => {
    const card = buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' }) as unknown as Record<
      string,
      unknown
    >;
    const broken = structuredClone(card);
    broken['default_input_modes'] = broken['defaultInputModes'];
    delete broken['defaultInputModes'];
    (broken['capabilities'] as Record<string, unknown>)['streaming'] = 'true';
    (broken['supportedInterfaces'] as Record<string, unknown>[])[0]!['url'] = '/rpc';
    (broken['skills'] as Record<string, unknown>[])[0]!['tags'] = 'math';
    expect(protoJsonProblems(broken, 'AgentCard').sort()).toEqual(
      [
        '/capabilities/streaming: must be a boolean',
        '/defaultInputModes: REQUIRED, missing',
        '/default_input_modes: AgentCard has no field of that JSON name',
        '/skills/0/tags: a repeated field must be an array',
      ].sort(),
    );
    expect(relativeUrls(broken)).toEqual(['/supportedInterfaces/0/url']);
  });
});

describe('number forms (RFC 8785 §3.2.2.3) in a card signed here', () => {
  it('verifies here and with @a2a-js/sdk whatever form the JSON text writes a number in, and fails when a number changes', async () => {
    const card = buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' });
    const params = card.capabilities.extensions![0]!.params!;
    Object.assign(params, {
      big: 1e21,
      small: 1e-7,
      hundred: 100,
      zero: 0,
      sum: 0.30000000000000004,
      max: 1.7976931348623157e308,
    });
    const text = JSON.stringify(await signAgentCard(card, privateJwk));
    const forms: [RegExp, string][] = [
      [/"big":1e\+21/, '"big":1000000000000000000000'],
      [/"small":1e-7/, '"small":0.00000010'],
      [/"hundred":100/, '"hundred":1E2'],
      [/"zero":0/, '"zero":-0.0'],
      [/"sum":0.30000000000000004/, '"sum":3.0000000000000004e-1'],
      [/"max":1.7976931348623157e\+308/, '"max":17976931348623157E292'],
    ];
    let rewritten = text;
    for (const [from, to] of forms) {
      expect(rewritten).toMatch(from);
      rewritten = rewritten.replace(from, to);
    }
    const reread = JSON.parse(rewritten) as unknown;
    expect(await hereVerifies(reread)).toBe(true);
    expect(await sdkVerifies(reread)).toBe(true);
    for (const changed of ['"hundred":100.5', '"hundred":101', '"hundred":"100"']) {
      const other = JSON.parse(text.replace(/"hundred":100/, changed)) as unknown;
      expect(await hereVerifies(other), changed).toBe(false);
      expect(await sdkVerifies(other), changed).toBe(false);
    }
  });
});

describe('every published AgentFacts credential', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const vcSchema = ajv.compile(
    JSON.parse(readFileSync(join(FIXTURES, 'vc/vc-data-model-v2/verifiable-credential-schema.json'), 'utf8')) as object,
  );

  it('validates against the W3C VC 2.0 JSON schema, its subject against the AgentFacts schema, and its proof verifies', async () => {
    for (const { label, credential } of publications) {
      expect(vcSchema(credential) ? [] : vcSchema.errors, label).toEqual([]);
      expect(validateAgentFacts(credential['credentialSubject']), label).toEqual([]);
      const verified = await verifyCredential(credential, { at: PUBLISHED_AT });
      expect(verified.failures, label).toEqual([]);
      expect(verified.verified, label).toBe(true);
    }
  });
});
