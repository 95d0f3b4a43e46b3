import net from 'node:net';

/**
 * A small TCP load balancer for the fault tests: one port on loopback, connections handed round-robin to
 * the backends, and a backend that refuses the connection (a killed instance) skipped for the next one.
 * WebSocket upgrades pass through untouched (it is bytes both ways). When a backend's side closes, the
 * client's side is closed too, so clients see the instance go away and reconnect through the balancer.
 */
export interface TcpBalancer {
  url: string;
  port: number;
  /** Connections open now, per backend index. */
  active(): number[];
  /** Connections ever made, per backend index. */
  total(): number[];
  close(): Promise<void>;
}

export interface Backend {
  host: string;
  port: number;
}

export function backendOf(url: string): Backend {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}

export async function startTcpBalancer(backends: Backend[]): Promise<TcpBalancer> {
  const active = backends.map(() => 0);
  const total = backends.map(() => 0);
  const sockets = new Set<net.Socket>();
  let next = 0;

  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    // Bytes the client sends before a backend is connected wait here.
    client.pause();
    const attempt = (tries: number) => {
      if (tries >= backends.length || client.destroyed) {
        client.destroy();
        return;
      }
      const index = next;
      next = (next + 1) % backends.length;
      const upstream = net.connect(backends[index]!);
      sockets.add(upstream);
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        active[index]! += 1;
        total[index]! += 1;
        upstream.pipe(client);
        client.pipe(upstream);
        client.resume();
      });
      upstream.on('error', () => {
        // Refused (the instance is down): try the next backend. After connecting: the close below ends both.
        if (!connected) attempt(tries + 1);
      });
      upstream.on('close', () => {
        sockets.delete(upstream);
        if (!connected) return;
        active[index]! -= 1;
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
    };
    attempt(0);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    active: () => [...active],
    total: () => [...total],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
