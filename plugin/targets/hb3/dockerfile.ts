/**
 * The image's build context (`image/`): a Dockerfile any container builder can build with
 * `docker build image/` (`--build-arg TASK_STORE=sqlite` adds the SQLite task store's package),
 * the bundled `entrypoint.mjs`, and a `native-tools/` folder for the executables of native tools
 * (agentdef's native tool protocol: JSON on stdin, JSON on stdout).
 */
import {
  CONTAINER_PORT,
  CONTAINER_RECEIPTS_FILE,
  IMAGE_TOOLS_DIR,
  POSTGRES_TASK_STORE_PACKAGE,
  SQLITE_TASK_STORE_PACKAGE,
  TASK_STORE_BUILD_ARG,
} from '../../host-contract/container-contract';
import type { Hb3Job } from '../../host-contract/hb3-job';
import { ENTRYPOINT_FILE } from '../../host-contract/output-files';
import { IMAGE_WORKDIR } from './job-spec';

/** Node 20 on Debian bookworm, slim: the runtime the entrypoint is bundled for. */
export const BASE_IMAGE = 'node:20-bookworm-slim';

export function dockerfile(root: Hb3Job, nativeBinaries: readonly string[], summary: string): string {
  const receiptsDir = CONTAINER_RECEIPTS_FILE.slice(0, CONTAINER_RECEIPTS_FILE.lastIndexOf('/'));
  const lines = [
    `# ${summary}`,
    `# Build: docker build -t ${root.image.name}:${root.image.tag} image`,
    `FROM ${BASE_IMAGE}`,
    `WORKDIR ${IMAGE_WORKDIR}`,
    'ENV NODE_ENV=production',
    `COPY ${ENTRYPOINT_FILE} ${IMAGE_WORKDIR}/${ENTRYPOINT_FILE}`,
  ];
  if (nativeBinaries.length > 0) {
    lines.push(`# Native tools (${nativeBinaries.join(', ')}): put the executables in native-tools/ before building.`);
    lines.push(`COPY native-tools/ ${IMAGE_TOOLS_DIR}/`, `RUN chmod -R a+rx ${IMAGE_TOOLS_DIR}`);
  }
  lines.push(
    `# The task store (AGENTDEF_TASK_STORE): a SQLite file on a volume (--build-arg ${TASK_STORE_BUILD_ARG}=sqlite), or PostgreSQL shared by replicas (--build-arg ${TASK_STORE_BUILD_ARG}=postgres).`,
    `ARG ${TASK_STORE_BUILD_ARG}=memory`,
    `RUN if [ "$${TASK_STORE_BUILD_ARG}" = "sqlite" ]; then npm install --no-save --no-audit --no-fund ${SQLITE_TASK_STORE_PACKAGE}; fi`,
    `RUN if [ "$${TASK_STORE_BUILD_ARG}" = "postgres" ]; then npm install --no-save --no-audit --no-fund ${POSTGRES_TASK_STORE_PACKAGE}; fi`,
    `RUN mkdir -p ${receiptsDir} /weights && chown node:node ${receiptsDir}`,
    'USER node',
    `EXPOSE ${CONTAINER_PORT}`,
    `HEALTHCHECK --interval=5s --timeout=2s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||${CONTAINER_PORT})+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]`,
    `CMD ${JSON.stringify(root.command)}`,
    '',
  );
  return lines.join('\n');
}

export function nativeToolsReadme(tools: readonly { toolId: string; binary: string }[]): string {
  return [
    '# Native tools',
    '',
    'Put one executable per native tool in this folder before building the image; it is copied to',
    `\`${IMAGE_TOOLS_DIR}/\`. agentdef starts it with no arguments, writes the call's arguments as one`,
    'JSON object on its stdin, and reads the result from its stdout (JSON, or plain text). Exit code 0',
    'means success; otherwise the first line of stderr is the error the model sees.',
    '',
    '| Tool | Executable |',
    '| --- | --- |',
    ...tools.map((t) => `| \`${t.toolId}\` | \`${t.binary}\` |`),
    '',
  ].join('\n');
}
