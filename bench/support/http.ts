import http from 'node:http';
import type { PushAnswer } from '../../shared/sync/protocol';
import { rawRequest } from '../../tests/support/raw-request';

/**
 * A lean HTTP client for load: node:http with keep-alive, the session cookie and the app's origin
 * on every request, as the browser sends them. (fetch costs several times more CPU per request,
 * and the load generator shares this 2-core machine with the server.)
 */
export class LoadClient {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    maxSockets = 8,
  ) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  get cookie(): string {
    return `sid=${this.token}`;
  }

  request<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = {
      cookie: this.cookie,
      origin: this.baseUrl,
      accept: 'application/json',
    };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    return rawRequest<T>({ host: this.host, port: this.port, method, path, headers, agent: this.agent }, payload);
  }

  close(): void {
    this.agent.destroy();
  }
}

export type { PushAnswer } from '../../shared/sync/protocol';

/** Pushes one new document; throws unless the server accepted it. */
export async function pushNew(client: LoadClient, collection: string, doc: Record<string, unknown>): Promise<void> {
  const res = await client.request<PushAnswer>('POST', `/api/sync/${collection}/push`, [
    { assumedMasterState: null, newDocumentState: { _deleted: false, ...doc } },
  ]);
  if (res.status !== 200) throw new Error(`push answered ${res.status}: ${JSON.stringify(res.body)}`);
  const refused = res.body.refused[0];
  if (refused) throw new Error(`push refused: ${refused.reason}`);
}
