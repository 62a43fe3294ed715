// @ts-nocheck
/** Fixture: a target id spelt outside plugin/targets/ (lines 4, 5, 6 and 8), and what is no id. */
import { hb3 } from '../targets/hb3/target';
export const a = 'hb3';
export const b = `compile with --target ${hb3} or --target local-mac`;
export const c = "the hb3 host";
export const notIds = ['hb3-job.json', 'hb3.agentdef.dev/v1', 'hb3-main', 'hb33', 'HB3', 'local-mac.md'];
export const d = `x${a}cloudflare-dynamic-worker${b}`;
// 'hb3' in a comment is no string
