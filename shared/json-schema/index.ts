/** JSON text parsing with positions, JSON Schema validation and schema checks, for the playgrounds. */
export { parseJsonText, describeJsonError, locateJsonError, type JsonParseError, type JsonParseResult } from './parse-json';
export { validateJson, jsonEqual, jsonType, type Violation } from './validate';
export { checkSchema, describeSchemaProblem } from './check-schema';
export { childPointer, pointerTokens, resolvePointer, escapePointerToken } from './pointer';
export { readSchemaText, formatJsonText, type SchemaText } from './schema-text';
export * from './response-format';
