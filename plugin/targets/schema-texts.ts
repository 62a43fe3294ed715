/**
 * The executor schemas' texts that name targets, derived from the table (the schema files are
 * static JSON Nx reads, so `npm run generate` writes these into them and a test holds them equal).
 * Each entry: the schema file, the option (or `undefined` for the schema's own description) and
 * its description.
 */
import type { TargetDescriptor } from './target';
import { deployOptionTargets, deploysText, listText, TARGET_OPTIONS, TARGETS } from './targets';

export interface SchemaText {
  file: string;
  option?: string;
  description: string;
}

function endpointTargets(endpoint: TargetDescriptor['endpoint']): string {
  return listText(
    TARGETS.filter((target: TargetDescriptor) => target.endpoint === endpoint).map((target) => target.id),
    'and',
  );
}

export function executorSchemaTexts(): SchemaText[] {
  const onlyFor = (option: 'into' | 'uninstall' | 'service' | 'port' | 'registry') =>
    listText(deployOptionTargets(option));
  return [
    {
      file: 'executors/compile/schema.json',
      option: 'target',
      description: `The compile target: ${listText(TARGET_OPTIONS)}; \`auto\` takes the plan's choice, an explicit target the definition cannot honour fails.`,
    },
    {
      file: 'executors/deploy/schema.json',
      description: `Deploys a compiled agent with its target's own tool (${deploysText()}).`,
    },
    {
      file: 'executors/deploy/schema.json',
      option: 'into',
      description: `${onlyFor('into')}: the folder the service file is installed in, relative to the workspace root (default: ~/Library/LaunchAgents on macOS, ~/.config/systemd/user on Linux).`,
    },
    {
      file: 'executors/deploy/schema.json',
      option: 'uninstall',
      description: `${onlyFor('uninstall')}: remove the service file agentdef installed (a file it did not write is refused).`,
    },
    {
      file: 'executors/deploy/schema.json',
      option: 'service',
      description: `${onlyFor('service')}: the service kind (default: launchd on macOS, systemd on Linux).`,
    },
    {
      file: 'executors/deploy/schema.json',
      option: 'port',
      description: `${onlyFor('port')}: the port written into the service file (default: a stable port per agent, 20000-29999).`,
    },
    {
      file: 'executors/deploy/schema.json',
      option: 'registry',
      description: `${onlyFor('registry')}: the registry prefix the image is tagged and pushed under, e.g. ghcr.io/acme.`,
    },
    {
      file: 'executors/publish/schema.json',
      option: 'workerUrl',
      description: `${endpointTargets('public-url')}: the Worker's public https URL the card and the credential name.`,
    },
    {
      file: 'executors/publish/schema.json',
      option: 'port',
      description: `${endpointTargets('loopback-port')}: the port the launcher serves on (default 8080).`,
    },
  ];
}

/**
 * `text` (a schema file's contents) with each description of `texts` for that file in place; the
 * rest of the file, its formatting included, as it was. Throws when an option is missing (a
 * schema edited by hand).
 */
export function withSchemaTexts(file: string, text: string, texts: readonly SchemaText[]): string {
  let out = text;
  for (const entry of texts.filter((t) => t.file === file)) {
    const start = entry.option === undefined ? 0 : out.indexOf(`"${entry.option}": {`);
    if (start < 0) throw new Error(`${file} has no option "${entry.option}"`);
    const at = out.indexOf('"description": ', start);
    if (at < 0) throw new Error(`${file}: "${entry.option ?? '(schema)'}" has no description`);
    const valueStart = at + '"description": '.length;
    const match = /^"(?:[^"\\]|\\.)*"/.exec(out.slice(valueStart));
    if (match === null) throw new Error(`${file}: "${entry.option ?? '(schema)'}" has a description that is no string`);
    out = `${out.slice(0, valueStart)}${JSON.stringify(entry.description)}${out.slice(valueStart + match[0].length)}`;
  }
  return out;
}
