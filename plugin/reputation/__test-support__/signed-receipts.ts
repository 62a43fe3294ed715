/**
 * Real signed receipts for the reputation tests, made with the signing functions the hosts and
 * commands use (runtime/receipts.ts `signReceipt`, eval/eval-receipt.ts `signEvalReceipt`,
 * trust/lifecycle-receipt.ts `signLifecycleReceipt`), each as the one line a receipts file holds.
 */
import { type EvalReceipt, signEvalReceipt } from '../../eval/eval-receipt';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { generateReceiptKeyPair, type Receipt, type ReceiptModelCall, signReceipt } from '../../runtime/receipts';
import { signLifecycleReceipt } from '../../trust/lifecycle-receipt';

export interface TestSigner {
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  kid: string;
}

export async function newSigner(): Promise<TestSigner> {
  const { privateJwk, publicJwk } = await generateReceiptKeyPair();
  return { privateJwk, publicJwk, kid: await jwkThumbprint(publicJwk) };
}

export interface RunSpec {
  runId: string;
  card: string;
  version?: string;
  skill?: string;
  status?: 'answer' | 'limit' | 'error';
  latencyMs?: number;
  issuedAt?: string;
  composedIn?: { card: string; cardVersion: string };
  ran?: { card: string; cardVersion: string }[];
  modelCalls?: ReceiptModelCall[];
}

export function unsignedRun(spec: RunSpec): Omit<Receipt, 'signature'> {
  const status = spec.status ?? 'answer';
  return {
    receiptVersion: 'receipt/v1',
    runId: spec.runId,
    issuedAt: spec.issuedAt ?? '2026-03-10T12:00:00.000Z',
    pinning: {
      card: spec.card,
      cardVersion: spec.version ?? '1.0.0',
      skill: spec.skill ?? 'main',
      skillVersion: '1.0.0',
    },
    agent: { definitionId: '01KT07NYX0REMXMJQP3ND8QVHG', versionId: '01KT07NZW8SC87MJSHJ11S7EHY' },
    lifecycleState: 'kym-registered',
    agenticGate: 'agentic',
    latencyMs: spec.latencyMs ?? 100,
    outcome: {
      stopReason: status === 'answer' ? 'answer' : status === 'error' ? 'error' : 'limit:steps',
      status,
    } as Receipt['outcome'],
    toolCalls: [],
    steps: 1,
    subrequests: 0,
    models: [],
    compactions: 0,
    ...(spec.modelCalls !== undefined ? { modelCalls: spec.modelCalls } : {}),
    ...(spec.composedIn !== undefined ? { composedIn: spec.composedIn } : {}),
    ...(spec.ran !== undefined
      ? {
          composition: {
            nodes: spec.ran.map((n) => ({ ...n, status: 'ran' as const, stopReason: 'answer' as const })),
          },
        }
      : {}),
  };
}

export async function runLine(signer: TestSigner, spec: RunSpec): Promise<string> {
  return JSON.stringify(await signReceipt(unsignedRun(spec), signer.privateJwk, signer.kid));
}

const DIGEST = `sha-256:${'ab'.repeat(32)}`;

export async function evalLine(
  signer: TestSigner,
  spec: { slug: string; version?: string; passed: number; cases: number; casesDigest?: string },
): Promise<string> {
  const cases = Array.from({ length: spec.cases }, (_, i) => ({
    id: `case-${i}`,
    passed: i < spec.passed,
    score: i < spec.passed ? 1 : 0,
  }));
  const passRate = spec.cases === 0 ? 0 : Math.round((spec.passed / spec.cases) * 1e4) / 1e4;
  const unsigned: Omit<EvalReceipt, 'signature'> = {
    receiptVersion: 'eval-receipt/v1',
    definition: { slug: spec.slug, version: spec.version ?? '1.0.0', digest: DIGEST },
    casesDigest: spec.casesDigest ?? `sha-256:${'cd'.repeat(32)}`,
    threshold: 0.5,
    passed: spec.cases > 0 && passRate >= 0.5,
    totals: {
      cases: spec.cases,
      passed: spec.passed,
      failed: spec.cases - spec.passed,
      passRate,
      score: passRate,
      assertions: spec.cases,
      assertionsPassed: spec.passed,
      inputTokens: 0,
      outputTokens: 0,
      modelCalls: 0,
    },
    unscoredInvariants: [],
    cases,
  };
  return JSON.stringify(await signEvalReceipt(unsigned, signer.privateJwk, signer.kid));
}

export async function lifecycleLine(signer: TestSigner, slug: string, at = '2026-03-09T00:00:00Z'): Promise<string> {
  return JSON.stringify(
    await signLifecycleReceipt(
      {
        receiptVersion: 'agentdef.lifecycle-transition/v1',
        agent: {
          id: '01KT07NYX0REMXMJQP3ND8QVHG',
          slug,
          versionSemver: '1.0.0',
          versionId: '01KT07NZW8SC87MJSHJ11S7EHY',
        },
        transition: 'promotion',
        from: 'tool-prototype',
        to: 'tool-shipped',
        definition: { file: 'agent.json', digestBefore: DIGEST, digestAfter: DIGEST },
        at,
      },
      signer.privateJwk,
      signer.kid,
    ),
  );
}
