/**
 * The scripted stand-ins the examples' eval recordings are made against (scripts/record-eval-examples.mjs):
 * for each example with models, servers on 127.0.0.1 that speak its providers' wire formats and answer
 * both the agent's requests and the grader's (the grading prompt of plugin/runtime/hybrid/grade.ts,
 * answered by `scriptedVerdict` with a scripted judge). They are not the real models
 * (examples/recordings/README.md): each answer and each verdict is a rule written here, and each
 * verdict's reason says which rule decided.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { applyHunks, parseUnifiedDiff } from '../../examples/tools/diff-apply';
import { type Judge, readGradingRequest, scriptedVerdict } from '../../plugin/eval/__test-support__/grading-stand-in';
import { GRADER_SYSTEM_PROMPT } from '../../plugin/runtime/hybrid/grade';
import { SUPPORT_SECRETS, supportDeskTurn } from '../../plugin/runtime/__test-support__/hybrid-script';
import {
  type ScriptTurn,
  startScriptedProvider,
  type TurnContext,
} from '../../plugin/runtime/__test-support__/stub-provider';
import { fakeCheckpoint, fakeParseSpans } from '../hb3/support';

const REPO = join(__dirname, '..', '..');
const EXAMPLES = join(REPO, 'examples');

export interface StartedStandIns {
  /** What the eval process needs to reach them: base URL overrides and stand-in keys. */
  env: NodeJS.ProcessEnv;
  /** The stand-in keys, to check no output printed them. */
  secrets: string[];
  close(): Promise<void>;
}

/** The system prompt and the first user message of a request, on any of the stubbed wires. */
export function requestTexts(body: any): { system: string | undefined; user: string } {
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((b: { text?: unknown }) => (typeof b.text === 'string' ? b.text : '')).join('')
        : '';
  const messages: { role: string; content: unknown }[] = body.messages ?? [];
  const system = typeof body.system === 'string' ? body.system : messages.find((m) => m.role === 'system')?.content;
  return {
    system: typeof system === 'string' ? system : undefined,
    user: text(messages.find((m) => m.role === 'user')?.content),
  };
}

/** The grader's answer for `ctx` when it is a grading request, judged by `judge`; undefined otherwise. */
function verdictFor(ctx: TurnContext, judge: Judge): ScriptTurn | undefined {
  const { system, user } = requestTexts(ctx.body);
  const verdict = scriptedVerdict(system, user, judge);
  return verdict === undefined ? undefined : { text: verdict };
}

/** The JSON object a task carries as "Input data (JSON):" (taskText of agent-loop.ts), if any. */
function taskData(user: string): Record<string, unknown> | undefined {
  const at = user.indexOf('Input data (JSON):\n');
  if (at < 0) return undefined;
  try {
    return JSON.parse(user.slice(at + 'Input data (JSON):\n'.length)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

// --- support-triage ---------------------------------------------------------------------------

/** The scripted judge of support-triage's eval assertions (invariants and rubrics). */
export const supportJudge: Judge = (criterion, answer) => {
  const reply = answer.trim();
  if (/actual question/i.test(criterion))
    return reply.length > 0 && !/cannot help|can't help/i.test(reply)
      ? { pass: true, reason: 'scripted rule: a non-empty reply that refuses nothing addresses the question' }
      : { pass: false, reason: 'scripted rule: the reply is empty or refuses' };
  if (/password|card number|API key/i.test(criterion)) {
    const asks = /password|card number|api key/i.test(reply);
    return asks
      ? { pass: false, reason: 'scripted rule: the reply mentions a password, a card number or an API key' }
      : { pass: true, reason: 'scripted rule: the reply mentions no password, card number or API key' };
  }
  if (/next step|one thing to do next/i.test(criterion)) {
    const steps = reply.match(/^Next step: .+$/gm) ?? [];
    const ok = steps.length === 1 && /\nNext step: [^\n]+$/.test(reply);
    return ok
      ? { pass: true, reason: 'scripted rule: the reply ends with exactly one "Next step:" line' }
      : { pass: false, reason: `scripted rule: ${steps.length} "Next step:" line(s), not one at the end` };
  }
  if (/thanks|acknowledges/i.test(criterion))
    return /thank|sorry|understand/i.test(reply)
      ? { pass: true, reason: 'scripted rule: the reply thanks the customer' }
      : { pass: false, reason: 'scripted rule: no thanks or acknowledgement' };
  return { pass: false, reason: 'scripted rule: the stand-in has no rule for this criterion' };
};

/**
 * The support desk of the hybrid tests (hybrid-script.ts) for the agent's own calls, the runtime
 * evaluator's included (it grades all three invariants at once); any other grading request is an
 * eval assertion's, judged by `supportJudge`.
 */
export function supportTriageTurn(invariants: readonly string[]) {
  return (index: number, ctx: TurnContext): ScriptTurn => {
    const { system, user } = requestTexts(ctx.body);
    if (system === GRADER_SYSTEM_PROMPT) {
      const asked = readGradingRequest(user);
      const runtimeEvaluator =
        asked !== undefined &&
        asked.criteria.length === invariants.length &&
        asked.criteria.every((c, i) => c === invariants[i]);
      if (!runtimeEvaluator) return verdictFor(ctx, supportJudge) ?? supportDeskTurn(index, ctx);
    }
    return supportDeskTurn(index, ctx);
  };
}

async function supportTriage(invariants: readonly string[]): Promise<StartedStandIns> {
  const script = supportTriageTurn(invariants);
  const openai = await startScriptedProvider({ wire: 'openai-chat', apiKey: SUPPORT_SECRETS.OPENAI_API_KEY, script });
  const anthropic = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: SUPPORT_SECRETS.ANTHROPIC_API_KEY,
    script,
  });
  return {
    env: {
      AGENTDEF_BASE_URL_OPENAI: openai.baseUrl,
      AGENTDEF_BASE_URL_ANTHROPIC: anthropic.url,
      AGENTDEF_SECRET_OPENAI_API_KEY: SUPPORT_SECRETS.OPENAI_API_KEY,
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: SUPPORT_SECRETS.ANTHROPIC_API_KEY,
    },
    secrets: Object.values(SUPPORT_SECRETS),
    close: async () => {
      await openai.close();
      await anthropic.close();
    },
  };
}

// --- fallback-writer --------------------------------------------------------------------------

/** The diffs the scripted small model proposes, by instruction. */
export const FALLBACK_DIFFS: Record<string, string> = {
  'add a null check before the call to parseConfig': [
    '--- a/config.ts',
    '+++ b/config.ts',
    '@@ -1,1 +1,2 @@',
    '+if (raw === undefined) throw new Error("no config");',
    ' parseConfig(raw);',
    '',
  ].join('\n'),
  'rename the variable raw to text': [
    '--- a/src/load.ts',
    '+++ b/src/load.ts',
    '@@ -1,2 +1,2 @@',
    '-const raw = readFileSync(file, "utf8");',
    '-parseConfig(raw);',
    '+const text = readFileSync(file, "utf8");',
    '+parseConfig(text);',
    '',
  ].join('\n'),
};

/** Content words of an instruction (three letters or more), lower-cased. */
function instructionWords(instruction: string): string[] {
  return (instruction.toLowerCase().match(/[a-z_$][\w$]{2,}/g) ?? []).filter(
    (w) => !['the', 'and', 'add', 'before', 'after', 'call', 'variable', 'rename'].includes(w),
  );
}

/**
 * fallback-writer's invariants, judged by rule: a diff applies when diff-apply.ts (the agent's own
 * tool) applies it to the task's source (fallbackVerdict); only the lines the instruction refers to
 * change when every changed line names a word of the instruction and at most one line is added.
 */
export function fallbackJudge(instruction: string): Judge {
  return (criterion, answer) => {
    const hunks = parseUnifiedDiff(answer);
    if (/applies cleanly/i.test(criterion))
      return hunks.length === 0
        ? { pass: true, reason: 'rule: no diff is returned' }
        : { pass: false, reason: 'rule: the task carries no source to apply the diff to' };
    if (/Only lines the instruction/i.test(criterion)) {
      const words = instructionWords(instruction);
      const removed = hunks.flatMap((h) => h.oldLines.filter((line) => !h.newLines.includes(line)));
      const unrelated = removed.filter((line) => !words.some((w) => line.toLowerCase().includes(w)));
      const added = hunks.reduce((n, h) => n + h.newLines.length - h.oldLines.length, 0);
      if (unrelated.length > 0)
        return { pass: false, reason: `rule: ${unrelated.length} changed line(s) name nothing of the instruction` };
      return added <= 1
        ? {
            pass: true,
            reason: `rule: ${removed.length} changed line(s), each naming the instruction; ${Math.max(0, added)} added`,
          }
        : { pass: false, reason: `rule: ${added} lines added for one instruction` };
    }
    return { pass: false, reason: 'scripted rule: the stand-in has no rule for this criterion' };
  };
}

/** Grading with the task at hand: the diff must apply to the source the task carries. */
function fallbackVerdict(ctx: TurnContext): ScriptTurn | undefined {
  const { system, user } = requestTexts(ctx.body);
  const asked = system === GRADER_SYSTEM_PROMPT ? readGradingRequest(user) : undefined;
  if (asked === undefined) return undefined;
  const data = taskData(asked.task);
  const judge: Judge = (criterion, answer) => {
    if (/applies cleanly/i.test(criterion) && typeof data?.['source'] === 'string') {
      const hunks = parseUnifiedDiff(answer);
      if (hunks.length === 0) return { pass: true, reason: 'rule: no diff is returned' };
      const applied = applyHunks(data['source'], hunks);
      return applied.applied
        ? { pass: true, reason: `rule: diff-apply applies its ${applied.hunks} hunk(s) to the given source` }
        : { pass: false, reason: `rule: diff-apply rejects hunk(s) ${applied.rejected.map((r) => r.hunk).join(', ')}` };
    }
    return fallbackJudge(String(data?.['instruction'] ?? ''))(criterion, answer);
  };
  return verdictFor(ctx, judge);
}

/** fallback-writer's small model: the scripted diff of the task's instruction, else a refusal to guess. */
export function fallbackTurn(_index: number, ctx: TurnContext): ScriptTurn {
  const graded = fallbackVerdict(ctx);
  if (graded) return graded;
  const data = taskData(requestTexts(ctx.body).user);
  const diff = typeof data?.['instruction'] === 'string' ? FALLBACK_DIFFS[data['instruction']] : undefined;
  return { text: diff ?? 'No diff: the instruction names nothing this file has.' };
}

const FALLBACK_KEY = 'sk-ant-stub-0123456789abcdefghij';

async function fallbackWriter(): Promise<StartedStandIns> {
  const anthropic = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: FALLBACK_KEY,
    script: fallbackTurn,
  });
  return {
    env: { AGENTDEF_BASE_URL_ANTHROPIC: anthropic.url, AGENTDEF_SECRET_ANTHROPIC_API_KEY: FALLBACK_KEY },
    secrets: [FALLBACK_KEY],
    close: () => anthropic.close(),
  };
}

// --- web-summarizer ---------------------------------------------------------------------------

/** web-summarizer's invariants and rubric, for replies about a page that could not be fetched. */
export const webJudge: Judge = (criterion, answer) => {
  const unfetched = /could not (be )?fetch/i.test(answer);
  if (/quoted sentence/i.test(criterion))
    return /"[^"]{12,}"|^>/m.test(answer)
      ? { pass: false, reason: 'rule: the reply quotes text, but no page was fetched to quote from' }
      : { pass: true, reason: 'rule: the reply quotes nothing' };
  if (/names the URL/i.test(criterion))
    return /\b(https?|ftp):\/\/\S+/.test(answer) && unfetched
      ? { pass: true, reason: 'rule: the reply names the URL; no page was fetched, so there is no fetch time to name' }
      : { pass: false, reason: 'rule: the reply names no URL' };
  if (/cannot be fetched|describe the content/i.test(criterion))
    return unfetched && !/\b(adds|fixes|introduces|release includes)\b/i.test(answer)
      ? { pass: true, reason: 'rule: the reply says the page could not be fetched and describes none of it' }
      : { pass: false, reason: 'rule: the reply describes a page it did not fetch' };
  return { pass: false, reason: 'scripted rule: the stand-in has no rule for this criterion' };
};

/** The frontier model, scripted: fetch the URL the user named, then report what came back. */
export function webTurn(_index: number, ctx: TurnContext): ScriptTurn {
  const graded = verdictFor(ctx, webJudge);
  if (graded) return graded;
  const url = /\b(?:https?|ftp):\/\/\S+/.exec(requestTexts(ctx.body).user)?.[0] ?? '';
  if (ctx.lastToolResults.length === 0) return { toolCalls: [{ name: 'fetch_page', arguments: { url } }] };
  const result = ctx.lastToolResults[0]!;
  if (/"text"\s*:/.test(result)) return { text: `Summary of ${url}: (the page was fetched).` };
  return {
    text: `I could not fetch ${url}: the fetcher refused it. I have not summarized it from memory; send a page on an origin the fetcher may reach.`,
  };
}

const OPENAI_KEY = 'sk-stub-openai-0123456789abcdef';

async function webSummarizer(): Promise<StartedStandIns> {
  const openai = await startScriptedProvider({ wire: 'openai-chat', apiKey: OPENAI_KEY, script: webTurn });
  return {
    env: { AGENTDEF_BASE_URL_OPENAI: openai.baseUrl, AGENTDEF_SECRET_OPENAI_API_KEY: OPENAI_KEY },
    secrets: [OPENAI_KEY],
    close: () => openai.close(),
  };
}

// --- splice-resolver (and the trees that hold it) ----------------------------------------------

/**
 * The tuned splice model, scripted: no candidate span, a refusal (that carries the edit on, so a
 * fallback can take it); else ask parse_spans about the candidates, then answer the span whose
 * syntax node is an export when the instruction says "export", else the first.
 */
export function spliceTurn(_index: number, ctx: TurnContext): ScriptTurn {
  const data = taskData(requestTexts(ctx.body).user) ?? {};
  const candidates = Array.isArray(data['candidates']) ? (data['candidates'] as { start: number; end: number }[]) : [];
  if (candidates.length === 0)
    return {
      text: JSON.stringify({
        refused: true,
        reason: 'no candidate span to choose from',
        path: data['path'],
        source: data['source'],
        instruction: data['instruction'],
      }),
    };
  if (ctx.lastToolResults.length === 0)
    return { toolCalls: [{ name: 'parse_spans', arguments: { path: data['path'], candidates } }] };
  const spans = (JSON.parse(ctx.lastToolResults[0]!) as { spans: { start: number; end: number; node: string }[] })
    .spans;
  const wantsExport = /export/i.test(String(data['instruction'] ?? ''));
  const chosen = (wantsExport ? spans.find((s) => /export/.test(s.node)) : undefined) ?? spans[0]!;
  return { text: JSON.stringify({ start: chosen.start, end: chosen.end, replacement: 'renamed', node: chosen.node }) };
}

/** The splice model's folder, native tool and inference server: what an HB3 tree holding splice-resolver needs. */
async function spliceHost(work: string): Promise<{ env: NodeJS.ProcessEnv; close(): Promise<void> }> {
  fakeCheckpoint(join(work, 'weights'));
  fakeParseSpans(join(work, 'bin'), join(work, 'parse_spans.log'));
  const inference = await startScriptedProvider({ wire: 'openai-chat', script: spliceTurn });
  return {
    env: {
      AGENTDEF_WEIGHTS_ROOT: join(work, 'weights'),
      AGENTDEF_NATIVE_BIN: join(work, 'bin'),
      AGENTDEF_INFERENCE_BASE_URL: inference.baseUrl,
    },
    close: () => inference.close(),
  };
}

async function spliceResolver(work: string): Promise<StartedStandIns> {
  const host = await spliceHost(work);
  return { env: host.env, secrets: [], close: host.close };
}

/** Whether an answer is one whole edit: a splice (span and replacement) or a unified diff with hunks. */
function wholeEdit(answer: string): string | undefined {
  try {
    const value = JSON.parse(answer) as Record<string, unknown>;
    if (
      typeof value['start'] === 'number' &&
      typeof value['end'] === 'number' &&
      typeof value['replacement'] === 'string'
    )
      return 'a whole splice (its span and its replacement)';
  } catch {
    // not JSON: a diff?
  }
  const hunks = parseUnifiedDiff(answer);
  return hunks.length > 0 ? `a unified diff of ${hunks.length} whole hunk(s)` : undefined;
}

/** The node of write-router's tree an answer names, if any. */
function namedNode(answer: string): string | undefined {
  return /\b(splice-resolver|fallback-writer)\b/.exec(answer)?.[1];
}

/** The judge of the trees that route edits (write-router, edit-assistant). */
export const editTreeJudge: Judge = (criterion, answer) => {
  if (/half-written|No file outside|planned edit fails/i.test(criterion)) {
    const whole = wholeEdit(answer);
    if (/planned edit fails/i.test(criterion))
      return whole
        ? { pass: true, reason: `rule: the edit did not fail (${whole}), so there is no failure to report` }
        : {
            pass: /fail|could not|refus/i.test(answer),
            reason: 'rule: no edit came back; the answer must say which failed and why',
          };
    if (/No file outside/i.test(criterion)) {
      const files = [...answer.matchAll(/^\+\+\+ b\/(\S+)/gm)].map((m) => m[1]);
      return {
        pass: true,
        reason:
          files.length > 0
            ? `rule: the diff touches ${files.join(', ')} only`
            : 'rule: a splice touches only the requested file',
      };
    }
    return whole
      ? { pass: true, reason: `rule: the answer is ${whole}, applied all or nothing` }
      : { pass: false, reason: 'rule: the answer is not a whole edit' };
  }
  if (/names the node|node that handled/i.test(criterion)) {
    const node = namedNode(answer);
    return node
      ? { pass: true, reason: `rule: the answer names ${node}` }
      : { pass: false, reason: 'rule: the answer names neither splice-resolver nor fallback-writer' };
  }
  return { pass: false, reason: 'scripted rule: the stand-in has no rule for this criterion' };
};

/**
 * write-router and edit-assistant: the splice model, fallback-writer's model (Anthropic), and an
 * OpenAI stand-in (write-router's router pin: the grader of write-router's cases; the tree binds its
 * key either way). Grading requests on either wire are judged by `editTreeJudge`.
 */
async function editTree(work: string): Promise<StartedStandIns> {
  const host = await spliceHost(work);
  const anthropic = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: FALLBACK_KEY,
    script: (index, ctx) => verdictFor(ctx, editTreeJudge) ?? fallbackTurn(index, ctx),
  });
  const openai = await startScriptedProvider({
    wire: 'openai-chat',
    apiKey: OPENAI_KEY,
    script: (_index, ctx) => verdictFor(ctx, editTreeJudge) ?? { text: 'This stand-in only grades.' },
  });
  return {
    env: {
      ...host.env,
      AGENTDEF_BASE_URL_ANTHROPIC: anthropic.url,
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: FALLBACK_KEY,
      AGENTDEF_BASE_URL_OPENAI: openai.baseUrl,
      AGENTDEF_SECRET_OPENAI_API_KEY: OPENAI_KEY,
    },
    secrets: [FALLBACK_KEY, OPENAI_KEY],
    close: async () => {
      await host.close();
      await anthropic.close();
      await openai.close();
    },
  };
}

/** The invariants of an example's definition (examples/<slug>/agent.json). */
function invariantsOf(slug: string): string[] {
  const file = join(EXAMPLES, slug, 'agent.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { capabilityContract: { invariants: string[] } }).capabilityContract
    .invariants;
}

/**
 * What the eval recordings of `slug` are made against (undefined: an example without models);
 * files they need (a checkpoint folder, native tools) go in a scratch folder under tmp/ that
 * `close` removes.
 */
export async function startEvalStandIns(slug: string): Promise<StartedStandIns | undefined> {
  mkdirSync(join(REPO, 'tmp'), { recursive: true });
  const work = mkdtempSync(join(REPO, 'tmp', `eval-stand-ins-${slug}-`));
  const started = await (async () => {
    switch (slug) {
      case 'support-triage':
        return supportTriage(invariantsOf(slug));
      case 'fallback-writer':
        return fallbackWriter();
      case 'web-summarizer':
        return webSummarizer();
      case 'splice-resolver':
        return spliceResolver(work);
      case 'write-router':
        return editTree(work);
      case 'edit-assistant':
        return editTree(work);
      default:
        return undefined;
    }
  })();
  if (started === undefined) {
    rmSync(work, { recursive: true, force: true });
    return undefined;
  }
  return {
    ...started,
    close: async () => {
      await started.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
