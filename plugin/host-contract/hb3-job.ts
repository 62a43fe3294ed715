/**
 * The HB3 job spec (`hb3-job.json`, schema plugin/schema/hb3-job.v1.schema.json) as TypeScript:
 * what the hb3 adapter emits and what `agentdef run` and the container entrypoint read.
 */
import { CONTAINER_RECEIPTS_FILE } from './container-contract';

export const HB3_API_VERSION = 'hb3.agentdef.dev/v1';

/** Where the job's receipts folder sits in the container. */
export const RECEIPTS_DIR = CONTAINER_RECEIPTS_FILE.slice(0, CONTAINER_RECEIPTS_FILE.lastIndexOf('/'));

/** A setting, or a secret by name; an `optional` secret may be absent (the variable is then unset). */
export type EnvVar =
  | { name: string; value: string }
  | { name: string; secretRef: { name: string; optional?: boolean } };

export interface Hb3Job {
  apiVersion: typeof HB3_API_VERSION;
  kind: 'Job' | 'Service';
  metadata: {
    name: string;
    agent: string;
    node: string;
    planDigest: string;
    definitionDigest: string;
    labels: Record<string, string>;
  };
  image: { name: string; tag: string; build: { context: string; dockerfile: string }; workdir: string };
  entrypoint: { file: string; format: 'esm'; node: '20' };
  command: string[];
  interface:
    | { kind: 'a2a-http'; port: number; rpcPath: string; cardPath: string }
    | { kind: 'child-stdio'; protocol: 'agentdef-child/v1' };
  resources: { cpu: number; memoryMb: number; heapMb: number; gpu: { count: number; reason: string } | null };
  mounts: {
    name: string;
    mountPath: string;
    readOnly: boolean;
    source: { kind: 'checkpoint'; checkpointId: string; lock: string } | { kind: 'volume' };
  }[];
  inference: { protocol: 'openai-chat'; baseUrl: string; checkpoints: string[] } | null;
  nativeTools: { toolId: string; binary: string; path: string }[];
  env: EnvVar[];
  timeouts: {
    runMs: number;
    killAfterMs: number;
    startupMs: number;
    terminationGraceMs: number;
    activeDeadlineMs?: number;
  };
  healthCheck: {
    http: { path: string; port: number };
    initialDelayMs: number;
    periodMs: number;
    timeoutMs: number;
    failureThreshold: number;
  } | null;
  receipts:
    | {
        mode: 'signed';
        schema: 'receipt/v1';
        format: 'jsonl';
        path: string;
        volume: string;
        signer: string;
        keySecret: string;
      }
    | { mode: 'off' };
  restartPolicy: 'Never' | 'OnFailure' | 'Always';
}
