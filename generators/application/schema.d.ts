/** Options of `nx g agentdef:application`; see schema.json for the defaults. */
export interface ApplicationGeneratorSchema {
  /** The application id (kebab-case), or a folder path whose last segment is the id (`apps/triage`). */
  name: string;
  /** The composed agents, comma-separated `slug@version`; each must resolve to exactly one workspace definition. */
  agents: string;
  /** The folder that receives `<name>/application.json`, relative to the workspace root (default: the root). */
  directory?: string;
  /** The application's exact revision (default 0.1.0). */
  revision?: string;
}
