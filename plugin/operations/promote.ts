/**
 * The promote operation, behind `agentdef promote <file> --to <stage> [--key keyref:name] [--at
 * date-time] [--credential file] [--registry dir] [--format text|json]` and the `agentdef:promote`
 * executor: moves a definition one lifecycle stage up (passing only a
 * stage that does not apply to it, which the receipt lists), or any stages down, changing
 * only its `lifecycleState` value (written atomically, the file's mode kept) and appending the
 * signed transition receipt to `lifecycle.receipts.jsonl` in the definition's folder. A thin shell
 * around `promoteDefinitionText` (plugin/trust/promotion.ts): it reads the file, the key (`--key`,
 * default the definition's `identity.signingKeyRef`, through hosts/node/key-store.ts), the
 * credential (`--credential`, else the one publish wrote: `<registry>/<slug>/<version>.agentfacts.vc.json`,
 * the registry being `--registry` or the workspace's `registry/agents`) and the clock (only when
 * `--at` is not given). Exit 0 moved, 1 refused (located
 * diagnostics), 2 unreadable input or a usage error. No private key member is ever printed.
 * Hostile files: the definition is rewritten only as the file itself (a link is refused) and only
 * while it still holds the text that was read (definition/rewrite-source.ts); receipts are
 * appended only to a receipts file (never through a link, to a FIFO or to another file, checked
 * before the definition changes); the credential is read only as a bounded regular file.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { type DefinitionFormat, definitionFormat, parseDefinitionText } from '../definition/parse-document';
import { readDefinitionSource, readRegularFileBytes } from '../definition/read-source';
import { rewriteInPlace, rewriteProblem } from '../definition/rewrite-source';
import { findWorkspaceRoot, registrySlugPath, WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';
import { type KeyStoreOptions, loadPrivateKey } from '../hosts/node/key-store';
import { receiptsFileProblem } from '../hosts/node/receipt-file-sink';
import { parseSignedJson, parseStrictJson } from '../runtime/strict-json';
import { dateTimeStampMillis } from '../trust/data-integrity';
import { LIFECYCLE_RECEIPTS_FILE } from '../trust/lifecycle-receipt';
import { promoteDefinitionText } from '../trust/promotion';
import type { EvalRequirement } from '../trust/eval-gate';
import { BENCH_GATED_STAGES, type BenchRequirement } from '../trust/bench-gate';
import { verifyEvalReceipt } from '../eval/eval-receipt';
import { verifyToolBenchmarkEvents } from '../eval/tool-benchmark-events';
import {
  BENCH_OUTPUT_ROOT,
  EVAL_OUTPUT_ROOT,
  EVAL_RECEIPT_FILE,
  TOOL_BENCHMARK_EVENTS_FILE,
} from '../eval/eval-output';
import { publishedFileNames } from '../registry/registry-layout';
import { EXIT, type ExitCode, type OperationIo, type OperationResult } from './io';

const MAX_CREDENTIAL_BYTES = 1024 * 1024;
const MAX_EVAL_RECEIPT_BYTES = 4 * 1024 * 1024;
const MAX_BENCH_EVENTS_BYTES = 64 * 1024 * 1024;

export interface PromoteOptions {
  /** The definition file as the caller names it, relative to the working folder (shown as given). */
  file: string;
  /** The stage to move to. */
  to: string;
  /** `keyref:<name>`; default the definition's `identity.signingKeyRef`. */
  key?: string;
  /** RFC 3339 date-time with its zone; default now (the only clock read). */
  at?: string;
  /** The AgentFacts credential file, relative to the working folder; default the one publish wrote (marketplace-published). */
  credential?: string;
  /** The registry publish wrote the credential to, relative to the working folder. */
  registry?: string;
  format: 'text' | 'json';
  /** Require a passing eval receipt of this exact definition to promote to tool-shipped or mcp-resident (eval-gate.ts). */
  requireEval?: boolean;
  /** The eval receipt, relative to the working folder (implies `requireEval`); default the one `agentdef eval` wrote, `dist/eval/<slug>/eval.receipt.json` of the workspace. */
  evalReceipt?: string;
  /** The signed tool benchmark events every promotion to tool-shipped requires (bench-gate.ts), relative to the working folder; default the one `agentdef bench-tool` wrote (`dist/bench/<slug>/tool-benchmark-events.json` of the workspace), else the one `agentdef eval` of the tool wrote (`dist/eval/<slug>/…`). */
  benchEvents?: string;
  /** The key store's environment (tests). */
  keyStore?: KeyStoreOptions;
}

type Report = (diagnostics: Parameters<typeof formatDiagnostics>[0]) => ExitCode;

/** Moves the definition, appends the signed receipt and prints what happened; the exit code, or a problem with `options`. */
export async function promote(options: PromoteOptions, io: OperationIo): Promise<OperationResult> {
  const { file, to, format } = options;
  const fileFormat = definitionFormat(file);
  if (!fileFormat) return { usage: `${file} is not a .json, .yaml or .yml file` };
  // The operation reads the clock (the library never does); `at` makes a promotion reproducible.
  const at = options.at ?? new Date().toISOString();
  if (!Number.isFinite(dateTimeStampMillis(at) ?? Number.NaN) || !/^\d{4}-\d{2}-\d{2}T/.test(at))
    return { usage: `--at must be an RFC 3339 date-time with its time zone, not "${at}"` };

  const absolute = resolve(io.cwd, file);
  const source = readDefinition(io, absolute, file);
  if (typeof source === 'number') return source;
  const sources = new Map([[file, source.text ?? '']]);
  const report: Report = (diagnostics) => {
    (format === 'json' ? io.stdout : io.stderr)(formatDiagnostics(diagnostics, { format, sources }));
    return EXIT.invalid;
  };
  if (source.text === undefined) return report(source.diagnostics);

  const credential = readCredential(io, options, source.text, fileFormat, absolute);
  if (typeof credential === 'number') return credential;
  const key = await signingKey(io, options, source.text, fileFormat);
  if (typeof key === 'number') return key;

  const evalRequirement =
    options.requireEval === true || options.evalReceipt !== undefined
      ? readEvalRequirement(io, options, source.text, fileFormat, absolute, key)
      : undefined;
  if (typeof evalRequirement === 'number') return evalRequirement;
  const benchRequirement = (BENCH_GATED_STAGES as readonly string[]).includes(options.to)
    ? readBenchRequirement(io, options, source.text, fileFormat, absolute, key)
    : undefined;
  if (typeof benchRequirement === 'number') return benchRequirement;
  const result = await promoteDefinitionText({
    text: source.text,
    file,
    format: fileFormat,
    to,
    at,
    signer: { privateJwk: key.privateJwk, kid: key.kid },
    ...(credential.value !== undefined ? { credential: credential.value } : {}),
    ...(evalRequirement !== undefined ? { evalRequirement } : {}),
    ...(benchRequirement !== undefined ? { benchRequirement } : {}),
  });
  if (!result.ok) return report(result.diagnostics);
  const shownReceipts = writeWithReceipt(io, absolute, file, source.text, result);
  if (typeof shownReceipts === 'number') return shownReceipts;
  printPromotion(io, format, file, result, shownReceipts, key);
  return EXIT.ok;
}

/** The definition's source, read only as the file itself (a link is refused); an exit code when it cannot be read at all. */
function readDefinition(
  io: OperationIo,
  absolute: string,
  file: string,
): ReturnType<typeof readDefinitionSource> | ExitCode {
  const linked = rewriteProblem(absolute, file);
  if (linked !== undefined && !linked.startsWith('cannot inspect')) {
    io.stderr(`error: ${linked}; nothing changed\n`);
    return EXIT.usage;
  }
  const source = readDefinitionSource(absolute, file);
  if (source.ioError !== undefined) {
    io.stderr(`error: ${source.ioError}\n`);
    return EXIT.usage;
  }
  return source;
}

/** The AgentFacts credential: `credential`, else (for marketplace-published) the one publish wrote; an exit code when it is unusable. */
function readCredential(
  io: OperationIo,
  options: PromoteOptions,
  text: string,
  fileFormat: DefinitionFormat,
  absolute: string,
): { value?: unknown } | ExitCode {
  // Without `credential`, marketplace-published looks for the credential publish wrote.
  const shown =
    options.credential ??
    (options.to === 'marketplace-published'
      ? publishedCredentialPath(text, options.file, fileFormat, absolute, io.cwd, options.registry)
      : undefined);
  if (shown === undefined) return {};
  // Only a regular file, bounded: a FIFO or a link to /dev/zero in the registry never blocks promote.
  const read = readRegularFileBytes(resolve(io.cwd, shown), shown, MAX_CREDENTIAL_BYTES);
  if (read.bytes === undefined) {
    if (options.credential === undefined && read.missing === true) {
      // Nothing published for this version: promotion refuses, naming what is missing.
      io.stderr(
        `note: no AgentFacts credential at ${shown} (publish this version first, or pass --credential <file>)\n`,
      );
      return {};
    }
    io.stderr(`error: ${read.ioError ?? `${shown} is too large for a credential`}\n`);
    return EXIT.usage;
  }
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    io.stderr(`error: ${shown} is not UTF-8 text\n`);
    return EXIT.usage;
  }
  const json = parseStrictJson(decoded);
  if (!json.ok) {
    io.stderr(`error: ${shown} is not strict JSON (${json.reason})\n`);
    return EXIT.usage;
  }
  return { value: json.value };
}

type LoadedKey = Extract<Awaited<ReturnType<typeof loadPrivateKey>>, { ok: true }>;

/**
 * The eval requirement: the receipt `evalReceipt` names, else the one `agentdef eval` wrote for
 * this slug in the workspace (`dist/eval/<slug>/eval.receipt.json`), read as a bounded regular
 * file (missing: the gate says so, located); checked with the promoting key. An exit code when the
 * file named cannot be read at all.
 */
function readEvalRequirement(
  io: OperationIo,
  options: PromoteOptions,
  text: string,
  fileFormat: DefinitionFormat,
  absolute: string,
  key: LoadedKey,
): EvalRequirement | ExitCode {
  const slug = (
    parseDefinitionText(text, options.file, fileFormat).document?.value as { identity?: { slug?: unknown } } | undefined
  )?.identity?.slug;
  const workspaceRoot = findWorkspaceRoot(dirname(absolute)) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;
  const path =
    options.evalReceipt !== undefined
      ? resolve(io.cwd, options.evalReceipt)
      : join(
          workspaceRoot,
          EVAL_OUTPUT_ROOT,
          typeof slug === 'string' && /^[a-z0-9][a-z0-9-]*$/.test(slug) ? slug : '_',
          EVAL_RECEIPT_FILE,
        );
  const shown = options.evalReceipt ?? (relative(io.cwd, path) || path);
  const requirement: EvalRequirement = {
    receipt: undefined,
    shown,
    publicJwk: key.publicJwk,
    kid: key.kid,
    verify: async (receipt, publicJwk) => {
      const check = await verifyEvalReceipt(receipt, () => publicJwk);
      return check.verified ? [] : check.failures.map((f) => `${f.pointer || '(receipt)'}: ${f.message}`);
    },
    evalCommand: `agentdef eval ${options.file}`,
  };
  const read = readRegularFileBytes(path, shown, MAX_EVAL_RECEIPT_BYTES);
  if (read.bytes === undefined) {
    if (read.missing === true) return requirement;
    io.stderr(`error: ${read.ioError ?? `${shown} is too large for an eval receipt`}\n`);
    return EXIT.usage;
  }
  let decoded: string | undefined;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    decoded = undefined;
  }
  // Read as signed documents are (duplicate and reserved member names refused).
  const json = decoded === undefined ? undefined : parseSignedJson(decoded);
  // Not JSON at all: no eval receipt, which the gate says (located) like any other wrong file.
  return { ...requirement, receipt: json?.ok ? json.value : null };
}

/** The definition's slug when it is one agentdef writes folders for, else `_`. */
function slugOf(text: string, file: string, fileFormat: DefinitionFormat): string {
  const slug = (
    parseDefinitionText(text, file, fileFormat).document?.value as { identity?: { slug?: unknown } } | undefined
  )?.identity?.slug;
  return typeof slug === 'string' && /^[a-z0-9][a-z0-9-]*$/.test(slug) ? slug : '_';
}

/**
 * The benchmark requirement: the events file `benchEvents` names, else the one `agentdef bench-tool`
 * wrote for this slug in the workspace (`dist/bench/<slug>/tool-benchmark-events.json`), else the one
 * `agentdef eval` of the tool wrote (`dist/eval/<slug>/tool-benchmark-events.json`), read as a
 * bounded regular file (missing: the gate says so, located, naming bench-tool's); checked with the
 * promoting key. An exit code when the file found cannot be read at all.
 */
function readBenchRequirement(
  io: OperationIo,
  options: PromoteOptions,
  text: string,
  fileFormat: DefinitionFormat,
  absolute: string,
  key: LoadedKey,
): BenchRequirement | ExitCode {
  const slug = slugOf(text, options.file, fileFormat);
  const workspaceRoot = findWorkspaceRoot(dirname(absolute)) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;
  const candidates =
    options.benchEvents !== undefined
      ? [resolve(io.cwd, options.benchEvents)]
      : [BENCH_OUTPUT_ROOT, EVAL_OUTPUT_ROOT].map((folder) =>
          join(workspaceRoot, folder, slug, TOOL_BENCHMARK_EVENTS_FILE),
        );
  const shownOf = (path: string) => options.benchEvents ?? (relative(io.cwd, path) || path);
  const requirement: BenchRequirement = {
    events: undefined,
    shown: shownOf(candidates[0]!),
    publicJwk: key.publicJwk,
    kid: key.kid,
    verify: async (events, publicJwk) => {
      const check = await verifyToolBenchmarkEvents(events, () => publicJwk);
      return check.verified ? [] : check.failures.map((f) => `${f.pointer || '(events)'}: ${f.message}`);
    },
    benchCommand: `agentdef bench-tool ${options.file}`,
  };
  for (const path of candidates) {
    const shown = shownOf(path);
    const read = readRegularFileBytes(path, shown, MAX_BENCH_EVENTS_BYTES);
    if (read.bytes === undefined) {
      if (read.missing === true) continue;
      io.stderr(`error: ${read.ioError ?? `${shown} is too large for tool benchmark events`}\n`);
      return EXIT.usage;
    }
    let decoded: string | undefined;
    try {
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    } catch {
      decoded = undefined;
    }
    // Read as signed documents are (duplicate and reserved member names refused); not JSON: the gate says so.
    const json = decoded === undefined ? undefined : parseSignedJson(decoded);
    return { ...requirement, shown, events: json?.ok ? json.value : null };
  }
  return requirement;
}

/** The signing key: `key`, else the definition's own signing key ref; an exit code when there is none or it cannot be loaded. */
async function signingKey(
  io: OperationIo,
  options: PromoteOptions,
  text: string,
  fileFormat: DefinitionFormat,
): Promise<LoadedKey | ExitCode> {
  let keyRef = options.key;
  if (keyRef === undefined) {
    const current = parseDefinitionText(text, options.file, fileFormat).document?.value as
      | { identity?: { signingKeyRef?: unknown } }
      | undefined;
    const ref = current?.identity?.signingKeyRef;
    if (typeof ref !== 'string') {
      io.stderr('error: the definition names no identity.signingKeyRef: pass --key keyref:<name>\n');
      return EXIT.usage;
    }
    keyRef = ref;
  }
  const key = await loadPrivateKey(keyRef, options.keyStore ?? {});
  if (!key.ok) {
    io.stderr(`error: ${key.message}\n`);
    return EXIT.usage;
  }
  return key;
}

type Promoted = Extract<Awaited<ReturnType<typeof promoteDefinitionText>>, { ok: true }>;

/**
 * Rewrites the definition and appends its receipt, both destinations checked before either
 * changes; no transition without its receipt. The receipts file as shown, or an exit code.
 */
function writeWithReceipt(
  io: OperationIo,
  absolute: string,
  file: string,
  before: string,
  result: Promoted,
): string | ExitCode {
  const receiptsPath = join(dirname(absolute), LIFECYCLE_RECEIPTS_FILE);
  const shownReceipts = relative(io.cwd, receiptsPath) || LIFECYCLE_RECEIPTS_FILE;
  // The file itself (never a link), and a receipts file.
  const receiptsProblem = receiptsFileProblem(receiptsPath);
  if (receiptsProblem !== undefined) {
    io.stderr(`error: cannot append to ${shownReceipts}: ${receiptsProblem}; nothing changed\n`);
    return EXIT.usage;
  }
  const written = rewriteInPlace(absolute, file, before, result.text);
  if (!written.ok) {
    io.stderr(`error: ${written.error}; nothing changed\n`);
    return EXIT.usage;
  }
  const appended = appendReceiptLine(receiptsPath, `${JSON.stringify(result.receipt)}\n`);
  if (appended !== undefined) {
    // Put the definition back as it was (unless it changed since).
    rewriteInPlace(absolute, file, result.text, before);
    io.stderr(`error: cannot append to ${shownReceipts} (${appended}); ${file} is left at "${result.from}"\n`);
    return EXIT.usage;
  }
  return shownReceipts;
}

function printPromotion(
  io: OperationIo,
  format: 'text' | 'json',
  file: string,
  result: Promoted,
  shownReceipts: string,
  key: LoadedKey,
): void {
  if (format === 'json') {
    io.stdout(
      `${JSON.stringify({ file, from: result.from, to: result.to, transition: result.transition, skipped: result.skipped, receipts: shownReceipts, receipt: result.receipt }, null, 2)}\n`,
    );
    return;
  }
  io.stdout(`${file}: ${result.transition} ${result.from} -> ${result.to}\n`);
  for (const { stage, reason } of result.skipped) io.stdout(`passed "${stage}", which does not apply: ${reason}\n`);
  io.stdout(`receipt appended to ${shownReceipts} (signed by ${key.ref}, kid ${key.kid})\n`);
}

/** Appends one line to a receipts file: opened without following a link or blocking, only a regular file. The error code, or undefined. */
function appendReceiptLine(path: string, line: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY |
        constants.O_APPEND |
        constants.O_CREAT |
        (constants.O_NOFOLLOW ?? 0) |
        (constants.O_NONBLOCK ?? 0),
      0o644,
    );
    if (!fstatSync(fd).isFile()) return 'not a regular file';
    writeSync(fd, line);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Where publish wrote this definition version's AgentFacts credential, as the user would type it
 * (relative to the working directory): `<registry>/<slug>/<version>.agentfacts.vc.json`. The
 * registry is `--registry`, else the workspace's default registry root. Undefined when the
 * definition names no slug or version (validation reports that).
 */
function publishedCredentialPath(
  text: string,
  file: string,
  format: DefinitionFormat,
  absolute: string,
  cwd: string,
  registryOption: string | undefined,
): string | undefined {
  const identity = (
    parseDefinitionText(text, file, format).document?.value as
      | { identity?: { slug?: unknown; versionSemver?: unknown } }
      | undefined
  )?.identity;
  const slug = identity?.slug;
  const version = identity?.versionSemver;
  if (
    typeof slug !== 'string' ||
    typeof version !== 'string' ||
    !/^[a-z0-9][a-z0-9-]*$/.test(slug) ||
    !/^[0-9A-Za-z.+-]+$/.test(version)
  )
    return undefined;
  const workspaceRoot = findWorkspaceRoot(dirname(absolute)) ?? findWorkspaceRoot(cwd) ?? cwd;
  const registryRoot =
    registryOption !== undefined
      ? resolve(cwd, registryOption)
      : isAbsolute(WORKSPACE_DEFAULTS.registryRoot)
        ? WORKSPACE_DEFAULTS.registryRoot
        : resolve(workspaceRoot, WORKSPACE_DEFAULTS.registryRoot);
  const path = join(registrySlugPath(registryRoot, slug), publishedFileNames(version).credential);
  return relative(cwd, path) || path;
}
