import { hostileRequests, type Attacker, type EndpointSpec, type HostileRequest } from '../hostile';
import { type TestServer } from '../in-process-server';
import { snapshotStore, storeDifference, type StoreState } from '../store-snapshot';
import { N, root, suite } from './world';

// Running payloads and judging answers

export type Tally = { endpoint: string; tried: number; violations: number };
export const tallies: Tally[] = [];

/** Object.prototype must never gain a key, whatever a body carried. */
export function prototypeIntact(): string | undefined {
  const keys = Object.getOwnPropertyNames(Object.prototype).filter((k) => !BASE_PROTOTYPE.has(k));
  return keys.length ? `Object.prototype gained ${keys.join(', ')}` : undefined;
}
export const BASE_PROTOTYPE = new Set(Object.getOwnPropertyNames(Object.prototype));

export type Answer = { status: number; headers: Headers; text: string; json: Record<string, unknown> | undefined };

export async function send(on: TestServer, req: HostileRequest): Promise<Answer> {
  const res = await fetch(on.url + req.path, {
    method: req.method,
    headers: req.headers,
    body: req.body as BodyInit | undefined,
    redirect: 'manual',
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** What is wrong with the answer to a hostile request, or undefined. */
export function judge(req: HostileRequest, a: Answer): string | undefined {
  if (a.status >= 500) return `${a.status} ${a.text.slice(0, 200)}`;
  if (a.headers.get('access-control-allow-origin')) return 'answered with Access-Control-Allow-Origin';
  const isJson = /^application\/json/.test(a.headers.get('content-type') ?? '');
  const refusal = () => {
    if (a.status < 400 || a.status >= 500) return `not refused: ${a.status} ${a.text.slice(0, 200)}`;
    if (!isJson || typeof a.json?.error !== 'string' || !a.json.error)
      return `no JSON { error }: ${a.status} ${a.headers.get('content-type')} ${a.text.slice(0, 120)}`;
    return undefined;
  };
  const e = req.expect;
  switch (e.kind) {
    case 'refused': {
      const problem = refusal();
      if (problem) return problem;
      if (e.status && a.status !== e.status) return `${a.status} instead of ${e.status}: ${String(a.json?.error)}`;
      return undefined;
    }
    case 'rows-refused': {
      if (a.status !== 200) return refusal();
      const refused = a.json?.refused;
      if (!Array.isArray(refused) || refused.length !== e.rows)
        return `${Array.isArray(refused) ? refused.length : 'no'} of ${e.rows} rows refused: ${a.text.slice(0, 300)}`;
      return undefined;
    }
    case 'ok-noop':
      return a.status === 200 && a.json?.ok === true
        ? undefined
        : `expected { ok: true }: ${a.status} ${a.text.slice(0, 120)}`;
    case 'redirect':
      return a.status === 303 && a.headers.get('location') === e.location
        ? undefined
        : `expected a redirect to ${e.location}: ${a.status} ${a.headers.get('location')}`;
    case 'public':
      return a.status === 200 && a.text === suite.publicAnswer
        ? undefined
        : `public answer changed: ${a.status} ${a.text.slice(0, 120)}`;
  }
}

/** Runs `count` checks one at a time, comparing the store before and after each; returns the violations. */
export async function run(
  on: TestServer,
  endpoint: string,
  count: number,
  attempt: (i: number) => Promise<{ defect: string; problem: string | undefined }>,
  rooms: readonly string[] = [],
): Promise<string[]> {
  const violations: string[] = [];
  let before: StoreState = await snapshotStore(on, rooms);
  for (let i = 0; i < count; i++) {
    let outcome: { defect: string; problem: string | undefined };
    try {
      outcome = await attempt(i);
    } catch (err) {
      outcome = { defect: `#${i}`, problem: `request failed: ${String(err)}` };
    }
    const after = await snapshotStore(on, rooms);
    const changed = storeDifference(before, after);
    const problems = [outcome.problem, changed && `store changed: ${changed}`, prototypeIntact()].filter(Boolean);
    if (problems.length) violations.push(`#${i} [${outcome.defect}] ${problems.join('; ')}`);
    before = after;
  }
  tallies.push({ endpoint, tried: count, violations: violations.length });
  return violations;
}

export async function runEndpoint(on: TestServer, spec: EndpointSpec, attacker: Attacker): Promise<string[]> {
  const requests = hostileRequests(spec, attacker, root.fork(spec.name), N);
  return run(on, spec.name, N, async () => {
    const req = requests.next().value as HostileRequest;
    return { defect: req.defect, problem: judge(req, await send(on, req)) };
  });
}
