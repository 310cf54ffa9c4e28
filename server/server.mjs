// Start: `node server/server.mjs` (PORT=0 or unset picks a free port).
// Prints exactly one line to stdout once listening:
//   MASTRA_TEST_SERVER_READY http://127.0.0.1:<port>
// Everything else (logs) goes to stderr.
// MASTRA_REDACT=0 keeps the provider request in `step-start.payload.request.body` (Mastra's
// default, and ours, is 1: redacted to {}).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { MastraServer } from '@mastra/hono';

process.env.MASTRA_TELEMETRY_DISABLED ??= '1'; // no analytics calls; read at call time
console.log = console.info = console.debug = (...args) => console.error(...args);

const { mastra } = await import('./mastra.mjs');

const app = new Hono();
const redact = (process.env.MASTRA_REDACT ?? '1') !== '0';
const server = new MastraServer({ app, mastra, streamOptions: { redact } });
await server.init();

const port = Number(process.env.PORT || 0);
const httpServer = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, info => {
  process.stdout.write(`MASTRA_TEST_SERVER_READY http://127.0.0.1:${info.port}\n`);
});

let stopping = false;
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.error(`[mastra-test-server] ${signal}: shutting down`);
  httpServer.closeAllConnections?.();
  httpServer.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
