/** Small builders for the JSON Schemas the built-in scenarios declare. */

/** Options of {@link objectSchema}. */
interface ObjectSchemaOptions {
  /** Names of the required properties; without it the schema has no `required` key. */
  required?: readonly string[];
  /** Refuse properties that are not declared (`additionalProperties: false`). */
  closed?: boolean;
}

/** A JSON Schema for an object with these properties: a tool's inputSchema, an elicitation's requestedSchema. */
export function objectSchema(properties: Record<string, unknown> = {}, options: ObjectSchemaOptions = {}): { type: 'object'; [key: string]: unknown } {
  return {
    type: 'object',
    properties,
    ...(options.required ? { required: [...options.required] } : {}),
    ...(options.closed ? { additionalProperties: false } : {}),
  };
}
