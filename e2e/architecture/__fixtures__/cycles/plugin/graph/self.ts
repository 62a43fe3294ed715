// a file that imports itself
import * as me from './self';
export const self = () => me;
