/** Tool definitions, choice, validation, pending calls, replies and tool-loop request builders. */
export * from './tool-spec';
export * from './validate-specs';
export * from './pending-calls';
export * from './replies';
export * from './next-request';
export * from './import-export';
