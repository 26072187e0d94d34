/**
 * A free TCP port on 127.0.0.1 for a server we are about to start.
 *
 * Guarantees: the port is outside the kernel's ephemeral range
 * (/proc/sys/net/ipv4/ip_local_port_range, 32768–60999 by default), so no
 * outgoing connection — of which a test run opens thousands — can take it
 * between this answer and the server's bind; it was free when asked.
 * Not guaranteed: that another listener does not bind it first (each picks at
 * random among ~12,000 ports, so two runs rarely meet). Where the kernel's
 * range leaves no room below it, the kernel's own choice (port 0) is used.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

const LOWEST = 20_000;

function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(low) ? low! : 32_768;
  } catch {
    return 32_768; // not Linux: the IANA dynamic range starts at 49152; staying under 32768 avoids both
  }
}

function bindable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : null));
    });
  });
}

export async function freePort(): Promise<number> {
  const below = ephemeralStart();
  for (let attempt = 0; below - LOWEST > 1_000 && attempt < 50; attempt++) {
    const port = await bindable(LOWEST + Math.floor(Math.random() * (below - LOWEST)));
    if (port !== null) return port;
  }
  const port = await bindable(0);
  if (port === null) throw new Error('no free port on 127.0.0.1');
  return port;
}
