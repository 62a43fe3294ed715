// Renders a JSON Schema's field reference as Markdown, from the schema's own descriptions.
// Every property of every object appears once, under the object that declares it.

function typeOf(node, schema) {
  if (!node || typeof node !== 'object') return 'any';
  if (node.$ref) return linkTo(node.$ref);
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
  if (node.enum) return node.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  if (node.anyOf || node.oneOf) return (node.anyOf ?? node.oneOf).map((n) => typeOf(n, schema)).join(' \\| ');
  const t = Array.isArray(node.type) ? node.type.join(' \\| ') : node.type;
  if (t === 'array') return `array of ${typeOf(node.items, schema)}`;
  return t ?? 'any';
}
const anchor = (name) => name.toLowerCase();
function linkTo(ref) {
  const name = ref.split('/').pop();
  return `[${name}](#${anchor(name)})`;
}
function constraints(node) {
  const out = [];
  if (node.pattern) out.push(`pattern \`${node.pattern.replace(/\|/g, '\\|')}\``);
  if (node.minLength !== undefined) out.push(`min length ${node.minLength}`);
  if (node.maxLength !== undefined) out.push(`max length ${node.maxLength}`);
  if (node.minimum !== undefined) out.push(`minimum ${node.minimum}`);
  if (node.maximum !== undefined) out.push(`maximum ${node.maximum}`);
  if (node.minItems !== undefined) out.push(`at least ${node.minItems} item(s)`);
  if (node.uniqueItems) out.push('unique items');
  return out.join('; ');
}
const cell = (s) =>
  String(s ?? '')
    .replace(/\n/g, ' ')
    .replace(/\|/g, '\\|');

function objectSection(title, node, schema) {
  const lines = [`### ${title}`, '', cell(node.description), ''];
  if (node.oneOf) {
    lines.push('One of:', '');
    for (const branch of node.oneOf)
      lines.push(`- [${branch.title}](#${anchor(branch.title)}): ${cell(branch.description)}`);
    lines.push('');
    return lines;
  }
  const required = new Set(node.required ?? []);
  const props = Object.entries(node.properties ?? {});
  if (props.length) {
    lines.push('| Field | Type | Required | Description |', '| --- | --- | --- | --- |');
    for (const [name, prop] of props) {
      const target = prop.$ref ? schema.$defs[prop.$ref.split('/').pop()] : undefined;
      const desc = prop.description ?? target?.description ?? '';
      const extra = constraints(prop);
      lines.push(
        `| \`${name}\` | ${typeOf(prop, schema)} | ${required.has(name) ? 'yes' : 'no'} | ${cell(desc)}${extra ? ` (${cell(extra)})` : ''} |`,
      );
    }
    lines.push('');
  }
  if (node.additionalProperties === false) lines.push('No other fields are allowed.', '');
  else if (node.additionalProperties && typeof node.additionalProperties === 'object')
    lines.push(`Other fields are allowed: ${typeOf(node.additionalProperties, schema)}.`, '');
  else if (node.type === 'object' && !props.length) lines.push('Any JSON object.', '');
  return lines;
}

/**
 * The fields an effects table (plugin/definition/field-effects.json) marks as metadata: no
 * compiler, target, runtime or rule acts on them; each with the reason.
 */
function metadataSection(effects, file) {
  const rows = Object.entries(effects.fields).filter(([, effect]) => typeof effect.metadata === 'string');
  if (!rows.length) return [];
  return [
    '## Fields with no runtime effect',
    '',
    `These fields change nothing the compiler emits or a host does; each says why it is still there. Every other field is acted on where \`${file}\` names (a test checks each place).`,
    '',
    '| Field | Why it has no runtime effect |',
    '| --- | --- |',
    ...rows.map(([pointer, effect]) => `| \`${cell(pointer)}\` | ${cell(effect.metadata)} |`),
    '',
  ];
}

export function renderSchemaReference(schema, file, effects, effectsFile) {
  const lines = [
    `# ${schema.title} reference`,
    '',
    `<!-- Generated from \`${file}\` by \`npm run generate\`. Do not edit. -->`,
    '',
    `Schema \`$id\`: \`${schema.$id}\``,
    '',
    cell(schema.description),
    '',
    '## Top level',
    '',
  ];
  lines.push(...objectSection(schema.title, schema, schema).slice(1));
  if (effects !== undefined) lines.push(...metadataSection(effects, effectsFile));
  lines.push('## Types', '');
  const defs = Object.entries(schema.$defs ?? {});
  for (const [name, node] of defs) {
    if (node.type === 'object' || node.oneOf) {
      lines.push(...objectSection(name, node, schema));
      for (const branch of node.oneOf ?? []) lines.push(...objectSection(branch.title, branch, schema));
    } else {
      lines.push(
        `### ${name}`,
        '',
        cell(node.description),
        '',
        `Type: ${typeOf(node, schema)}${constraints(node) ? `; ${constraints(node)}` : ''}.`,
        '',
      );
    }
  }
  return (
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
