import http from 'node:http';

export type RawAnswer<T = unknown> = { status: number; headers: http.IncomingHttpHeaders; body: T };

/**
 * One request over node:http with every header as given (fetch sets Host and Content-Length
 * itself, and costs a load generator several times the CPU): the answer's status, headers and
 * body, parsed as JSON when it is JSON, its text otherwise (undefined when empty).
 */
export function rawRequest<T = unknown>(options: http.RequestOptions, body?: Buffer | string): Promise<RawAnswer<T>> {
  return new Promise((resolve, reject) => {
    const req = http.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text || undefined;
        try {
          if (text) parsed = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed as T });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
