// A quarantined child that takes its task and never answers (a blocked run).
process.stdin.once('data', () => setInterval(() => undefined, 1000));
