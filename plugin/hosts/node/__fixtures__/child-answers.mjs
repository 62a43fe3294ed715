// A quarantined child that answers its task at once, echoing what it was given (no secret values).
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  if (!buffered.includes('\n')) return;
  const task = JSON.parse(buffered.slice(0, buffered.indexOf('\n')));
  const reply = { result: { stopReason: 'answer', answer: { text: `${task.nodeId}: ${task.input.text} (${task.runId}; secrets ${Object.keys(task.secrets).join(',')}; args ${process.argv.slice(2).join(' ')}; node ${process.execArgv.join(' ')})` } }, receipts: [{ runId: task.runId, receiptVersion: 'receipt/v1' }] };
  process.stdout.write(`${JSON.stringify(reply)}\n`, () => process.exit(0));
});
