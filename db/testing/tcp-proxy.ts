/**
 * A TCP proxy in front of the test database that a test can freeze: while frozen it forwards no
 * byte either way and new connections hang in their handshake — the database answers nothing,
 * as behind a network partition, while the process under test runs on. For the faults a SIGSTOP
 * of the database cannot give one client alone (a holder that must suspect itself).
 */
import net from 'node:net';

export class FreezableProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private frozen = false;

  private constructor(target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      const pair: [net.Socket, net.Socket] = [client, upstream];
      this.pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      if (this.frozen) for (const socket of pair) socket.pause();
      const end = () => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
  }

  /** Listens on loopback in front of the database `url` names; `url` is the same string through the proxy. */
  static async before(databaseUrl: string): Promise<{ proxy: FreezableProxy; url: string }> {
    const target = new URL(databaseUrl);
    const proxy = new FreezableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const through = new URL(databaseUrl);
    through.hostname = '127.0.0.1';
    through.port = String((proxy.server.address() as net.AddressInfo).port);
    return { proxy, url: through.toString() };
  }

  freeze(): void {
    this.frozen = true;
    for (const pair of this.pairs) for (const socket of pair) socket.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const pair of this.pairs) for (const socket of pair) socket.resume();
  }

  async close(): Promise<void> {
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
