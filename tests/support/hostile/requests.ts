import { Rng } from '../rng';
import {
  badJson,
  deepJson,
  encodePart,
  hostileString,
  hostileValue,
  randomText,
  tooLong,
  withProtoKey,
  withRawField,
  wrongTypeFor,
} from './values';

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

export const CROSS_ORIGIN = (origin: string): Record<string, string>[] => [
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

export const WRONG_CONTENT_TYPES = [
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

export function forgedCookie(r: Rng, a: Attacker): string {
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

export type Kind =
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

export function kindsOf(spec: EndpointSpec): Kind[] {
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

export function hostileRequest(spec: EndpointSpec, a: Attacker, r: Rng, kind: Kind): HostileRequest {
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
