// Loopback HTTP server that replays recorded provider responses (the AI SDK's own
// `*.chunks.txt` fixtures: one JSON SSE event per line) to a real provider package.
//
// The Nth request of a scenario gets the Nth response of its list, so a multi-step
// agent run (step 1 calls a tool, step 2 answers) sees one recorded response per step.
// A response is
//   {file}                  the whole file, one SSE event per line
//   {file, segment: k}      the k-th stream of a file that holds several streams back to back
//                           (a new stream starts at each line whose type is `startType`)
//   {file, status: 400}     an HTTP error: the file is sent as the JSON error body
// Framing follows what each provider really sends:
//   anthropic, openai-responses: `event: <type>` then `data: <json>` (their SSE names events)
//   openai-chat:                 `data: <json>` ... `data: [DONE]`
//   google:                      `data: <json>` only
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FRAMINGS = {
  anthropic: { eventLines: true, done: false, startType: 'message_start' },
  'openai-responses': { eventLines: true, done: false, startType: 'response.created' },
  'openai-chat': { eventLines: false, done: true, startType: null },
  google: { eventLines: false, done: false, startType: null },
};

// Lines of a fixture file (JSON text kept as recorded, blank lines dropped).
function fixtureLines(dir, file) {
  return readFileSync(join(dir, file), 'utf8').split('\n').filter((line) => line.trim() !== '');
}

// The k-th stream of a file holding several streams back to back.
function segmentLines(lines, startType, k) {
  const segments = [];
  for (const line of lines) {
    if (segments.length === 0 || eventType(line) === startType) segments.push([]);
    segments.at(-1).push(line);
  }
  if (!(k in segments)) throw new Error(`segment ${k} missing (file has ${segments.length})`);
  return segments[k];
}

// The event name of a line: its top-level `type`, read without parsing, since a recorded
// line may be cut short (the first key is `type` in every provider's events).
function eventType(line) {
  return /^\{"type":"([^"]+)"/.exec(line)?.[1] ?? 'message';
}

// The SSE body for one response.
export function sseBody(lines, framing) {
  const f = FRAMINGS[framing];
  let body = '';
  for (const line of lines) {
    if (f.eventLines) body += `event: ${eventType(line)}\n`;
    body += `data: ${line}\n\n`;
  }
  if (f.done) body += 'data: [DONE]\n\n';
  return body;
}

/**
 * Start the replay server on 127.0.0.1 and a free port.
 * Returns {url, requests, close}: `requests` records each request (method, path, parsed body)
 * so a caller can check what the provider package sent.
 */
export async function startReplay({ dir, framing, responses }) {
  if (!(framing in FRAMINGS)) throw new Error(`unknown framing ${framing}`);
  const requests = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (part) => (raw += part));
    req.on('end', () => {
      let body = raw;
      try { body = JSON.parse(raw); } catch { /* keep the text */ }
      const n = requests.length;
      requests.push({ method: req.method, path: req.url, body });
      const spec = responses[n];
      if (!spec) {
        // More requests than recorded responses: a bug in the scenario, say so loudly.
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `replay: no response #${n + 1} recorded` } }));
        return;
      }
      if (spec.status) {
        res.writeHead(spec.status, { 'content-type': 'application/json' });
        res.end(readFileSync(join(dir, spec.file), 'utf8'));
        return;
      }
      let lines = fixtureLines(dir, spec.file);
      if (spec.segment !== undefined) lines = segmentLines(lines, FRAMINGS[framing].startType, spec.segment);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(sseBody(lines, framing));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
