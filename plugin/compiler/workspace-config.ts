/**
 * The workspace's tools.json and mcp.json, as the compiler and its adapters read them: the reader
 * lives in the definition layer (definition/workspace-config.ts), where `agentdef validate` also
 * reads tools.json to check the tool mapping without loading the compiler.
 */
export * from '../definition/workspace-config';
