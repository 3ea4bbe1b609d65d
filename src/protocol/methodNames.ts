// The method names of both protocol versions, without their adapters (whose schemas and codecs
// live in the connection's bundle, loaded when the first agent starts): for readers of recorded
// traffic that only need to tell which method a line is.
import type { MethodNames } from './adapter';
import { V1_METHODS } from './v1/methods';
import { V2_METHODS } from './v2/methods';

/** Each version's method names, oldest first. */
export const METHOD_NAMES: readonly MethodNames[] = [V1_METHODS, V2_METHODS];
