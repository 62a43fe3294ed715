/**
 * The line `agentdef ask` prints for a hybrid leaf's answer, from the task's `metadata.hybrid`
 * (hybrid-trace.ts): the pin the router sent the question to, and each verdict of the evaluator
 * in order, e.g. `hybrid: routed to billing (label billing); evaluator: billing failed, billing passed`.
 * No critique (model text). The metadata comes from the agent, so only its expected shape is read
 * and every name is shown on one line without control characters; anything else prints nothing.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A name from the metadata on one line: control characters become spaces, at most 80 characters. */
function plain(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
  const oneLine = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine;
}

export function hybridLine(metadata: Record<string, unknown> | undefined): string | undefined {
  const hybrid = metadata?.['hybrid'];
  if (!isRecord(hybrid)) return undefined;
  const parts: string[] = [];
  const route = hybrid['route'];
  if (isRecord(route) && typeof route['pin'] === 'string') {
    const label = route['label'];
    parts.push(
      `routed to ${plain(route['pin'])} ${typeof label === 'string' ? `(label ${plain(label)})` : '(the default: the router named no label)'}`,
    );
  }
  const verdicts = Array.isArray(hybrid['verdicts']) ? hybrid['verdicts'].filter(isRecord) : [];
  const judged = verdicts
    .filter((v) => typeof v['pin'] === 'string' && typeof v['pass'] === 'boolean')
    .map((v) => `${plain(v['pin'] as string)} ${v['pass'] ? 'passed' : 'failed'}`);
  if (judged.length > 0) parts.push(`evaluator: ${judged.join(', ')}`);
  return parts.length > 0 ? `hybrid: ${parts.join('; ')}` : undefined;
}
