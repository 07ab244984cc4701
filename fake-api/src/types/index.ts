/** Types of the fake API: options and fault switches (options.ts), the records it keeps (records.ts). */
export type * from './options';
export type * from './records';
