import net from 'node:net';

/**
 * A load generator's HTTP/1.1 connection at the least CPU per request: one keep-alive socket, one
 * request at a time, the request's head written as one string with the fixed headers made once,
 * and an answer read by its Content-Length. On this 2-core machine the generator shares the cores
 * with the server it measures; node:http's client costs about as much per request as a lean
 * server does to answer it (decision 008), so a throughput measured with it was mostly the
 * generator's. For loads only: no chunked answers, no redirects, no TLS.
 */
export class RawHttpConnection {
  private pending: { resolve(answer: RawAnswer): void; reject(err: Error): void } | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private readonly fixed: string;

  private constructor(
    private readonly socket: net.Socket,
    host: string,
    headers: Record<string, string>,
  ) {
    this.fixed =
      `Host: ${host}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('the connection closed')));
  }

  /** Connects to `baseUrl`, sending `headers` (cookie, origin, content type) with every request. */
  static connect(baseUrl: string, headers: Record<string, string>): Promise<RawHttpConnection> {
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () =>
        resolve(new RawHttpConnection(socket, url.host, headers)),
      );
      socket.once('error', reject);
    });
  }

  /** POSTs `body` (JSON text) to `path`; resolves with the answer's status and text. */
  post(path: string, body: string): Promise<RawAnswer> {
    if (this.pending) return Promise.reject(new Error('one request at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(
        `POST ${path} HTTP/1.1\r\n${this.fixed}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private received(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buffered.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) return this.fail(new Error(`an answer without Content-Length: ${head.slice(0, 200)}`));
    const end = headEnd + 4 + Number(length[1]);
    if (this.buffered.length < end) return;
    const status = Number(head.slice(9, 12));
    const text = this.buffered.toString('utf8', headEnd + 4, end);
    this.buffered = this.buffered.subarray(end);
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve({ status, text });
  }

  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(err);
  }
}

export type RawAnswer = { status: number; text: string };
