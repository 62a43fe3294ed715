/** The table of `agentdef ask` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO } from './shared-options';

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
    "Reads the agent card, sends one message over A2A with the official SDK client and prints the answer, `task: <id>`, `state: <state>` and the receipt line. The receipt is verified with --key, else a key the card publishes, else this machine's key store; without one it says `receipt: not checked`.",
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
  },
  exitCodes: [
    'answered (the receipt verified or not checked)',
    'the agent answered with an error, the task failed, was canceled or rejected, or the receipt does not verify',
    `${USAGE_OR_IO}, or the agent is unreachable`,
  ],
} as const satisfies CommandSpec;
