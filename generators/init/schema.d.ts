/** Options of `nx g agentdef:init` (none yet). */
export type InitGeneratorSchema = Record<string, never>;
