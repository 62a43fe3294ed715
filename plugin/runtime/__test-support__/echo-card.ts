/** A minimal unsigned A2A card the signing and verifying tests sign, edit and verify. */
import type { AgentCard } from '../agent-card';

export const ECHO_CARD: AgentCard = {
  name: 'Echo',
  description: 'Echoes text.',
  supportedInterfaces: [{ url: 'http://127.0.0.1:4100/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echo it back.', tags: ['text'] }],
};
