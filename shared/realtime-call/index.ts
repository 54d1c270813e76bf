/** The realtime call live kind's shared shapes: input, control messages, snapshot, events and their fold. */
export * from './input';
export * from './control';
export * from './snapshot';
export * from './session-body';
export * from './cost';
