// An MCP server that dies before it answers initialize (a missing config file, say).
process.stderr.write('notes-mcp: cannot open the index at /nonexistent/notes.db\n');
process.exit(3);
