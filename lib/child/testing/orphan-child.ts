// A supervised child as the dashboard server is one: it logs often, an uncaught-exception handler logs
// what it catches (Next.js does), and its graceful stop waits on something that never answers (a
// database that is gone). Prints `ready` once its handlers are in place.
import { listenToParent } from '../parent';

process.on('uncaughtException', (error) => console.error('uncaught:', error));
listenToParent(
  () => {},
  () => {
    // the stop routine hangs: only the deadline can end this process
  },
);
setInterval(() => {
  process.stdout.write('log line\n');
  process.stderr.write('warning line\n');
}, 5);
process.stdout.write('ready\n');
