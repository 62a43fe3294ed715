/**
 * The first-request baseline doing the compiled text-stats agent's work: the official SDK Worker
 * (sdk-a2a-worker.ts) whose executor answers with the text-metrics tool's result, as one would
 * serve that tool with the SDK. Beside the echo, it tells the tool's own first run (its first
 * `Intl.Segmenter`) from what agentdef adds to a fresh isolate's first request.
 */
import { measureText } from '../../examples/tools/text-metrics';
import { answering, sdkWorker } from './sdk-a2a-worker';

export default sdkWorker(answering((text) => JSON.stringify(measureText(text))));
