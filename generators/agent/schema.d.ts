/** Options of `nx g agentdef:agent`; see schema.json for the defaults. */
export interface AgentGeneratorSchema {
  /** The agent's slug, or a folder path whose last segment is the slug (`agents/summarizer`). */
  name: string;
  /** The folder of the new `agent.json`, relative to the workspace root (default: `name` as given). */
  directory?: string;
  kind?: 'tool' | 'agent';
  runtime?: 'workers-only' | 'workers-preferred' | 'container-required' | 'local-host-required';
  provider?: string;
  /** A model id, optionally with its exact version: `gpt-4o-mini@2024-07-18`. */
  model?: string;
  modelVersion?: string;
  tier?: 'frontier' | 'small' | 'tuned' | 'local';
  /** The fine-tune checkpoint of a tuned model. */
  checkpoint?: string;
  /** Pinned children: `slug@version,slug@version`. */
  nodes?: string;
  lifecycle?:
    | 'tool-prototype'
    | 'tool-shipped'
    | 'mcp-resident'
    | 'kym-registered'
    | 'composed'
    | 'marketplace-published';
  /**
   * The definition's versionSemver (default 0.1.0). `false`/`true` when it arrives through the
   * Nx CLI, whose global boolean `--version` swallows the value (the generator then reads argv).
   */
  version?: string | boolean;
  /** The owning organisation's id (default: from the workspace package name). */
  owner?: string;
  /** `json` (default) writes agent.json; `yaml` writes agent.yaml with a schema modeline. */
  format?: 'json' | 'yaml';
}
