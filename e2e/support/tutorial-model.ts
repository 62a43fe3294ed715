/**
 * The model of docs/your-first-agent.md. The page runs with no API key: its agentic steps replay
 * the recording agentdef ships (`recordings/your-first-agent`, in the package at
 * `node_modules/agentdef/recordings/your-first-agent`). That recording is made by
 * scripts/record-tutorial.mjs with `--record` against the stand-in below: a scripted loopback
 * server speaking Anthropic's Messages API (checking the key like the real one), not Anthropic
 * itself, which is out of reach of the machine that builds agentdef.
 */
import { join } from 'node:path';
import { startScriptedProvider, type StubServer } from '../../plugin/runtime/__test-support__/stub-provider';

export const TUTORIAL_PAGE = join(__dirname, '..', '..', 'docs', 'your-first-agent.md');
/** The recording in this repository, and where the page's commands find it in a user's workspace. */
export const TUTORIAL_RECORDING = join(__dirname, '..', '..', 'recordings', 'your-first-agent');
export const INSTALLED_RECORDING = 'node_modules/agentdef/recordings/your-first-agent';
/** The key the stand-in checks (it is not a key of anything). */
export const STAND_IN_API_KEY = 'sk-ant-stub-tutorial-0123456789abcdef';

/** The stand-in: calls the first tool it is offered with the user's (quoted) text, then answers with what the tool returned. */
export function startTutorialModel(): Promise<StubServer> {
  return startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: STAND_IN_API_KEY,
    script: (_index, ctx) => {
      const tools = (ctx.body.tools ?? []) as { name: string }[];
      if (ctx.lastToolResults.length > 0 || tools.length === 0)
        return { text: `The tool says: ${ctx.lastToolResults.join(' ')}` };
      const user = (ctx.body.messages as { role: string; content: unknown }[]).find((m) => m.role === 'user');
      const content = user?.content;
      const said =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((part: { text?: string }) => part.text ?? '').join('')
            : '';
      // What a model does with 'How many words are in "…"?': it counts the quoted text.
      const text = /"([^"]+)"/.exec(said)?.[1] ?? said;
      return { toolCalls: [{ name: tools[0]!.name, arguments: { text } }] };
    },
  });
}

/** The page's `npm install -D miniflare@… wrangler@…`: the packages and versions it names, when `command` is that step. */
export function workerToolsInstall(command: string): Record<string, string> | undefined {
  const match = /^npm install -D ((?:[a-z@/-]+@\S+ ?)+)$/.exec(command.trim());
  if (!match) return undefined;
  const named = Object.fromEntries(
    match[1]!.split(' ').map((spec) => [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)]),
  );
  return 'miniflare' in named || 'wrangler' in named ? named : undefined;
}
