// a → b → a: a cycle of value imports
import { b } from './b';
export const a = (): string => b();
