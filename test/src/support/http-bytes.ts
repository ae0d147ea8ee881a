import { request, type IncomingHttpHeaders } from 'node:http';

export interface BytesAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it came over the wire, still encoded. */
  body: Buffer;
}

/** One request with node:http, whose answer's body stays as sent: fetch would decode it. */
export function requestBytes(
  url: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<BytesAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
