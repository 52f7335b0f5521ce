/**
 * Field errors of a form: one message per field, at most. Validators insert the keys in the
 * order docs/product.md §5 lists the rules, so the object's own key order is the field order.
 */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * The first message in field order: the order given, or else the order the validator inserted
 * the keys in (docs/product.md order). Undefined when the form has no error.
 */
export function firstError<K extends string>(errors: FieldErrors<K>, order?: readonly K[]): string | undefined {
  const keys = order ?? (Object.keys(errors) as K[]);
  for (const key of keys) {
    const message = errors[key];
    if (message) return message;
  }
  return undefined;
}

export function hasErrors<K extends string>(errors: FieldErrors<K>): boolean {
  return firstError(errors) !== undefined;
}

/**
 * Builds a FieldErrors from checks listed in docs/product.md order; the first failing check of a field
 * gives its message and later ones for the same field are ignored.
 */
export function collectErrors<K extends string>(
  checks: readonly (readonly [K, string | false | undefined])[],
): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const [field, message] of checks) {
    if (message && errors[field] === undefined) errors[field] = message;
  }
  return errors;
}
