import { Rng } from '../rng';

/**
 * Generators of hostile input for the hostile-input suite, all seeded (a failing run can be
 * replayed with its seed): nasty strings and values, broken JSON, and a generic mutator that turns
 * a valid request of an endpoint into one with a known defect. Every request it makes carries at
 * least one defect, so the server must refuse every one of them.
 */

/** Payloads per endpoint: `HOSTILE_PAYLOADS=5000 npm run test:hostile` for the long form. */
export const HOSTILE_PAYLOADS = Math.max(1, Number(process.env.HOSTILE_PAYLOADS) || 200);
/** The run's seed; printed, and `HOSTILE_SEED=<seed>` replays a run. */
export const HOSTILE_SEED = Number(process.env.HOSTILE_SEED) || 20_250_917;

export type { Rng };

/**
 * The shared seeded generator (tests/support/rng.ts), but `pick` draws even from an empty list
 * (and gives undefined), as this suite's generator always did: a conversation row has no string
 * field to make huge, and skipping that draw would change every later payload of a seed.
 */
export class HostileRng extends Rng {
  override pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One per endpoint, so adding an endpoint does not change the others' payloads. */
  override fork(label: string): HostileRng {
    return new HostileRng(super.fork(label).seed);
  }
}

export function seededRandom(seed: number): Rng {
  return new HostileRng(seed);
}

// ---------------------------------------------------------------------------------------------
// Values

export const NASTY_STRINGS = [
  ' ',
  '\u0000',
  '\t\n\r',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  'Infinity',
  '1e309',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE users; --",
  '{"$gt": ""}',
  '../../../etc/passwd',
  '%00%2e%2e%2f',
  '\u202e\u0644\u0627',
  '😀😀😀',
  '\ud800',
  'ﬀ\u0301',
  '__proto__',
  'constructor',
  'prototype',
  // Names a plain object already has: as an id they once dropped whole pull batches (decision 010).
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '{"a":1}',
  '[]',
  'javascript:alert(1)',
  '\r\nSet-Cookie: sid=evil',
];

export function randomText(r: Rng, maxLength = 40): string {
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCDEFXYZ0123456789-_.',
    '\u00e9\u00fc\u4e2d\u6587\u0416\u05d0',
    '<>"\'&;{}[]\\/%$#',
  ];
  const alphabet = r.pick(alphabets);
  let out = '';
  const n = r.int(0, maxLength);
  for (let i = 0; i < n; i++) out += alphabet[r.int(0, alphabet.length - 1)];
  return out;
}

export function hostileString(r: Rng): string {
  switch (r.int(0, 3)) {
    case 0:
      return r.pick(NASTY_STRINGS);
    case 1:
      return randomText(r);
    case 2:
      return r.pick(NASTY_STRINGS) + randomText(r, 10);
    default:
      return 'x'.repeat(r.int(300, 6000));
  }
}

/** encodeURIComponent that takes any string: lone surrogates become U+FFFD first. */
export const encodePart = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));

/** A string longer than any text field's limit (the longest, a URL, is 2,048). */
export const tooLong = (r: Rng) => r.pick(['x', 'é', '<', '0']).repeat(r.int(5_001, 40_000));

/**
 * Any JSON value, often nested. Never the empty string at the top: a push reads '' as "not
 * filled in" (the field is dropped), so it is no defect there.
 */
export function hostileValue(r: Rng, depth = 0): unknown {
  const v = anyValue(r, depth);
  return v === '' ? '\u0000' : v;
}

export function anyValue(r: Rng, depth: number): unknown {
  const kinds = depth > 3 ? 6 : 8;
  switch (r.int(0, kinds - 1)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1, 0.5, -0.000001, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER]);
    case 3:
    case 4:
    case 5:
      return hostileString(r);
    case 6:
      return Array.from({ length: r.int(0, 4) }, () => hostileValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(0, 4); i > 0; i--)
        o[r.pick(['a', 'id', 'email', 'status', '$where', '0', '', randomText(r, 8)])] = hostileValue(r, depth + 1);
      return o;
    }
  }
}

export const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * A value whose JSON type differs from `value`'s. For a null (a nullable field) only booleans,
 * arrays and objects: a number or a string could be a valid value of the field.
 */
export function wrongTypeFor(r: Rng, value: unknown): unknown {
  if (value === null)
    return r.pick<unknown>([true, false, [], [hostileString(r)], { a: 1 }, { [hostileString(r)]: null }]);
  for (;;) {
    const v = hostileValue(r);
    if (jsonType(v) !== jsonType(value) && v !== '') return v;
  }
}

// ---------------------------------------------------------------------------------------------
// Raw JSON text

export const TOKEN = '"@@HOSTILE-VALUE@@"';

/** `body` as JSON with one field's value replaced by raw JSON text (nesting, prototype keys). */
export function withRawField(body: Record<string, unknown>, field: string, raw: string): string {
  return JSON.stringify({ ...body, [field]: '@@HOSTILE-VALUE@@' }).replace(TOKEN, () => raw);
}

/** Nested arrays or objects, `depth` levels deep, as JSON text. */
export function deepJson(r: Rng, depth: number): string {
  return r.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A key that would reach an object's prototype, sometimes escaped so only a JSON parser sees it. */
export function protoKey(r: Rng): string {
  return r.pick(['"__proto__"', '"constructor"', '"prototype"', '"__proto\\u005f_"', '"\\u0063onstructor"']);
}

export function protoPayload(r: Rng): string {
  return r.pick([
    '{"polluted":true}',
    '{"prototype":{"polluted":true}}',
    '{"isAdmin":true,"toString":"x"}',
    '"polluted"',
    '1',
  ]);
}

/** `body` as JSON text with a prototype key at the top or inside a field. */
export function withProtoKey(r: Rng, body: unknown): string {
  const key = protoKey(r);
  const entry = `${key}:${protoPayload(r)}`;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fields = Object.keys(body);
    if (fields.length && r.chance(0.5))
      return withRawField(body as Record<string, unknown>, r.pick(fields), `{${entry}}`);
    const text = JSON.stringify(body);
    return text === '{}' ? `{${entry}}` : `{${entry},${text.slice(1)}`;
  }
  if (Array.isArray(body) && body.length && body.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
    const i = r.int(0, body.length - 1);
    const rows = body.map((row, j) => (j === i ? withProtoKey(r, row) : JSON.stringify(row)));
    return `[${rows.join(',')}]`;
  }
  return `{${entry}}`;
}

/** Text that is not JSON, or not complete JSON. Never empty: an empty body reads as `{}`. */
export function badJson(r: Rng, valid: string): string {
  for (;;) {
    const text =
      r.chance(0.3) && valid.length > 2
        ? valid.slice(0, r.int(1, valid.length - 1))
        : r.pick([
            '{',
            '}',
            '  ',
            '{"a":}',
            "{'a':1}",
            '{"a":1,}',
            '[1,2',
            'undefined',
            'NaN',
            '{"a":NaN}',
            '{"a":Infinity}',
            '/* comment */{}',
            '{"a":1}garbage',
            '{"a":1}{"b":2}',
            'tru',
            '{"a":"\\x"}',
            '{"a":"\\uZZZZ"}',
            '{"a" 1}',
            '{a:1}',
            '\u0000',
            '0x10',
            '{"a":01}',
            valid + ',',
            valid.replace(/"/g, "'"),
          ]);
    try {
      JSON.parse(text);
    } catch {
      return text;
    }
  }
}
