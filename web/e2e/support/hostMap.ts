import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * E2E_HOST_MAP="host=ip:port[,host=ip:port]" for the tests' own calls (fetch in Node), as the
 * config's --host-resolver-rules does it for Chromium: a request for http(s)://host/... goes to
 * ip:port with `Host: host` (and, over HTTPS, host as the TLS server name, its certificate
 * checked against Node's roots plus NODE_EXTRA_CA_CERTS: the cluster's local CA), so the ingress
 * controller routes it by the Ingress's host name. Node's fetch cannot be given another address
 * for a name, nor its own Host header, hence node:http and node:https. Other hosts go to the real
 * fetch.
 */
export function mapHostForFetch(spec = process.env.E2E_HOST_MAP): void {
  if (!spec) return;
  const targets = new Map(spec.split(',').map((pair) => pair.split('=') as [string, string]));
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const target = targets.get(url.hostname);
    if (!target || (url.protocol !== 'http:' && url.protocol !== 'https:')) return realFetch(input, init);
    const [address, port] = target.split(':');
    const headers: Record<string, string> = { host: url.host };
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    const body = init?.body == null ? undefined : init.body;
    if (body !== undefined && typeof body !== 'string') throw new Error('mapHostForFetch: only string bodies');
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        {
          host: address,
          port: Number(port),
          servername: url.hostname,
          method: init?.method ?? 'GET',
          path: url.pathname + url.search,
          headers,
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const out = new Headers();
            for (const [key, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : [value ?? '']) out.append(key, v);
            }
            const status = res.statusCode ?? 0;
            const noBody = status === 204 || status === 304;
            resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: out }));
          });
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  };
}
