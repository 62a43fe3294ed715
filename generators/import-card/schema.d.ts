/** Options of `nx g agentdef:import-card`; see schema.json. */
export interface ImportCardGeneratorSchema {
  /** The A2A AgentCard JSON file, relative to the workspace root. */
  card: string;
  /** The folder of the new `agent.json` (default: the slug made from the card's name). */
  directory?: string;
  /** The agent's slug (default: made from the card's name). */
  slug?: string;
}
