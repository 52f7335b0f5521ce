/**
 * A small HTTP client for integration tests: keeps the session cookie like a browser would and
 * sends the same-origin headers a browser sends for fetch() from the app.
 */
export type JsonResponse<T = Record<string, unknown>> = { status: number; body: T; headers: Headers };

export class TestClient {
  private cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    private origin: string | null = baseUrl,
  ) {}

  /** The Origin this client sends, as a browser on the app's address would (null: none). */
  get originHeader(): string | null {
    return this.origin;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  /** The session token this client holds (its `sid` cookie), or undefined when it has none. */
  sessionToken(): string | undefined {
    return this.cookies.get('sid');
  }

  /**
   * A client of its own on the server at `baseUrl` that sends `token` as its session cookie: the
   * same signed-in session in another tab or device (cookies either one is sent later stay apart).
   */
  static withSession(baseUrl: string, token: string | undefined): TestClient {
    const client = new TestClient(baseUrl);
    if (token) client.setCookie('sid', token);
    return client;
  }

  /**
   * Server instances behind one address: each request goes to one of `baseUrls`, chosen at random,
   * or to the next one when that one refuses the connection (see `spread`).
   */
  private bases: readonly string[] | undefined;

  /** The instances this client spreads its requests over (undefined: only `baseUrl`). */
  get spreadOver(): readonly string[] | undefined {
    return this.bases;
  }

  /**
   * The same browser's connection to one of its instances, chosen at random (a socket stays
   * where it was opened): the same cookies and origin.
   */
  onOneInstance(): TestClient {
    const bases = this.bases ?? [this.baseUrl];
    const client = new TestClient(bases[Math.floor(Math.random() * bases.length)]!, this.origin);
    for (const [name, value] of this.cookies) client.setCookie(name, value);
    return client;
  }

  /**
   * A browser behind a load balancer that spreads every request over `baseUrls` (instances of one
   * deployment), sending `origin` (their shared PUBLIC_ORIGIN) as a browser on that address would.
   * Like a real balancer, it sends a request whose connection an instance refused (a stopped one:
   * nothing was sent) to the next; a request cut off by an instance dying fails, as in a browser.
   * (Without that, a write could draw the dead instance attempt after attempt: a third of the time
   * each, with three instances.)
   */
  static spread(baseUrls: readonly string[], origin: string): TestClient {
    const client = new TestClient(baseUrls[0]!, origin);
    client.bases = baseUrls;
    return client;
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size) h.cookie = this.cookieHeader();
    if (this.origin && method !== 'GET') h.origin = this.origin;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await this.fetchFrom(path, { method, headers: h, body: payload, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** `fetch` on one of the instances (see `spread`), or on `baseUrl`. */
  private async fetchFrom(path: string, init: RequestInit): Promise<Response> {
    const bases = this.bases ?? [this.baseUrl];
    const first = Math.floor(Math.random() * bases.length);
    for (let i = 0; ; i++) {
      try {
        return await fetch(bases[(first + i) % bases.length]! + path, init);
      } catch (err) {
        const refused = (err as { cause?: { code?: unknown } }).cause?.code === 'ECONNREFUSED';
        if (!refused || i === bases.length - 1) throw err;
      }
    }
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
}
