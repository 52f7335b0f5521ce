import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../../shared/chat-doc';
import { Rng } from './rng';
import { updateFrame } from './yjs-client';

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
class HostileRng extends Rng {
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

const NASTY_STRINGS = [
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

function anyValue(r: Rng, depth: number): unknown {
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

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

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

const TOKEN = '"@@HOSTILE-VALUE@@"';

/** `body` as JSON with one field's value replaced by raw JSON text (nesting, prototype keys). */
function withRawField(body: Record<string, unknown>, field: string, raw: string): string {
  return JSON.stringify({ ...body, [field]: '@@HOSTILE-VALUE@@' }).replace(TOKEN, () => raw);
}

/** Nested arrays or objects, `depth` levels deep, as JSON text. */
export function deepJson(r: Rng, depth: number): string {
  return r.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A key that would reach an object's prototype, sometimes escaped so only a JSON parser sees it. */
function protoKey(r: Rng): string {
  return r.pick(['"__proto__"', '"constructor"', '"prototype"', '"__proto\\u005f_"', '"\\u0063onstructor"']);
}

function protoPayload(r: Rng): string {
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

// ---------------------------------------------------------------------------------------------
// Requests

export type Expectation =
  /** 4xx with `{ error }` as JSON; `status` when one code is the only right answer. */
  | { kind: 'refused'; status?: number }
  /** A push answered row by row: every row refused (or the whole push refused with a 4xx). */
  | { kind: 'rows-refused'; rows: number }
  /** Logging out without a session: nothing to refuse, nothing changes. */
  | { kind: 'ok-noop' }
  /** A page a signed-out browser is sent away from. */
  | { kind: 'redirect'; location: string }
  /** Public read: the same 200 answer whatever the request carries. */
  | { kind: 'public' };

export type HostileRequest = {
  defect: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  expect: Expectation;
};

/** Who the attacker is, for the cookies and origins the generator forges. */
export type Attacker = {
  origin: string;
  /** The attacker's own live session cookie header (`sid=…`). */
  cookie: string;
  /** Cookie headers of sessions that were logged out. */
  revokedCookies: string[];
  /** Stored session ids (the token's hash): a leaked store must not give a session. */
  storedSessionIds: string[];
};

export type Variant = { label: string; path?: string; body?: unknown };

export type EndpointSpec = {
  name: string;
  method: 'GET' | 'POST';
  /** The path of a valid request. */
  path: string;
  /** A valid body, that would succeed for the attacker (POST only); push rows for a push. */
  body?: () => Record<string, unknown> | unknown[];
  /** Fields whose absence is refused. */
  required?: readonly string[];
  /** The route reads no body: only what fails before the route (JSON, origin, size) is a defect. */
  bodyIgnored?: boolean;
  /** Needs a session: missing, forged and revoked cookies are defects. */
  auth: boolean;
  /** What a request without a session gets when that is not a refusal. */
  noSession?: Expectation;
  /** Body size limit of the route. */
  limit?: number;
  /** Requests naming other users' documents, or wrong ids in the path, each refused. */
  foreign?: (r: Rng) => Variant;
  /** Paths of the same route with a broken parameter. */
  badPath?: (r: Rng) => string;
  /** Query strings that are refused (pull). */
  badQuery?: (r: Rng) => string;
  /** GET routes whose answer is the same for everybody. */
  public?: boolean;
  /** A push: row-level defects are answered 200 with every row refused. */
  rows?: (r: Rng) => { label: string; rows: unknown[] };
};

const CROSS_ORIGIN = (origin: string): Record<string, string>[] => [
  { origin: 'https://evil.example' },
  { origin: 'null' },
  {},
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  { origin: 'null', 'sec-fetch-site': 'cross-site' },
  { origin: `${origin}/` },
  { origin: origin.replace('127.0.0.1', 'localhost') },
  { origin: origin.replace(/:\d+$/, '') },
  { origin: origin.replace('http:', 'https:') },
  { origin: origin.toUpperCase() },
  { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
  { origin: `${origin}.evil.example` },
];

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'text/html',
  'application/xml',
  'application/jsonp',
  'application/json-patch+json',
  'application/octet-stream',
  'json',
  '',
];

function forgedCookie(r: Rng, a: Attacker): string {
  const token = a.cookie.replace(/^sid=/, '');
  const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
  const random = Buffer.from(Array.from({ length: 32 }, () => r.int(0, 255))).toString('base64url');
  return r.pick([
    `sid=${random}`,
    `sid=${flipped}`,
    'sid=',
    `sid=${'a'.repeat(r.int(101, 4000))}`,
    'sid=%E0%A4%A',
    `sid=${encodePart(hostileString(r).slice(0, 200))}`,
    `SID=${token}`,
    `sid2=${token}`,
    ` sid =${random}`,
    `sid=${r.pick(a.storedSessionIds)}`,
    `sid=${random}; sid=${token}`,
    `sid="${token}"`,
  ]);
}

type Kind =
  | 'bad-json'
  | 'not-object'
  | 'proto-key'
  | 'deep-nesting'
  | 'content-type'
  | 'encoding'
  | 'cross-origin'
  | 'too-large'
  | 'wrong-type'
  | 'missing-field'
  | 'extra-field'
  | 'huge-string'
  | 'no-cookie'
  | 'forged-cookie'
  | 'revoked-cookie'
  | 'foreign-id'
  | 'bad-path'
  | 'bad-query'
  | 'method'
  | 'rows'
  | 'not-rows'
  | 'bad-row'
  | 'too-many-rows';

function kindsOf(spec: EndpointSpec): Kind[] {
  const kinds: Kind[] = ['method'];
  if (spec.method === 'POST') {
    kinds.push('bad-json', 'proto-key', 'deep-nesting', 'content-type', 'encoding', 'cross-origin', 'too-large');
    if (spec.rows) kinds.push('not-rows', 'bad-row', 'too-many-rows', 'rows', 'rows', 'rows');
    else if (!spec.bodyIgnored) kinds.push('not-object', 'wrong-type', 'extra-field', 'huge-string');
    if (!spec.bodyIgnored && spec.required?.length) kinds.push('missing-field');
  }
  if (spec.auth || spec.noSession) kinds.push('no-cookie', 'forged-cookie', 'revoked-cookie');
  if (spec.foreign) kinds.push('foreign-id');
  if (spec.badPath) kinds.push('bad-path');
  if (spec.badQuery) kinds.push('bad-query');
  return kinds;
}

/** Hostile requests of one endpoint: `count` of them, each with one known defect. */
export function* hostileRequests(
  spec: EndpointSpec,
  attacker: Attacker,
  r: Rng,
  count: number,
): Generator<HostileRequest> {
  const kinds = kindsOf(spec);
  for (let i = 0; i < count; i++) yield hostileRequest(spec, attacker, r, kinds[i % kinds.length]!);
}

function hostileRequest(spec: EndpointSpec, a: Attacker, r: Rng, kind: Kind): HostileRequest {
  const headers: Record<string, string> = { cookie: a.cookie };
  if (spec.method === 'POST') {
    headers.origin = a.origin;
    headers['content-type'] = 'application/json';
  }
  const template = spec.body?.() ?? {};
  const valid: Record<string, unknown> = Array.isArray(template) ? {} : template;
  let body: unknown = spec.method === 'POST' ? template : undefined;
  let raw: string | Uint8Array | undefined;
  let path = spec.path;
  let method: string = spec.method;
  let defect: string = kind;
  const refused = (status?: number): Expectation =>
    spec.public ? { kind: 'public' } : { kind: 'refused', ...(status ? { status } : {}) };
  let expect: Expectation = refused();
  const fields = Object.keys(valid);
  const limit = spec.limit ?? 64 * 1024;

  switch (kind) {
    case 'method': {
      // Not GET for a POST route: some (the simulated pages) have a page under the same path.
      method = r.pick(spec.method === 'GET' ? ['POST', 'PUT', 'DELETE', 'PATCH'] : ['PUT', 'DELETE', 'PATCH']);
      if (method !== 'GET') headers.origin = a.origin;
      if (method === 'GET') body = undefined;
      defect = `method ${method}`;
      expect = { kind: 'refused', status: 404 };
      break;
    }
    case 'bad-json':
      raw = badJson(r, JSON.stringify(body ?? {}));
      expect = refused(400);
      break;
    case 'not-object':
      raw = r.pick(['null', '42', '"text"', 'true', '[]', '[{}]', JSON.stringify([body]), '-0', '1e999']);
      defect = `not-object ${raw.slice(0, 20)}`;
      expect = refused(400);
      break;
    case 'proto-key':
      raw = withProtoKey(r, body ?? {});
      expect = refused(400);
      break;
    case 'deep-nesting': {
      const depth = r.int(40, Math.min(30_000, Math.floor(limit / 6)));
      const deep = deepJson(r, depth);
      if (spec.rows && r.chance(0.7))
        raw = `[{"assumedMasterState":null,"newDocumentState":{"id":"deep-${depth}","title":${deep}}}]`;
      else raw = fields.length && r.chance(0.7) ? withRawField(valid, r.pick(fields), deep) : deep;
      defect = `deep-nesting ${depth}`;
      expect = refused(400);
      break;
    }
    case 'content-type': {
      const type = r.pick(WRONG_CONTENT_TYPES);
      if (type) headers['content-type'] = type;
      else delete headers['content-type'];
      defect = `content-type '${type}'`;
      expect = refused(415);
      break;
    }
    case 'encoding': {
      // Invalid UTF-8 decodes with replacement characters: a defect only where the body is read.
      const variant = r.int(0, spec.bodyIgnored ? 2 : 3);
      if (variant === 0) {
        // A first byte no gzip or zlib stream starts with: never decodes to anything.
        headers['content-encoding'] = r.pick(['gzip', 'deflate']);
        raw = new Uint8Array([0xff, ...Array.from({ length: r.int(0, 64) }, () => r.int(0, 255))]);
      } else if (variant === 1) {
        headers['content-encoding'] = r.pick(['compress', 'x-evil', 'gzip, gzip', 'zstd']);
      } else if (variant === 2) {
        headers['content-type'] = `application/json; charset=${r.pick(['latin1', 'utf-7', 'x-evil', 'utf-32'])}`;
      } else {
        // Not UTF-8: a lone continuation byte inside a string.
        raw = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
      }
      defect = `encoding ${headers['content-encoding'] ?? headers['content-type']}`;
      expect = refused();
      break;
    }
    case 'cross-origin': {
      delete headers.origin;
      Object.assign(headers, r.pick(CROSS_ORIGIN(a.origin)));
      defect = `cross-origin ${JSON.stringify(headers.origin ?? headers['sec-fetch-site'] ?? 'none')}`;
      expect = refused(403);
      break;
    }
    case 'too-large': {
      const extra = r.int(1, 200_000);
      const padding = 'p'.repeat(limit + extra);
      raw = spec.rows
        ? JSON.stringify([{ newDocumentState: { id: 'padding', padding } }])
        : JSON.stringify({ ...valid, padding });
      expect = refused(413);
      break;
    }
    case 'wrong-type': {
      if (!fields.length) return hostileRequest(spec, a, r, 'bad-json');
      const field = r.pick(fields);
      body = { ...valid, [field]: wrongTypeFor(r, valid[field]) };
      defect = `wrong-type ${field}`;
      expect = refused(400);
      break;
    }
    case 'missing-field': {
      const gone = spec.required!.filter(() => r.chance(0.5));
      if (gone.length === 0) gone.push(r.pick(spec.required!));
      const rest = { ...valid };
      for (const f of gone) delete rest[f];
      body = rest;
      defect = `missing ${gone.join(', ')}`;
      expect = refused(400);
      break;
    }
    case 'extra-field': {
      const name = r.pick([
        'isAdmin',
        'role',
        'userId2',
        'createdBy',
        'status',
        '$where',
        '',
        ' ',
        'toString',
        'hasOwnProperty',
        'valueOf',
        randomText(r, 12) || 'x',
      ]);
      if (name in valid) return hostileRequest(spec, a, r, 'wrong-type');
      body = { ...valid, [name]: hostileValue(r) };
      defect = `extra field '${name}'`;
      expect = refused(400);
      break;
    }
    case 'huge-string': {
      if (!fields.length) return hostileRequest(spec, a, r, 'too-large');
      const field = r.pick(fields);
      body = { ...valid, [field]: tooLong(r) };
      defect = `huge-string ${field}`;
      expect = refused();
      break;
    }
    case 'no-cookie':
    case 'forged-cookie':
    case 'revoked-cookie': {
      delete headers.cookie;
      if (kind === 'forged-cookie') headers.cookie = forgedCookie(r, a);
      if (kind === 'revoked-cookie') headers.cookie = r.pick(a.revokedCookies);
      defect = kind === 'forged-cookie' ? `forged cookie ${headers.cookie!.slice(0, 30)}` : kind;
      expect = spec.noSession ?? refused(401);
      break;
    }
    case 'foreign-id': {
      const v = spec.foreign!(r);
      if (v.path) path = v.path;
      if (v.body !== undefined) body = v.body;
      defect = `foreign ${v.label}`;
      expect = refused();
      break;
    }
    case 'bad-path':
      path = spec.badPath!(r);
      defect = `bad-path ${path.slice(0, 60)}`;
      expect = refused();
      break;
    case 'bad-query': {
      const q = spec.badQuery!(r);
      path = `${spec.path}?${q}`;
      defect = `bad-query ${q.slice(0, 60)}`;
      expect = refused(400);
      break;
    }
    case 'not-rows':
      raw = r.pick([
        'null',
        '42',
        '"rows"',
        'true',
        '{}',
        '{"newDocumentState":{}}',
        JSON.stringify({ rows: template }),
      ]);
      defect = `not rows ${raw.slice(0, 30)}`;
      expect = refused(400);
      break;
    case 'bad-row': {
      const rows = r.pick<unknown[]>([
        [{}],
        [{ assumedMasterState: null }],
        [{ newDocumentState: null }],
        [{ newDocumentState: hostileString(r) }],
        [{ newDocumentState: [1, 2] }],
        [{ newDocumentState: { id: 'x1x1x1' }, assumedMasterState: hostileString(r) }],
        [{ newDocumentState: { id: 'x1x1x1' }, assumedMasterState: [] }],
        [{ newDocumentState: { id: 'x1x1x1' }, extra: true }],
        [null],
        [42, { newDocumentState: { id: 'x1x1x1' } }],
      ]);
      body = rows;
      defect = `bad row ${JSON.stringify(rows).slice(0, 60)}`;
      expect = refused(400);
      break;
    }
    case 'too-many-rows': {
      const n = r.int(501, 700);
      body = Array.from({ length: n }, (_, i) => ({ assumedMasterState: null, newDocumentState: { id: `many-${i}` } }));
      defect = `${n} rows`;
      expect = refused(400);
      break;
    }
    case 'rows': {
      const { label, rows } = spec.rows!(r);
      body = rows;
      defect = label;
      expect = { kind: 'rows-refused', rows: rows.length };
      break;
    }
  }
  if (raw === undefined && body !== undefined && method !== 'GET') raw = JSON.stringify(body);
  if (method === 'GET') {
    raw = undefined;
    delete headers['content-type'];
  }
  if (headers.cookie === undefined) delete headers.cookie;
  return { defect, method, path, headers, ...(raw !== undefined ? { body: raw } : {}), expect };
}

// ---------------------------------------------------------------------------------------------
// Push rows: every row with a defect of its own

export type RowContext = {
  /** Documents the attacker may write: each would be accepted as it is. */
  valid: () => Record<string, unknown>;
  /** The master state the attacker's client would assume for `valid()` (null for a new one). */
  assumed: (doc: Record<string, unknown>) => Record<string, unknown> | null;
  /** Rows about other users' documents, or moves the attacker may not make: refused as they are. */
  forbidden: ((r: Rng) => { label: string; row: Record<string, unknown> })[];
};

const RXDB_FIELDS = new Set(['_deleted', '_meta', '_rev', '_attachments']);

/** One to five push rows, each refused for a reason of its own. */
export function hostileRows(r: Rng, rc: RowContext): { label: string; rows: Record<string, unknown>[] } {
  const rows: Record<string, unknown>[] = [];
  const labels: string[] = [];
  for (let n = r.int(1, 5); n > 0; n--) {
    const { label, row } = hostileRow(r, rc);
    rows.push(row);
    labels.push(label);
  }
  return { label: `rows: ${labels.join('; ')}`, rows };
}

function hostileRow(r: Rng, rc: RowContext): { label: string; row: Record<string, unknown> } {
  const doc = rc.valid();
  const row = (d: Record<string, unknown>) => ({ assumedMasterState: rc.assumed(doc), newDocumentState: d });
  const fields = Object.keys(doc).filter((f) => !RXDB_FIELDS.has(f) && f !== 'id');
  switch (r.int(0, 5)) {
    case 0: {
      const field = r.pick(fields);
      return { label: `row wrong-type ${field}`, row: row({ ...doc, [field]: wrongTypeFor(r, doc[field]) }) };
    }
    case 1: {
      const name = r.pick(['isAdmin', 'role', 'passwordHash', 'sessionId', '_seq', 'owner', randomText(r, 10) || 'x']);
      if (name in doc) return hostileRow(r, rc);
      return { label: `row extra-field ${name}`, row: row({ ...doc, [name]: hostileValue(r) }) };
    }
    case 2: {
      const id = r.pick<unknown>([undefined, '', 42, null, ['a'], { a: 1 }, 'x'.repeat(r.int(201, 5000))]);
      const d = { ...doc };
      if (id === undefined) delete d.id;
      else d.id = id;
      return { label: `row bad-id ${JSON.stringify(id)?.slice(0, 20)}`, row: row(d) };
    }
    case 3: {
      const field = r.pick(fields.filter((f) => typeof doc[f] === 'string'));
      return { label: `row huge ${field}`, row: row({ ...doc, [field]: tooLong(r) }) };
    }
    default: {
      const make = r.pick(rc.forbidden);
      return make(r);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Chat socket frames (y-websocket protocol: varuint message type, then its payload)

export type ChatRoomContext = {
  userId: string;
  otherId: string;
  /** The room's stored updates, to build updates on top of what the server has. */
  serverState: () => Uint8Array[];
};

export type HostileFrame = {
  defect: string;
  data: Uint8Array | string;
  /** A frame the server may ignore (dropped presence, an auth message); others must close the socket. */
  mayBeIgnored: boolean;
};

function frame(write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  write(e);
  return encoding.toUint8Array(e);
}

const randomBytes = (r: Rng, max: number) => new Uint8Array(Array.from({ length: r.int(0, max) }, () => r.int(0, 255)));

/** A Yjs update made by a fresh client doc on top of the server's state. */
function craftUpdate(r: Rng, room: ChatRoomContext, change: (doc: Y.Doc) => void): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = r.int(1, 2 ** 31);
  const stored = room.serverState();
  if (stored.length) Y.applyUpdate(doc, Y.mergeUpdates(stored));
  const before = Y.encodeStateVector(doc);
  change(doc);
  const update = Y.encodeStateAsUpdate(doc, before);
  doc.destroy();
  return update;
}

function message(r: Rng, room: ChatRoomContext, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `m-${r.int(0, 2 ** 30).toString(36)}`,
    content: 'hello',
    senderId: room.userId,
    receiverId: room.otherId,
    clientTime: Date.now(),
    ...overrides,
  };
}

/** One hostile frame for an open chat socket. */
export function hostileChatFrame(r: Rng, room: ChatRoomContext): HostileFrame {
  const closes = (defect: string, data: Uint8Array | string): HostileFrame => ({ defect, data, mayBeIgnored: false });
  const push = (defect: string, value: Record<string, unknown> | unknown) =>
    closes(defect, updateFrame(craftUpdate(r, room, (d) => d.getArray(CHAT_MESSAGES_ARRAY).push([value]))));
  switch (r.int(0, 21)) {
    case 0:
      return closes('random bytes', randomBytes(r, 80));
    case 1:
      return closes('empty frame', new Uint8Array());
    case 2:
      return closes('text frame', hostileString(r).slice(0, 500) || 'x');
    case 3:
      return closes(
        'unknown message type',
        frame((e) => {
          encoding.writeVarUint(e, r.int(4, 2 ** 31));
          encoding.writeUint8Array(e, randomBytes(r, 20));
        }),
      );
    case 4:
      return closes(
        'unknown sync step',
        frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, r.int(3, 1000));
        }),
      );
    case 5:
      return {
        defect: 'sync step 1 with a garbage state vector',
        data: frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint8Array(e, randomBytes(r, 40));
        }),
        mayBeIgnored: true,
      };
    case 6:
      return closes('update of random bytes', updateFrame(randomBytes(r, 120)));
    case 7:
      return closes(
        'sync step 2 of random bytes',
        frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, 1);
          encoding.writeVarUint8Array(e, randomBytes(r, 120));
        }),
      );
    case 8:
      return closes(
        'write to another shared type',
        updateFrame(
          craftUpdate(r, room, (d) => d.getMap(r.pick(['evil', 'users', 'messages2'])).set('x', hostileString(r))),
        ),
      );
    case 9:
      return closes(
        'write to stamps',
        updateFrame(craftUpdate(r, room, (d) => d.getMap(CHAT_STAMPS_MAP).set(`m-${r.int(0, 1e6)}`, 1))),
      );
    case 10:
      return push(
        'message in the other user’s name',
        message(r, room, { senderId: room.otherId, receiverId: room.userId }),
      );
    case 11:
      return push('message to someone else', message(r, room, { receiverId: r.pick(['someone-else-1', room.userId]) }));
    case 12:
      return push('empty or blank message', message(r, room, { content: r.pick(['', ' ', '\n\t ', '\u00a0']) }));
    case 13:
      return push('message over 5000 characters', message(r, room, { content: tooLong(r) }));
    case 14:
      return push(
        'message with a wrong field',
        r.pick<Record<string, unknown>>([
          message(r, room, { content: hostileValue(r) === null ? 5 : [hostileString(r)] }),
          message(r, room, { id: r.pick(['__proto__', 'constructor', 'a b', '', 'x'.repeat(65)]) }),
          message(r, room, { clientTime: r.pick(['now', -1, null]) }),
          message(r, room, { extra: true }),
          { id: 'm-1', content: 'hi' },
        ]),
      );
    case 15:
      return push('a value that is not a message', hostileValue(r));
    case 16: {
      // The second of two messages alone: it depends on a change the server never saw (pending).
      const a = new Y.Doc();
      a.clientID = r.int(1, 2 ** 31);
      const stored = room.serverState();
      if (stored.length) Y.applyUpdate(a, Y.mergeUpdates(stored));
      a.getArray(CHAT_MESSAGES_ARRAY).push([message(r, room)]);
      const sv = Y.encodeStateVector(a);
      a.getArray(CHAT_MESSAGES_ARRAY).push([message(r, room)]);
      const update = Y.encodeStateAsUpdate(a, sv);
      a.destroy();
      return closes('update depending on unknown changes', updateFrame(update));
    }
    case 17: {
      const data = updateFrame(
        craftUpdate(r, room, (d) => {
          const messages = d.getArray(CHAT_MESSAGES_ARRAY);
          if (messages.length > 0) messages.delete(r.int(0, messages.length - 1), 1);
          else d.getMap(CHAT_STAMPS_MAP).set('x', 1);
        }),
      );
      return closes('delete a message', data);
    }
    case 18:
      return closes(
        'truncated varuint',
        new Uint8Array(Array.from({ length: r.int(1, 12) }, () => 0x80 | r.int(0, 127))),
      );
    case 19:
      return closes(
        'length prefix beyond the frame',
        frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, 2);
          encoding.writeVarUint(e, r.int(100, 2 ** 30));
          encoding.writeUint8Array(e, randomBytes(r, 10));
        }),
      );
    case 20: {
      // Presence in another user's name, or with fields the room does not carry: dropped.
      const state = r.pick<unknown>([
        { user: { id: room.otherId, name: 'x' } },
        { user: { id: room.userId }, admin: true },
        { typing: 'yes' },
        hostileValue(r),
      ]);
      const update = frame((e) => {
        encoding.writeVarUint(e, 1);
        encoding.writeVarUint(e, r.int(1, 2 ** 31));
        encoding.writeVarUint(e, r.int(0, 10));
        encoding.writeVarString(e, JSON.stringify(state) ?? 'null');
      });
      return {
        defect: 'awareness for someone else',
        data: frame((e) => {
          encoding.writeVarUint(e, 1);
          encoding.writeVarUint8Array(e, update);
        }),
        mayBeIgnored: true,
      };
    }
    default:
      return {
        defect: 'awareness of random bytes',
        data: frame((e) => {
          encoding.writeVarUint(e, 1);
          encoding.writeVarUint8Array(e, randomBytes(r, 60));
        }),
        mayBeIgnored: true,
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Chat socket upgrade requests

export type UpgradeContext = Attacker & {
  /** A room the attacker may join: everything else about the request is valid. */
  ownRoom: string;
  /** Rooms of other users, with users the attacker is not linked to, and with oneself. */
  foreignRoom: string;
  unlinkedRoom: string;
  selfRoom: string;
};

export type HostileUpgrade = {
  defect: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  status: number | 'any4xx';
};

const wsKey = (r: Rng) => Buffer.from(Array.from({ length: 16 }, () => r.int(0, 255))).toString('base64');

/** One upgrade request to the chat socket with one defect; `status` is the right refusal. */
export function hostileUpgrade(r: Rng, u: UpgradeContext): HostileUpgrade {
  const headers: Record<string, string> = {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': wsKey(r),
    origin: u.origin,
    cookie: u.cookie,
  };
  let path = `/api/chat/${u.ownRoom}`;
  let method = 'GET';
  const [a, b] = u.ownRoom.split('_') as [string, string];
  switch (r.int(0, 9)) {
    case 0:
      delete headers.cookie;
      return { defect: 'no cookie', method, path, headers, status: 401 };
    case 1:
      headers.cookie = forgedCookie(r, u);
      return { defect: `forged cookie ${headers.cookie.slice(0, 30)}`, method, path, headers, status: 401 };
    case 2:
      headers.cookie = r.pick(u.revokedCookies);
      return { defect: 'revoked cookie', method, path, headers, status: 401 };
    case 3: {
      delete headers.origin;
      const variant = r.pick(CROSS_ORIGIN(u.origin));
      if (variant.origin) headers.origin = variant.origin;
      return { defect: `cross-origin ${variant.origin ?? 'none'}`, method, path, headers, status: 403 };
    }
    case 4: {
      const room = r.pick([
        `${b}_${a}`,
        `${a}_${b}_${a}`,
        a,
        `${a}_`,
        `_${b}`,
        `${a}.${b}`,
        `${a}_${b}x!`,
        `${a}_${'x'.repeat(r.int(65, 3000))}`,
        hostileString(r).slice(0, 300),
        randomText(r, 60),
        '',
      ]);
      path = `/api/chat/${encodePart(room)}`;
      return { defect: `bad room ${room.slice(0, 40)}`, method, path, headers, status: 'any4xx' };
    }
    case 5:
      path = `/api/chat/${r.pick(['%E0%A4%A', '%', '%zz', '..%2F..%2Fapi%2Fhealth'])}`;
      return { defect: `undecodable room ${path}`, method, path, headers, status: 400 };
    case 6:
      path = `/api/chat/${u.selfRoom}`;
      return { defect: 'room with oneself', method, path, headers, status: 400 };
    case 7: {
      const foreign = r.chance(0.5);
      path = `/api/chat/${foreign ? u.foreignRoom : u.unlinkedRoom}`;
      return {
        defect: foreign ? "other users' room" : 'room with an unlinked user',
        method,
        path,
        headers,
        status: 403,
      };
    }
    case 8: {
      const variant = r.int(0, 6);
      if (variant === 0) delete headers['sec-websocket-key'];
      else if (variant === 1)
        headers['sec-websocket-key'] = r.pick(['', 'short', 'x'.repeat(30), '!!!!!!!!!!!!!!!!!!!!!!==']);
      else if (variant === 2) headers['sec-websocket-version'] = r.pick(['12', '0', 'abc', '13, 8', '']);
      else if (variant === 3) headers.upgrade = r.pick(['h2c', 'websocket2', 'WebSocket/2', 'tls/1.0']);
      else if (variant === 4) method = r.pick(['POST', 'PUT', 'DELETE']);
      else if (variant === 5) delete headers['sec-websocket-version'];
      else headers['sec-websocket-protocol'] = r.pick(['a b', 'x,,y', 'chat, chat', '"quoted"', ',', 'é']);
      return {
        defect: `bad handshake (${['no key', 'bad key', 'bad version', 'other protocol', `method ${method}`, 'no version', 'bad subprotocol'][variant]})`,
        method,
        path,
        headers,
        status: 'any4xx',
      };
    }
    default:
      path = r.pick([
        '/api/health',
        '/api/chat',
        '/api/sync/stream',
        '/',
        `/api/chatx/${u.ownRoom}`,
        `/API/CHAT/${u.ownRoom}`,
      ]);
      return { defect: `upgrade on ${path}`, method, path, headers, status: 'any4xx' };
  }
}
