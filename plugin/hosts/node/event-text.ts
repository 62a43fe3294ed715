/**
 * The process hosts' events (run-events.ts) as one readable line each: what `agentdef run` and
 * `agentdef dev` print by default (`--log-format json` prints the host's JSON lines as they are).
 * Each line says what the event means, from where it comes from: the host's start and stop
 * (node-host-main.ts), its process and network guards (process-host.ts, spawn-guard.ts), the
 * runtime's runs, model and tool calls (plugin/runtime) and receipts. Only the fields each event is
 * known to carry are shown (never a prompt, an answer or a secret; the runtime has already scrubbed
 * the secrets it knows from its strings), and no event prints more than one line.
 * Undefined for an event the supervisor already reports in its own words (`host.ready`: the
 * banner; `host.tool_unimplemented`: the host's own warning line).
 */
import type { HostEvent } from './run-events';

/** The executables the key store and the secret source read the OS keychain with. */
const KEYCHAIN_READERS = new Set(['security', 'secret-tool']);

/** A field as text: strings and numbers as they are, on one line and bounded; anything else left out. */
function field(event: HostEvent, name: string): string | undefined {
  const value = event[name];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value === '') return undefined;
  const line = value.replace(/[\r\n\t]+/g, ' ');
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** `run <id>` for an event of a run, else the empty string; `suffix` follows it. */
function ofRun(event: HostEvent, suffix = ': '): string {
  const runId = field(event, 'runId');
  return runId ? `run ${runId}${suffix}` : '';
}

const withCode = (event: HostEvent, name = 'errorCode') => (field(event, name) ? ` (${field(event, name)})` : '');

/** One line for `event`, without its newline; undefined when nothing is to be printed for it. */
export function describeHostEvent(event: HostEvent): string | undefined {
  switch (event.event) {
    case 'host.ready':
    case 'host.tool_unimplemented':
      return undefined;
    case 'host.stopping':
      return `stopping${field(event, 'reason') ? ` (${field(event, 'reason')})` : ''}`;
    case 'host.stopped':
      return `stopped${field(event, 'reason') ? ` (${field(event, 'reason')})` : ''}`;
    case 'run.start':
      return `${ofRun(event, '')} started${field(event, 'agent') ? ` on ${field(event, 'agent')}` : ''}${field(event, 'skill') ? ` (skill ${field(event, 'skill')})` : ''}`;
    case 'run.end':
      return `${ofRun(event, '')} ended: ${field(event, 'stopReason') ?? 'done'}${field(event, 'latencyMs') ? ` after ${field(event, 'latencyMs')} ms` : ''}${withCode(event)}`;
    case 'model.call':
      return `${ofRun(event)}model call${field(event, 'purpose') && field(event, 'purpose') !== 'step' ? ` to ${field(event, 'purpose')}` : ''}${field(event, 'step') ? `, step ${field(event, 'step')}` : ''}${field(event, 'model') ? ` (${field(event, 'model')})` : ''}`;
    case 'tool.call':
      return `${ofRun(event)}tool ${field(event, 'tool') ?? '?'}${field(event, 'step') ? ` (step ${field(event, 'step')})` : ''}${event['ok'] === false ? ` failed${withCode(event)}` : ''}`;
    case 'loop.end':
      return `${ofRun(event)}agent loop ended: ${field(event, 'stopReason') ?? 'done'}${field(event, 'steps') ? ` after ${field(event, 'steps')} step${field(event, 'steps') === '1' ? '' : 's'}` : ''}${withCode(event)}`;
    case 'route.chosen':
      return `${ofRun(event)}routed to ${field(event, 'pin') ?? '?'}${field(event, 'label') ? ` (label ${field(event, 'label')})` : ' (the default: the reply named no label)'}`;
    case 'answer.judged':
      return `${ofRun(event)}the evaluator ${event['pass'] === true ? 'passed' : 'failed'} ${field(event, 'pin') ?? 'the'}'s answer${field(event, 'score') ? ` (score ${field(event, 'score')})` : ''}`;
    case 'child.run':
      return `${ofRun(event)}runs child ${field(event, 'child') ?? '?'}${event['quarantine'] === true ? ' (quarantined, in its own process)' : ''}`;
    case 'composition.end':
      return `${ofRun(event)}composition ended: ${field(event, 'stopReason') ?? 'done'}${field(event, 'nodesRun') ? ` after ${field(event, 'nodesRun')} node${field(event, 'nodesRun') === '1' ? '' : 's'}` : ''}${withCode(event)}`;
    case 'context.compacted':
      return `${ofRun(event)}context compacted (${field(event, 'policy') ?? 'policy'}): ${field(event, 'beforeTokens') ?? '?'} to ${field(event, 'afterTokens') ?? '?'} tokens`;
    case 'egress.blocked':
      return `warning: ${ofRun(event)}blocked a request to ${field(event, 'host') ?? 'a host'}: not in the agent's egress allow list`;
    case 'egress.blocked_off_machine':
      return `warning: ${ofRun(event)}blocked a request to ${field(event, 'host') ?? 'a host'}: a local-only agent reaches this machine only`;
    case 'spawn.blocked': {
      const executable = field(event, 'executable') ?? 'a program';
      return KEYCHAIN_READERS.has(executable)
        ? `note: the host's process guard refused a keychain lookup (${executable}) made after start-up: keys come from the keys folder and secrets from AGENTDEF_SECRET_<NAME> instead`
        : `warning: the host's process guard refused to start ${executable}: only the agent's own tools and MCP servers may start`;
    }
    case 'weights.loaded':
      return `loaded checkpoint ${field(event, 'checkpointId') ?? '?'}${field(event, 'files') ? `: ${field(event, 'files')} files` : ''}${field(event, 'bytes') ? `, ${field(event, 'bytes')} bytes` : ''}`;
    case 'mcp.ready':
      return `MCP server ${field(event, 'server') ?? '?'} ready${field(event, 'tools') ? ` (${field(event, 'tools')} tool${field(event, 'tools') === '1' ? '' : 's'})` : ''}`;
    case 'receipt.write_failed':
      return 'error: a receipt could not be appended to the receipts file';
    case 'telemetry.export_failed':
      return `warning: ${ofRun(event)}its telemetry could not be exported (the run is unchanged)`;
    case 'receipt.delivery_failed':
      return `error: ${ofRun(event)}its receipt could not be delivered${withCode(event)}`;
    case 'receipt.failed':
      return `error: ${ofRun(event)}no receipt was signed${withCode(event)}`;
    case 'card.signing_key_unusable':
      return `error: the agent card signing key cannot be used${withCode(event)}: the card is not served`;
    case 'rpc.internal_error':
      return `error: ${ofRun(event)}internal error answering ${field(event, 'method') ?? 'a request'}${withCode(event)}`;
    case 'http.internal_error':
      return `error: internal error answering a request${withCode(event)}`;
    default: {
      const fields = Object.keys(event)
        .filter((name) => name !== 'event' && field(event, name) !== undefined)
        .map((name) => `${name} ${field(event, name)}`);
      return `event ${event.event}${fields.length > 0 ? `: ${fields.join(', ')}` : ''}`;
    }
  }
}

/** How `agentdef run` and `agentdef dev` print the host's events. */
export type LogFormat = 'text' | 'json';

/** The line to print for a line of the host's event stream, with its newline; '' when nothing is printed. Lines that are no event pass as they are. */
export function eventLine(line: string, event: HostEvent | undefined, format: LogFormat): string {
  if (event === undefined || format === 'json') return `${line}\n`;
  const text = describeHostEvent(event);
  return text === undefined ? '' : `${text}\n`;
}
