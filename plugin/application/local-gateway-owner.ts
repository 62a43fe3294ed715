/**
 * The reference gateway owner: approved artifacts, by digest, from one workspace folder, fully
 * offline. An operator (never a manifest, never an MCP caller) approves an artifact by listing it
 * in `<folder>/approvals.json`:
 *
 *   { "schemaVersion": "agentdef.approved-artifacts/v1",
 *     "approvals": [ { "artifactDigest": "<sha256 of the file>", "capability": "release-notes.publish",
 *                      "file": "release-notes.md", "mediaType": "text/markdown", "live": "approved" } ] }
 *
 * `live` is `approved` (live dispatch allowed) or `operator-required` (a live step stops at the
 * approval boundary: operator authority is the host's, not the caller's).
 *
 * - Evidence: the profile name and the digest of the approvals file's canonical JSON, re-read on
 *   every call, so an approval changed between plan and execute is drift.
 * - Dry-run: checks the approval and the file's bytes against the digest; dispatches nothing.
 * - Live: the same checks, then the idempotency fence: the dispatch record
 *   `<folder>/outbox/<step key digest>.json` is created exclusively, right after `markDispatched`
 *   answered `ok`. A repeat of the same step key finds the record and returns it without a second
 *   dispatch. The record holds digests only, never the request or the artifact bytes. The outbox
 *   must be a real folder right inside the approved-artifacts folder (a link out of it stops the
 *   step before the dispatch marker).
 *
 * Files are read through the workspace's guarded reader (regular files only, no link out of the
 * folder, size-limited). Nothing throws; messages never quote file contents.
 */
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, realpathSync, writeSync } from 'node:fs';
import { isAbsolute, join, posix } from 'node:path';
import type { Finding } from '../definition/diagnostic';
import { decodeSource, readSourceBytes } from '../definition/read-source';
import type { AdapterOutcome, OwnerEvidence } from './component-adapter';
import { GATEWAY_OWNER_NAME, type GatewayInvocation, type GatewayOwner } from './gateway-owner';
import { SHA256_HEX } from './source-digest';
import { digestApplicationJson, digestPlainJson, type JsonValue } from './stable-json';
import { parseStrictJson } from '../runtime/strict-json';

export const APPROVALS_FILE = 'approvals.json';
export const APPROVALS_SCHEMA_VERSION = 'agentdef.approved-artifacts/v1';
export const LOCAL_GATEWAY_PROFILE = 'agentdef.local-gateway/v1';
export const OUTBOX_FOLDER = 'outbox';
const MAX_APPROVALS_BYTES = 1024 * 1024;
const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

interface Approval {
  readonly artifactDigest: string;
  readonly capability: string;
  readonly file: string;
  readonly mediaType: string;
  readonly live: 'approved' | 'operator-required';
}

type Approvals = { ok: true; approvals: readonly Approval[]; digest: string } | { ok: false; message: string };

export interface LocalGatewayOptions {
  /** Absolute. */
  readonly workspaceRoot: string;
  /** Workspace-relative folder holding approvals.json, the artifacts and the outbox. */
  readonly folder: string;
}

export type LocalGatewayOpening =
  | { readonly ok: true; readonly gateway: GatewayOwner }
  | { readonly ok: false; readonly message: string };

/** A relative folder inside the workspace, posix separators, no `..`. */
function checkFolder(folder: unknown): string | undefined {
  if (
    typeof folder !== 'string' ||
    folder.length === 0 ||
    folder.length > 512 ||
    isAbsolute(folder) ||
    folder.includes('\\') ||
    folder.includes('\0')
  )
    return undefined;
  const normal = posix.normalize(folder);
  if (normal === '..' || normal.startsWith('../') || normal.startsWith('/')) return undefined;
  return normal === '.' ? '.' : normal.replace(/\/$/, '');
}

function readApprovals(root: string, folder: string): Approvals {
  const file = posix.join(folder, APPROVALS_FILE);
  const read = readSourceBytes(join(root, file), file, MAX_APPROVALS_BYTES, root);
  if (read.bytes === undefined)
    return { ok: false, message: read.ioError ?? `${file} is larger than ${MAX_APPROVALS_BYTES} bytes` };
  const decoded = decodeSource(read.bytes, file);
  if (decoded.text === undefined) return { ok: false, message: `${file} is not UTF-8 text` };
  const parsed = parseStrictJson(decoded.text);
  if (!parsed.ok) return { ok: false, message: `${file} is not valid JSON (${parsed.reason})` };
  const value = parsed.value as { schemaVersion?: unknown; approvals?: unknown };
  if (
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    value.schemaVersion !== APPROVALS_SCHEMA_VERSION ||
    !Array.isArray(value.approvals)
  ) {
    return {
      ok: false,
      message: `${file} must be an object with \`schemaVersion\` "${APPROVALS_SCHEMA_VERSION}" and an \`approvals\` array`,
    };
  }
  const approvals: Approval[] = [];
  for (const [index, entry] of value.approvals.entries()) {
    const e = entry as Record<string, unknown>;
    const keys = e !== null && typeof e === 'object' && !Array.isArray(e) ? Object.keys(e).sort().join(',') : '';
    if (
      keys !== 'artifactDigest,capability,file,live,mediaType' ||
      typeof e.artifactDigest !== 'string' ||
      !SHA256_HEX.test(e.artifactDigest) ||
      typeof e.capability !== 'string' ||
      e.capability.length === 0 ||
      e.capability.length > 128 ||
      typeof e.file !== 'string' ||
      !FILE_NAME.test(e.file) ||
      e.file === APPROVALS_FILE ||
      typeof e.mediaType !== 'string' ||
      !MEDIA_TYPE.test(e.mediaType) ||
      (e.live !== 'approved' && e.live !== 'operator-required')
    ) {
      return {
        ok: false,
        message: `${file} /approvals/${index} must have exactly artifactDigest (64 lowercase hex), capability, file (a plain file name in the folder), mediaType and live ("approved" or "operator-required")`,
      };
    }
    approvals.push({
      artifactDigest: e.artifactDigest,
      capability: e.capability,
      file: e.file,
      mediaType: e.mediaType,
      live: e.live,
    });
  }
  const digest = digestApplicationJson(parsed.value);
  if (!digest.ok) return { ok: false, message: `${file} has no canonical form (${digest.reason})` };
  return { ok: true, approvals, digest: digest.sha256 };
}

function findApproval(
  approvals: readonly Approval[],
  artifactDigest: string,
  capability: string,
): Approval | undefined {
  return approvals.find((a) => a.artifactDigest === artifactDigest && a.capability === capability);
}

/** The artifact's size when its bytes have the approved digest; why not otherwise. */
function verifyArtifact(
  root: string,
  folder: string,
  approval: Approval,
): { ok: true; bytes: number } | { ok: false; code: string; message: string } {
  const file = posix.join(folder, approval.file);
  const read = readSourceBytes(join(root, file), file, MAX_ARTIFACT_BYTES, join(root, folder));
  if (read.bytes === undefined)
    return {
      ok: false,
      code: 'artifact-unreadable',
      message: read.ioError ?? `${file} is larger than ${MAX_ARTIFACT_BYTES} bytes`,
    };
  const actual = createHash('sha256').update(read.bytes).digest('hex');
  if (actual !== approval.artifactDigest)
    return {
      ok: false,
      code: 'artifact-digest-mismatch',
      message: `${file} does not have the approved digest: the artifact changed after approval`,
    };
  return { ok: true, bytes: read.bytes.length };
}

/**
 * Creates `<folder>/outbox` when missing and checks that it is a real folder right inside the
 * approved-artifacts folder: an outbox that is a link (or under a link) out of it would put the
 * dispatch records, the gateway's idempotency fence, somewhere else.
 */
function ensureOutbox(root: string, folder: string): string | undefined {
  const outbox = join(root, folder, OUTBOX_FOLDER);
  try {
    mkdirSync(outbox, { recursive: true });
    if (!lstatSync(outbox).isDirectory()) return undefined;
    return realpathSync(outbox) === join(realpathSync(join(root, folder)), OUTBOX_FOLDER) ? outbox : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the dispatch record exclusively; `exists` when a previous dispatch of this key made it. */
function createDispatchRecord(path: string, text: string): 'created' | 'exists' | { error: string } {
  try {
    const fd = openSync(path, 'wx', 0o644);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return 'created';
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return 'exists';
    return { error: `cannot write the dispatch record (${String((error as { code?: unknown }).code ?? 'I/O error')})` };
  }
}

export function createLocalGatewayOwner(options: LocalGatewayOptions): LocalGatewayOpening {
  const root = options?.workspaceRoot;
  if (typeof root !== 'string' || !isAbsolute(root))
    return { ok: false, message: 'the local gateway needs an absolute workspace root' };
  const folder = checkFolder(options.folder);
  if (folder === undefined)
    return {
      ok: false,
      message: 'the approved-artifacts folder must be a relative path inside the workspace (no `..`, no absolute path)',
    };

  const evidence = (): OwnerEvidence => {
    const approvals = readApprovals(root, folder);
    if (!approvals.ok) return { ok: false, message: `the local gateway has no usable approvals: ${approvals.message}` };
    return { ok: true, evidence: { profile: LOCAL_GATEWAY_PROFILE, approvalsDigest: approvals.digest } };
  };

  const check = (artifactDigest: string, capability: string, pointer: string): Finding[] => {
    const approvals = readApprovals(root, folder);
    const help = `an operator approves an artifact by adding { artifactDigest, capability, file, mediaType, live } to ${posix.join(folder, APPROVALS_FILE)}; a manifest cannot approve itself`;
    if (!approvals.ok)
      return [
        {
          rule: 'gateway-approval',
          path: pointer,
          message: `the gateway cannot check the approval: ${approvals.message}`,
          suggestion: help,
        },
      ];
    const approval = findApproval(approvals.approvals, artifactDigest, capability);
    if (approval === undefined) {
      return [
        {
          rule: 'gateway-approval',
          path: pointer,
          message: `the artifact ${artifactDigest} is not approved for capability \`${capability}\``,
          suggestion: help,
        },
      ];
    }
    const verified = verifyArtifact(root, folder, approval);
    return verified.ok
      ? []
      : [
          {
            rule: 'gateway-approval',
            path: pointer,
            message: verified.message,
            suggestion: 'restore the approved file, or have an operator approve the new digest',
          },
        ];
  };

  const invoke = async (call: GatewayInvocation): Promise<AdapterOutcome> => {
    if (call.signal.aborted)
      return { status: 'failed', code: 'cancelled', message: 'cancelled before the gateway was reached' };
    const approvals = readApprovals(root, folder);
    if (!approvals.ok) return { status: 'failed', code: 'gateway-unavailable', message: approvals.message };
    const approval = findApproval(approvals.approvals, call.artifactDigest, call.capability);
    if (approval === undefined)
      return {
        status: 'approval-required',
        message: `the artifact is not approved for capability \`${call.capability}\``,
      };
    const verified = verifyArtifact(root, folder, approval);
    if (!verified.ok) return { status: 'failed', code: verified.code, message: verified.message };
    const requestDigest = digestPlainJson(call.request);
    if (!requestDigest.ok)
      return { status: 'failed', code: 'invalid-request', message: 'the gateway request is not plain JSON data' };
    const reference: Record<string, JsonValue> = {
      artifactDigest: approval.artifactDigest,
      capability: approval.capability,
      mediaType: approval.mediaType,
      bytes: verified.bytes,
      requestDigest: requestDigest.sha256,
    };
    if (call.mode === 'dry-run')
      return { status: 'completed', outputs: { artifact: { ...reference, dispatched: false } } };

    if (approval.live !== 'approved')
      return {
        status: 'approval-required',
        message: 'live dispatch of this artifact needs operator approval, which only the host can give',
      };
    const outbox = ensureOutbox(root, folder);
    if (outbox === undefined) {
      return {
        status: 'failed',
        code: 'gateway-unavailable',
        message: `cannot use ${posix.join(folder, OUTBOX_FOLDER)}: it must be a folder right inside ${folder}, not a link out of it`,
      };
    }
    const keyDigest = createHash('sha256').update(call.idempotencyKey).digest('hex');
    const recordPath = join(outbox, `${keyDigest}.json`);
    const record = `${JSON.stringify({ schemaVersion: 'agentdef.gateway-dispatch/v1', stepKeyDigest: keyDigest, ...reference })}\n`;
    if (call.signal.aborted) return { status: 'failed', code: 'cancelled', message: 'cancelled before dispatch' };
    const marked = await call.markDispatched();
    if (!marked.ok) return { status: 'failed', code: 'dispatch-refused', message: marked.message };
    const created = createDispatchRecord(recordPath, record);
    if (typeof created === 'object')
      return {
        status: 'deadline-uncertain',
        message: `${created.error}: the dispatch may or may not have happened; reconcile the outbox`,
      };
    // `exists`: this step key was dispatched before; the fence returns that dispatch, never a second one.
    return {
      status: 'completed',
      outputs: { artifact: { ...reference, dispatched: true, replayed: created === 'exists' } },
    };
  };

  return { ok: true, gateway: { name: GATEWAY_OWNER_NAME, evidence, check, invoke } };
}
