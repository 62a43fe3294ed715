/** Runtime bindings have unique names, and secret bindings are named like environment variables. */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'unique-bindings';
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

function toUpperSnake(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z]/.test(snake) ? snake : `SECRET_${snake}`;
}

export const uniqueBindingsRule: SemanticRule = {
  name: RULE,
  description:
    'runtimeRequirements.bindings have unique names; secret-ref bindings are named in UPPER_SNAKE_CASE (warning).',
  check(definition) {
    const findings: Finding[] = [];
    const seen = new Map<string, number>();
    definition.runtimeRequirements.bindings.forEach((binding, index) => {
      const path = `/runtimeRequirements/bindings/${index}/name`;
      const first = seen.get(binding.name);
      if (first !== undefined) {
        findings.push({
          rule: RULE,
          path,
          message: `runtimeRequirements.bindings[${index}].name "${binding.name}" repeats bindings[${first}].name: each binding is one name in the runtime's env.`,
          suggestion: `Rename bindings[${index}] or remove the duplicate binding.`,
        });
      } else {
        seen.set(binding.name, index);
      }
      if (binding.kind === 'secret-ref' && !UPPER_SNAKE.test(binding.name)) {
        findings.push({
          rule: RULE,
          severity: 'warning',
          path,
          message: `secret-ref binding name "${binding.name}" is not UPPER_SNAKE_CASE; secrets surface as environment variables.`,
          suggestion: `Rename it to "${toUpperSnake(binding.name)}".`,
        });
      }
    });
    return findings;
  },
};
