import { a } from './a';
export const b = (): string => typeof a;
