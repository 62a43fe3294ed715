/**
 * Tool and skill references are unambiguous: MCP tools say which server and transport serve
 * them (and only MCP tools do), and tool ids, tool names and skill ids are unique.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'tool-fields';

function duplicates<T>(
  items: readonly T[],
  key: (item: T) => string,
  report: (index: number, firstIndex: number, value: string) => void,
): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const value = key(item);
    const first = seen.get(value);
    if (first === undefined) seen.set(value, index);
    else report(index, first, value);
  });
}

export const toolFieldsRule: SemanticRule = {
  name: RULE,
  description:
    'MCP tools set mcpServer and mcpTransport and other tools do not; tool ids, tool names and skill ids are unique.',
  check(definition) {
    const findings: Finding[] = [];
    const tools = definition.toolInventory;

    tools.forEach((tool, index) => {
      const base = `/toolInventory/${index}`;
      if (tool.provenance === 'mcp') {
        if (tool.mcpServer === undefined) {
          findings.push({
            rule: RULE,
            path: `${base}/mcpServer`,
            message: `MCP tool "${tool.id}" (toolInventory[${index}]) does not name its mcpServer.`,
            suggestion: `Add toolInventory[${index}].mcpServer: the name of the MCP server that provides "${tool.name}".`,
          });
        }
        if (tool.mcpTransport === undefined) {
          findings.push({
            rule: RULE,
            path: `${base}/mcpTransport`,
            message: `MCP tool "${tool.id}" (toolInventory[${index}]) does not declare its mcpTransport; the transport decides which hosts can reach it.`,
            suggestion: `Add toolInventory[${index}].mcpTransport: "stdio" for a local process or "http" for Streamable HTTP.`,
          });
        }
      } else {
        for (const field of ['mcpServer', 'mcpTransport'] as const) {
          if (tool[field] !== undefined) {
            findings.push({
              rule: RULE,
              path: `${base}/${field}`,
              at: 'key',
              message: `Tool "${tool.id}" (toolInventory[${index}]) has provenance "${tool.provenance}" but sets ${field}, which only MCP tools have.`,
              suggestion: `Remove toolInventory[${index}].${field}, or set provenance to "mcp" if the tool is served by an MCP server.`,
            });
          }
        }
      }
    });

    duplicates(
      tools,
      (t) => t.id,
      (index, first, id) =>
        findings.push({
          rule: RULE,
          path: `/toolInventory/${index}/id`,
          message: `toolInventory[${index}].id "${id}" repeats toolInventory[${first}].id: tool ids are unique within an agent.`,
          suggestion: `Rename toolInventory[${index}].id, or remove the duplicate tool.`,
        }),
    );
    duplicates(
      tools,
      (t) => t.name,
      (index, first, name) =>
        findings.push({
          rule: RULE,
          path: `/toolInventory/${index}/name`,
          message: `toolInventory[${index}].name "${name}" repeats toolInventory[${first}].name: the model calls tools by name, so names are unique.`,
          suggestion: `Give toolInventory[${index}] a distinct name.`,
        }),
    );
    duplicates(
      definition.capabilityContract.skills,
      (s) => s.id,
      (index, first, id) =>
        findings.push({
          rule: RULE,
          path: `/capabilityContract/skills/${index}/id`,
          message: `capabilityContract.skills[${index}].id "${id}" repeats skills[${first}].id: skill ids are unique within an agent (receipts carry them).`,
          suggestion: `Rename capabilityContract.skills[${index}].id, or merge the two skills.`,
        }),
    );
    return findings;
  },
};
