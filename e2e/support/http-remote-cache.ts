/**
 * A self-hosted Nx remote cache on loopback, speaking the protocol Nx's `HttpRemoteCache` uses
 * when `NX_SELF_HOSTED_REMOTE_CACHE_SERVER` is set: `PUT /v1/cache/{hash}` stores a task's
 * archive (409 when it exists: entries are immutable), `GET /v1/cache/{hash}` returns it or 404.
 * Entries are files in one folder, so two workspaces pointed at the server share one cache
 * directory, which is how Nx scales caching out across machines.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface RemoteCache {
  url: string;
  token: string;
  stats: { gets: number; hits: number; puts: number };
  close(): Promise<void>;
}

export async function startRemoteCache(folder: string, token = 'e2e-cache-token'): Promise<RemoteCache> {
  mkdirSync(folder, { recursive: true });
  const stats = { gets: 0, hits: 0, puts: 0 };
  const server: Server = createServer((req, res) => {
    const match = /^\/v1\/cache\/([A-Za-z0-9]+)$/.exec(req.url ?? '');
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const file = join(folder, match[1]!);
    if (req.method === 'GET') {
      stats.gets++;
      if (!existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      stats.hits++;
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
      return;
    }
    if (req.method === 'PUT') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (existsSync(file)) {
          res.writeHead(409).end();
          return;
        }
        writeFileSync(file, Buffer.concat(chunks));
        stats.puts++;
        res.writeHead(200).end();
      });
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    stats,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
