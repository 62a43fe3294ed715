/**
 * `memoryContract.refs[].egressAllowed: false` says the memory's content never leaves the runtime
 * host. The runtime sends the conversation (`chat` memory) to every model pin on every turn, so a
 * `chat` memory that may not leave the host requires every pin to run on the machine (tier
 * `local`); a remote pin (`frontier`, `small`, `tuned`) would receive it, and is a located error.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'memory-egress';

/** The model tier that runs on the runtime host (the schema: "`local` runs on the machine"). */
export const ON_HOST_TIER = 'local';

export const memoryEgressRule: SemanticRule = {
  name: RULE,
  description:
    'A chat memory with egressAllowed: false is sent to no remote model: every modelSet pin must be tier "local".',
  check(definition) {
    const findings: Finding[] = [];
    definition.memoryContract.refs.forEach((ref, refIndex) => {
      if (ref.kind !== 'chat' || ref.egressAllowed) return;
      definition.modelSet.forEach((pin, pinIndex) => {
        if (pin.tier === ON_HOST_TIER) return;
        findings.push({
          rule: RULE,
          path: `/modelSet/${pinIndex}`,
          message: `model pin ${pin.providerId}/${pin.modelId} (tier ${pin.tier ?? 'unset'}) runs off the host, but chat memory "${ref.name}" (memoryContract.refs[${refIndex}]) has egressAllowed: false and the runtime sends the conversation to every pin.`,
          suggestion: `Pin a tier "local" model, or set memoryContract.refs[${refIndex}].egressAllowed to true if the conversation may go to ${pin.providerId}.`,
        });
      });
    });
    return findings;
  },
};
