import { z } from 'zod';
import { ID_PATTERN } from '../ids';
import { sanitizeText } from '../text';

export const idSchema = z.string().regex(ID_PATTERN);
/** Milliseconds since the epoch. Server-set wherever docs/product.md says "server timestamp". */
export const timestampSchema = z.number().int().min(0).max(8_640_000_000_000_000);
/** Money past the input field: integer minor units (cents, kobo). */
export const minorUnitsSchema = z.number().int().min(0).max(1_000_000_000_00);
/**
 * Text a user controls, bounded, and sanitised when parsed (decision 013): what the server stores
 * from a pushed document is the parsed value, so no write keeps a direction override or a NUL.
 */
export const userText = (max: number) => z.string().max(max).transform(sanitizeText);
/** A calendar day, as the date inputs give it: YYYY-MM-DD. */
export const isoDaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

export type RxSchemaOptions = {
  version?: number;
  primaryKey?: string;
  /** Each entry a field name or a compound index. */
  indexes?: (string | string[])[];
  /** maxLength for string fields that are the primary key or indexed (RxDB requires one). */
  maxLengths?: Record<string, number>;
};

/**
 * Turns a zod object schema into an RxDB collection schema: one source for the TypeScript type,
 * the request validation and the IndexedDB collection.
 */
export function toRxSchema(schema: z.ZodObject, options: RxSchemaOptions = {}) {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const primaryKey = options.primaryKey ?? 'id';
  const properties = { ...(json.properties ?? {}) };
  for (const [field, maxLength] of Object.entries({ [primaryKey]: 128, ...options.maxLengths })) {
    const prop = properties[field];
    if (prop && prop.type === 'string') properties[field] = { ...prop, maxLength };
  }
  // RxDB requires indexed numbers to declare their step; all our indexed numbers are integers.
  const indexed = new Set((options.indexes ?? []).flat());
  for (const field of indexed) {
    const prop = properties[field];
    if (prop && (prop.type === 'integer' || prop.type === 'number')) properties[field] = { ...prop, multipleOf: 1 };
  }
  const { $schema: _ignored, ...rest } = json;
  return {
    ...rest,
    version: options.version ?? 0,
    primaryKey,
    type: 'object' as const,
    properties,
    required: (json.required as string[] | undefined) ?? [],
    indexes: options.indexes ?? [],
  };
}
