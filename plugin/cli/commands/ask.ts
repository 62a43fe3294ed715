/**
 * `agentdef ask <url> <text> [--task id] [--stream] [--key public-jwk-file]`: the A2A client a
 * user expects, built on the official `@a2a-js/sdk` client. `<url>` is the agent's base URL (the
 * card is read from `/.well-known/agent-card.json` below it) or the card's own URL (a path ending
 * in `.json`). It sends one message (its text as a text part, or as a JSON data part when the
 * agent's input modes take JSON and not text; SendMessage; `--task` continues a task; `--stream` uses
 * SendStreamingMessage when the card declares streaming, else says so and sends without it), then
 * prints the answer text, the task id and its state, and what became of the run's receipt:
 * - a host that returns the receipt puts the signed `receipt/v1` object in the task's (or the
 *   reply message's) `metadata.receipt`, or as a data part of an artifact;
 * - it is verified (receipts.ts) with `--key`, else with a public JWK the card publishes in a
 *   signature's unprotected `header.jwk` whose RFC 7638 thumbprint is the receipt's kid, else
 *   with the public key of this machine's key store whose thumbprint is the kid, or that a
 *   `keyref:` kid names (the key `agentdef dev` and `agentdef run` signed with; public files only);
 * - "receipt: verified (kid …)", "receipt: NOT verified (why)" when it does not verify, or
 *   "receipt: not checked (why)" when no public key for it is at hand, or "no receipt";
 * - for a hybrid leaf, the route and the evaluator's verdicts ("hybrid: routed to …", ask-hybrid.ts).
 * Every fetch is bounded (ask-fetch.ts): the card by size (1 MiB) and time (`--card-timeout`), an
 * event stream by silence (`--idle-timeout`), and all of them to the card's origin: an RPC URL or a
 * redirect elsewhere is refused, naming both origins, unless `--follow`.
 * Exit 0 answered, 1 agent error, failed/canceled/rejected task or a receipt that does not verify,
 * 2 usage error, the agent unreachable (or not serving an agent card) or a bound reached.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Message, StreamResponse, Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { findLocalPublicKey, type KeyStoreOptions } from '../../hosts/node/key-store';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { RECEIPT_VERSION, verifyReceipt } from '../../runtime/receipts';
import { parseStrictJson } from '../../runtime/strict-json';
import { terminalSafeLine } from '../../definition/terminal-text';
import { EXIT, type CliIo } from '../io';
import { hybridLine } from './ask-hybrid';
import { ASK } from '../specs/ask';
import { askRefusalIn, cardFetch, type OriginRule, rpcFetch } from './ask-fetch';
import { parseCommand, usageError } from '../usage';

const MAX_KEY_FILE_BYTES = 64 * 1024;
/** Task states that end a task without an answer: the ask did not succeed. */
const UNSUCCESSFUL_STATES = new Set([
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

type Answer = { kind: 'task'; task: Task } | { kind: 'message'; message: Message };
type ReceiptOutcome = { line: string; verified: boolean | undefined };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The card URL split the way the SDK's resolver takes it: base and path ('' when `url` is the card itself). */
function cardLocation(url: URL): { base: string; path?: string } {
  if (url.pathname.endsWith('.json')) return { base: url.toString(), path: '' };
  return { base: url.toString().replace(/\/+$/, '') };
}

/** A public Ed25519 JWK from a file; a private key is refused (and never echoed). */
function readPublicJwk(path: string, shown: string): JsonWebKey | string {
  let text: string;
  try {
    if (statSync(path).size > MAX_KEY_FILE_BYTES) return `${shown} is too large for a JWK`;
    text = readFileSync(path, 'utf8');
  } catch {
    return `cannot read ${shown}`;
  }
  const parsed = parseStrictJson(text);
  if (!parsed.ok || !isRecord(parsed.value)) return `${shown} is not a JSON object`;
  const jwk = parsed.value;
  if (Object.hasOwn(jwk, 'd'))
    return `${shown} holds a private key (member d); give the public JWK (agentdef keys export-public)`;
  if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['x'] !== 'string')
    return `${shown} is not an Ed25519 public JWK (kty OKP, crv Ed25519, x)`;
  return { kty: 'OKP', crv: 'Ed25519', x: jwk['x'] };
}

/** Whether a list of media types accepts `type` (an empty list, any-type and type/any wildcards accept). */
function accepts(modes: readonly string[], type: string): boolean {
  return (
    modes.length === 0 ||
    modes.some((mode) => mode === type || mode === '*/*' || (mode.endsWith('/*') && type.startsWith(mode.slice(0, -1))))
  );
}

/**
 * The one part `ask` sends: text, unless the agent's input modes (its first skill's, else the
 * card's defaults) accept JSON and not plain text and the text is JSON: then that JSON as a data
 * part, which is what such an agent takes.
 */
function messagePart(text: string, card: { defaultInputModes?: string[]; skills?: { inputModes?: string[] }[] }) {
  const modes = card.skills?.[0]?.inputModes?.length ? card.skills[0].inputModes : (card.defaultInputModes ?? []);
  if (!accepts(modes, 'text/plain') && accepts(modes, 'application/json')) {
    const parsed = parseStrictJson(text);
    if (parsed.ok)
      return {
        content: { $case: 'data' as const, value: parsed.value as Record<string, unknown> },
        metadata: undefined,
        filename: '',
        mediaType: 'application/json',
      };
  }
  return {
    content: { $case: 'text' as const, value: text },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  };
}

/** The text parts of a list of parts, joined by newlines. */
function partsText(parts: readonly { content?: { $case: string; value?: unknown } | undefined }[]): string {
  return parts
    .flatMap((part) =>
      part.content?.$case === 'text' && typeof part.content.value === 'string' ? [part.content.value] : [],
    )
    .join('\n');
}

/** What the agent said: the artifacts' text when there is any, else the status message's. */
function answerText(answer: Answer): string {
  if (answer.kind === 'message') return partsText(answer.message.parts);
  const fromArtifacts = answer.task.artifacts.map((a) => partsText(a.parts)).filter((t) => t !== '');
  if (fromArtifacts.length > 0) return fromArtifacts.join('\n');
  return partsText(answer.task.status?.message?.parts ?? []);
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
function stateName(state: TaskState | undefined): string {
  const name = state === undefined ? undefined : TaskState[state];
  return typeof name === 'string'
    ? name
        .replace(/^TASK_STATE_/, '')
        .toLowerCase()
        .replace(/_/g, '-')
    : 'unknown';
}

function isReceipt(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) && typeof value['receiptVersion'] === 'string' && value['receiptVersion'].startsWith('receipt/')
  );
}

/** Where a host attaches the run's receipt: metadata.receipt of the task or reply, or an artifact's data part. */
function findReceipt(answer: Answer): Record<string, unknown> | undefined {
  const candidates: unknown[] = [];
  if (answer.kind === 'message') candidates.push(answer.message.metadata?.['receipt']);
  else {
    const { task } = answer;
    candidates.push(task.metadata?.['receipt'], task.status?.message?.metadata?.['receipt']);
    for (const artifact of task.artifacts) {
      candidates.push(artifact.metadata?.['receipt']);
      for (const part of artifact.parts) if (part.content?.$case === 'data') candidates.push(part.content.value);
    }
  }
  return candidates.find(isReceipt);
}

/**
 * A hybrid leaf's model calls as the signed receipt lists them, one line: which pin each call went
 * to, the label the router named and each verdict (`model calls: route→triage (billing),
 * answer→billing, evaluate→reviewer (fail), …`). Undefined for a run without named pins.
 */
function hybridCallsLine(receipt: Record<string, unknown> | undefined): string | undefined {
  const calls = receipt?.['modelCalls'];
  if (!Array.isArray(calls) || !calls.some((c) => isRecord(c) && typeof c['pin'] === 'string')) return undefined;
  const parts = calls.filter(isRecord).map((c) => {
    const detail = typeof c['label'] === 'string' ? c['label'] : typeof c['verdict'] === 'string' ? c['verdict'] : '';
    const pin = typeof c['pin'] === 'string' ? c['pin'] : String(c['model'] ?? '?');
    return `${String(c['purpose'] ?? '?')}→${pin}${detail ? ` (${detail})` : ''}${c['ok'] === false ? ' (no answer)' : ''}`;
  });
  return terminalSafeLine(`model calls: ${parts.join(', ')}`);
}

/**
 * Whether the answering agent's models were replayed from a recording (`agentdef dev --replay`),
 * and who says so: the signed receipt (`modelsReplayed`), else the task's metadata.
 */
function modelsReplayed(answer: Answer): string | undefined {
  if (findReceipt(answer)?.['modelsReplayed'] === true) return 'the receipt says so';
  const metadata = answer.kind === 'task' ? answer.task.metadata : answer.message.metadata;
  return metadata?.['modelsReplayed'] === true ? 'the task metadata says so' : undefined;
}

/** A public JWK the card publishes (a signature's unprotected `header.jwk`) whose thumbprint is `kid`. */
async function publishedKey(
  card: { signatures?: { header?: Record<string, unknown> | undefined }[] },
  kid: string,
): Promise<JsonWebKey | undefined> {
  for (const signature of card.signatures ?? []) {
    const jwk = signature.header?.['jwk'];
    if (!isRecord(jwk) || Object.hasOwn(jwk, 'd')) continue;
    try {
      if ((await jwkThumbprint(jwk)) === kid) return { kty: 'OKP', crv: 'Ed25519', x: jwk['x'] as string };
    } catch {
      // not an Ed25519 public JWK: not a key for receipts
    }
  }
  return undefined;
}

async function checkReceipt(
  answer: Answer,
  card: Parameters<typeof publishedKey>[0],
  key: JsonWebKey | undefined,
  keyStore: KeyStoreOptions,
): Promise<ReceiptOutcome> {
  const receipt = findReceipt(answer);
  if (receipt === undefined) return { line: 'no receipt', verified: undefined };
  const signature = receipt['signature'];
  const kid = isRecord(signature) && typeof signature['kid'] === 'string' ? signature['kid'] : '';
  const notVerified = (why: string): ReceiptOutcome => ({ line: `receipt: NOT verified (${why})`, verified: false });
  if (receipt['receiptVersion'] !== RECEIPT_VERSION)
    return notVerified(`receiptVersion ${JSON.stringify(receipt['receiptVersion'])} is not ${RECEIPT_VERSION}`);
  if (kid === '') return notVerified('the receipt has no signature kid');
  if (answer.kind === 'task' && receipt['runId'] !== answer.task.id)
    return notVerified(`it is for run ${String(receipt['runId'])}, not task ${answer.task.id}`);
  const fromCard = key === undefined ? await publishedKey(card, kid) : undefined;
  const fromStore = key === undefined && fromCard === undefined ? await findLocalPublicKey(kid, keyStore) : undefined;
  const verifyWith = key ?? fromCard ?? fromStore?.publicJwk;
  if (verifyWith === undefined)
    return {
      line: `receipt: not checked (no public key for kid ${kid} at hand: pass --key <public JWK file>)`,
      verified: undefined,
    };
  const whose = key ? 'the --key' : fromCard ? "the card's" : "this machine's key store's";
  if (!(await verifyReceipt(receipt, verifyWith)))
    return notVerified(`the signature does not match the receipt for ${whose} key (changed, or signed by another key)`);
  return {
    line: `receipt: verified (kid ${kid}${fromCard ? ', key published in the card' : fromStore ? `, key ${fromStore.ref} from this machine's key store` : ''})`,
    verified: true,
  };
}

/** Folds a stream's events into the final answer; artifact text chunks are written as they arrive. */
async function collectStream(
  events: AsyncGenerator<StreamResponse, void, undefined>,
  io: CliIo,
): Promise<{ answer: Answer | undefined; printed: boolean }> {
  let task: Task | undefined;
  let message: Message | undefined;
  let printed = false;
  for await (const event of events) {
    const payload = event.payload;
    if (payload === undefined) continue;
    if (payload.$case === 'task') task = payload.value;
    else if (payload.$case === 'message') message = payload.value;
    else if (payload.$case === 'statusUpdate') {
      const update = payload.value;
      task ??= {
        id: update.taskId,
        contextId: update.contextId,
        status: undefined,
        artifacts: [],
        history: [],
        metadata: undefined,
      };
      task.status = update.status;
      if (update.metadata) task.metadata = { ...task.metadata, ...update.metadata };
    } else if (payload.$case === 'artifactUpdate') {
      const update = payload.value;
      const artifact = update.artifact;
      if (!artifact) continue;
      task ??= {
        id: update.taskId,
        contextId: update.contextId,
        status: undefined,
        artifacts: [],
        history: [],
        metadata: undefined,
      };
      const existing = task.artifacts.find((a) => a.artifactId === artifact.artifactId);
      if (existing && update.append) existing.parts.push(...artifact.parts);
      else task.artifacts = [...task.artifacts.filter((a) => a.artifactId !== artifact.artifactId), artifact];
      const chunk = partsText(artifact.parts);
      if (chunk !== '') {
        io.stdout(chunk);
        printed = true;
      }
    }
  }
  if (printed) io.stdout('\n');
  return { answer: task ? { kind: 'task', task } : message ? { kind: 'message', message } : undefined, printed };
}

/** A JSON-RPC error the agent answered (the SDK's A2A errors carry a reason), as opposed to no answer at all. */
function isAgentError(error: unknown): boolean {
  return (
    error instanceof Error &&
    !(error instanceof TypeError) &&
    (typeof (error as { reason?: unknown }).reason === 'string' ||
      typeof (error as { code?: unknown }).code === 'number')
  );
}

/** `keyStore`: where the key store is (tests); default this process's environment. */
export async function runAskCommand(argv: string[], io: CliIo, keyStore: KeyStoreOptions = {}): Promise<number> {
  const parsed = parseCommand(io, ASK, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 2)
    return usageError(
      io,
      parsed.positionals.length < 2
        ? 'give the agent URL and the text to send'
        : `give one URL and one text (quote the text), not ${parsed.positionals.length} arguments`,
      ASK,
    );
  const [urlText, text] = parsed.positionals as [string, string];
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return usageError(io, `"${urlText}" is not a URL`, ASK);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return usageError(io, `the URL must be http or https, not ${url.protocol}`, ASK);
  if (text.trim() === '') return usageError(io, 'the text to send is empty', ASK);
  const taskId = parsed.values.task;
  if (taskId !== undefined && taskId.trim() === '') return usageError(io, '--task needs a task id', ASK);
  let key: JsonWebKey | undefined;
  if (parsed.values.key !== undefined) {
    const loaded = readPublicJwk(resolve(io.cwd, parsed.values.key), parsed.values.key);
    if (typeof loaded === 'string') return usageError(io, loaded, ASK);
    key = loaded;
  }

  const { base, path } = cardLocation(url);
  // The card is read from the URL's own origin (its path, or the well-known one, on it).
  const rule: OriginRule = { origin: url.origin, follow: parsed.values.follow };
  const idleMs = Number(parsed.values['idle-timeout']) * 1000;
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl: rpcFetch(rule, idleMs) }),
        new RestTransportFactory({ fetchImpl: rpcFetch(rule, idleMs) }),
      ],
      cardResolver: new DefaultAgentCardResolver({
        fetchImpl: cardFetch(rule, Number(parsed.values['card-timeout']) * 1000),
      }),
    }),
  );
  let client: Client;
  let card: Awaited<ReturnType<Client['getAgentCard']>>;
  try {
    client = path === undefined ? await factory.createFromUrl(base) : await factory.createFromUrl(base, path);
    card = await client.getAgentCard();
  } catch (error) {
    const refusal = askRefusalIn(error);
    io.stderr(`error: cannot read the agent card from ${url.toString()}: ${(refusal ?? (error as Error)).message}\n`);
    return EXIT.usage;
  }

  const request = {
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId: taskId ?? '',
      role: Role.ROLE_USER,
      parts: [messagePart(text, card)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
  let answer: Answer | undefined;
  let printed = false;
  try {
    if (parsed.values.stream && card.capabilities?.streaming === true) {
      ({ answer, printed } = await collectStream(client.sendMessageStream(request), io));
    } else {
      if (parsed.values.stream)
        io.stderr(`note: ${card.name} does not declare streaming in its card; sending without it (SendMessage)\n`);
      const result = await client.sendMessage(request);
      answer =
        'status' in result || 'artifacts' in result
          ? { kind: 'task', task: result as Task }
          : { kind: 'message', message: result as Message };
    }
  } catch (error) {
    const refusal = askRefusalIn(error);
    if (refusal !== undefined) {
      io.stderr(`error: ${card.name}: ${refusal.message}\n`);
      return EXIT.usage;
    }
    const message = (error as Error).message;
    if (isAgentError(error)) {
      io.stderr(`error: ${card.name} answered with an error: ${message}\n`);
      return EXIT.invalid;
    }
    io.stderr(
      `error: cannot reach ${card.name} at ${card.supportedInterfaces[0]?.url ?? url.toString()}: ${message}\n`,
    );
    return EXIT.usage;
  }
  if (answer === undefined) {
    io.stderr(`error: ${card.name} ended the stream without a task or message\n`);
    return EXIT.invalid;
  }

  const reply = answerText(answer);
  if (!printed) io.stdout(reply === '' ? '(no text in the answer)\n' : `${reply}\n`);
  if (answer.kind === 'task') io.stdout(`task: ${answer.task.id}\nstate: ${stateName(answer.task.status?.state)}\n`);
  else
    io.stdout(
      `task: none (the agent answered with a message${answer.message.taskId ? ` in task ${answer.message.taskId}` : ''})\n`,
    );
  const receipt = await checkReceipt(answer, card as Parameters<typeof publishedKey>[0], key, keyStore);
  (receipt.verified === false ? io.stderr : io.stdout)(`${receipt.line}\n`);
  const hybrid = hybridLine(answer.kind === 'task' ? answer.task.metadata : answer.message.metadata);
  if (hybrid !== undefined) io.stdout(`${hybrid}\n`);
  const replayed = modelsReplayed(answer);
  if (replayed !== undefined) io.stdout(`models: replayed from a recording, not a live model (${replayed})\n`);
  const calls = hybridCallsLine(findReceipt(answer));
  if (calls !== undefined) io.stdout(`${calls}\n`);
  const failed =
    answer.kind === 'task' && answer.task.status !== undefined && UNSUCCESSFUL_STATES.has(answer.task.status.state);
  return failed || receipt.verified === false ? EXIT.invalid : EXIT.ok;
}
