/** The table of `agentdef ask` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO } from './shared-options';

/** What is wrong with a number of seconds: a decimal above 0, at most a day. */
function secondsProblem(given: string): string | undefined {
  const value = /^\d{1,5}(?:\.\d{1,3})?$/.test(given) ? Number(given) : Number.NaN;
  return value > 0 && value <= 86_400 ? undefined : 'give a number of seconds above 0 and at most 86400 (a day)';
}

export const ASK = {
  name: 'ask',
  arguments: [
    { name: '<url>', description: "the agent's base URL (http or https), or its agent card's URL" },
    {
      name: '<text>',
      description:
        'the message to send (quote it); JSON is sent as a data part to an agent that takes JSON and not text',
    },
  ],
  summary:
    'ask a running agent over A2A (@a2a-js/sdk): prints the answer, the task id and state, and verifies the receipt',
  description:
    "Reads the agent card, sends one message over A2A with the official SDK client and prints the answer, `task: <id>`, `state: <state>` and the receipt line (for a hybrid leaf also `hybrid: routed to <pin> …; evaluator: …`, its route and verdicts). The receipt is verified with --key, else a key the card publishes, else this machine's key store; without one it says `receipt: not checked`. Everything it reads is bounded: a card larger than 1 MiB is refused once that much has come, a card must arrive within --card-timeout and an event stream is given up when it sends nothing for --idle-timeout. It talks only to the card's origin: a card whose RPC URL (or a redirect) is at another origin is refused, naming both, unless --follow.",
  options: {
    task: {
      type: 'string',
      value: 'id',
      otherwise: 'a new task',
      description: 'continue this task (an input-required task, say)',
    },
    stream: {
      type: 'boolean',
      default: false,
      description: 'stream the answer as it is written (SendStreamingMessage), when the card declares streaming',
    },
    key: {
      type: 'string',
      value: 'public-jwk-file',
      description: 'the public Ed25519 JWK to verify the receipt with (a private key is refused and never printed)',
    },
    'card-timeout': {
      type: 'string',
      value: 'seconds',
      default: '30',
      example: '10',
      check: secondsProblem,
      description: 'give up reading the agent card (at most 1 MiB) when it has not all arrived in this time',
    },
    'idle-timeout': {
      type: 'string',
      value: 'seconds',
      default: '300',
      example: '60',
      check: secondsProblem,
      description:
        'with --stream, give up when the event stream sends nothing for this long (its first event included)',
    },
    follow: {
      type: 'boolean',
      default: false,
      description:
        "send to the card's RPC URL (and follow redirects) even when it is at another origin than the card's (scheme, host and port); without it that is refused",
    },
  },
  exitCodes: [
    'answered (the receipt verified or not checked)',
    'the agent answered with an error, the task failed, was canceled or rejected, or the receipt does not verify',
    `${USAGE_OR_IO}, the agent is unreachable, or a bound was reached (card size or time, stream silence, another origin)`,
  ],
} as const satisfies CommandSpec;
