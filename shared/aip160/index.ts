/** AIP-160 filters over the Files fields: parse, print, evaluate, and the builder's model. */
export * from './ast';
export * from './fields';
export * from './rfc3339';
export * from './lexer';
export * from './parser';
export * from './printer';
export * from './evaluate';
export * from './builder';
