/**
 * The fixed places of agentdef's HB3 container contract, shared by the emitted job spec and the
 * entrypoint that runs inside it: the A2A port, the receipts file, the weights root and the
 * native tools folder.
 */
export const CONTAINER_PORT = 8080;
/** The in-container inference server tuned pins reach (OpenAI-compatible), unless the host says otherwise. */
export const LOCAL_INFERENCE_BASE_URL = 'http://127.0.0.1:8000/v1';
export const CONTAINER_RECEIPTS_FILE = '/var/lib/agentdef/receipts/receipts.jsonl';
export const CONTAINER_WEIGHTS_ROOT = '/weights';
export const IMAGE_TOOLS_DIR = '/opt/agentdef/tools';

/**
 * The package the SQLite task store (`AGENTDEF_TASK_STORE`) runs on where Node has no `node:sqlite`
 * (the image's Node 20), at the version agentdef is tested with: its native library comes prebuilt
 * in a per-platform package, so nothing compiles. The image installs it when built with
 * `--build-arg TASK_STORE=sqlite`.
 */
export const SQLITE_TASK_STORE_PACKAGE = 'libsql@0.5.29';

/**
 * The package the PostgreSQL task store (`AGENTDEF_TASK_STORE=postgres://…` or `secret:NAME`, replicas
 * sharing one database) runs on, at the version agentdef is tested with (pure JavaScript). The image
 * installs it when built with `--build-arg TASK_STORE=postgres`.
 */
export const POSTGRES_TASK_STORE_PACKAGE = 'pg@8.23.1';

/** The image build argument that selects the task store the image can run (`memory`, `sqlite`, `postgres`). */
export const TASK_STORE_BUILD_ARG = 'TASK_STORE';

/** The variable holding the origin(s) clients reach an A2A host at besides loopback (comma-separated). */
export const PUBLIC_ORIGIN_ENV = 'AGENTDEF_PUBLIC_ORIGIN';

/**
 * The secret holding the key that signs the served AgentCard: the runtime's
 * `CARD_SIGNING_KEY_BINDING`, named here for the steps that only read job specs (deploy);
 * mirrored-names.test.ts holds the two equal.
 */
export const CARD_SIGNING_KEY_SECRET = 'AGENTDEF_CARD_SIGNING_KEY';

/** The variable naming the command that starts a quarantined child's own job (see docs/hb3.md). */
export const CHILD_LAUNCHER_ENV = 'AGENTDEF_CHILD_LAUNCHER';

/** `write-router@1.4.0/splice-resolver@0.4.2` below root `write-router@1.4.0` → `splice-resolver-0.4.2`. */
export function nodeFileStem(rootId: string, nodeId: string): string {
  const below = nodeId.startsWith(`${rootId}/`) ? nodeId.slice(rootId.length + 1) : nodeId;
  return below
    .replace(/@/g, '-')
    .replace(/\//g, '--')
    .replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** The job file of a quarantined child, relative to the output folder. */
export function childJobFile(rootId: string, nodeId: string): string {
  return `jobs/${nodeFileStem(rootId, nodeId)}.hb3-job.json`;
}
