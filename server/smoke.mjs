// End-to-end smoke test over HTTP: `node smoke.mjs` (starts its own server on a free port)
// or `BASE_URL=http://127.0.0.1:4111 node smoke.mjs` (uses a running one; the abort check
// then cannot read the server log and only checks the client side).
// Ends with a line "N passed, N failed"; exit code 1 if anything failed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
let base = process.env.BASE_URL;
let server;
let serverLog = '';

async function startServer() {
  const t0 = Date.now();
  server = spawn(process.execPath, ['server.mjs'], { cwd: here, env: { ...process.env, PORT: '0' } });
  server.stderr.on('data', d => (serverLog += d));
  const lines = createInterface({ input: server.stdout });
  const [line] = await Promise.race([
    once(lines, 'line'),
    once(server, 'exit').then(() => {
      throw new Error(`server exited:\n${serverLog}`);
    }),
  ]);
  base = line.match(/^MASTRA_TEST_SERVER_READY (http:\/\/\S+)$/)[1];
  console.log(`server ready at ${base} in ${Date.now() - t0} ms`);
}

// ---- HTTP helpers -------------------------------------------------------------------------

async function post(path, body, { signal } = {}) {
  return fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

/** POST and read an SSE answer: the parsed chunks; `done` tells if `data: [DONE]` came. */
async function sse(path, body) {
  const res = await post(path, body);
  assert(res.ok, `${path}: HTTP ${res.status} ${await res.clone().text()}`);
  assert(res.headers.get('content-type')?.startsWith('text/event-stream'), `${path}: not SSE`);
  const raw = await res.text();
  const data = raw
    .split('\n\n')
    .filter(Boolean)
    .map(block => block.replace(/^data: /, ''));
  const done = data.at(-1) === '[DONE]';
  return { chunks: data.filter(d => d !== '[DONE]').map(d => JSON.parse(d)), done };
}

/** Workflow streams are JSON records each followed by \x1E. */
async function records(path, body) {
  const res = await post(path, body);
  assert(res.ok, `${path}: HTTP ${res.status} ${await res.clone().text()}`);
  return (await res.text())
    .split('\x1E')
    .filter(s => s.trim())
    .map(s => JSON.parse(s));
}

const agentStream = (id, content, extra = {}) =>
  sse(`/api/agents/${id}/stream`, { messages: [{ role: 'user', content }], ...extra });

/** "tool-output>tool-output>forecast-progress" style type paths of the chunks. */
const typeOf = c =>
  (c.type === 'tool-output' || c.type === 'workflow-step-output') && c.payload?.output && typeof c.payload.output === 'object'
    ? `${c.type}>${typeOf(c.payload.output)}`
    : c.type;
const types = chunks => chunks.map(typeOf);
const count = (chunks, type) => types(chunks).filter(t => t === type).length;
const textOf = (chunks, type = 'text-delta') =>
  chunks.filter(c => typeOf(c) === type).map(c => (type.endsWith('text-delta') ? inner(c).payload.text : '')).join('');
const inner = c => (c.payload?.output && typeof c.payload.output === 'object' ? inner(c.payload.output) : c);
const find = (chunks, type) => chunks.find(c => typeOf(c) === type);

// ---- tiny test runner ---------------------------------------------------------------------

function assert(cond, message) {
  if (!cond) throw new Error(message);
}
const results = [];
async function check(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push(true);
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    results.push(false);
    console.log(`FAIL ${name}: ${err.stack ?? err}`);
  }
}
function expectCompleted({ chunks, done }) {
  assert(done, 'no [DONE]');
  assert(chunks[0]?.type === 'start', `first chunk is ${chunks[0]?.type}`);
  assert(chunks.at(-1)?.type === 'finish', `last chunk is ${chunks.at(-1)?.type}`);
}

// ---- checks -------------------------------------------------------------------------------

const AGENT_IDS = [
  'plainText', 'reasoning', 'weather', 'parallelTools', 'toolError', 'supervisor', 'workflowAgent', 'structured',
  'approver', 'suspender', 'longText', 'slow', 'errorAgent', 'bgResearcher', 'sources', 'guarded', 'networkSupervisor',
  'dynamic', 'workingMemory', 'observer', 'weatherMemory',
];

/** `fetch()` again (every 50 ms, 20 s at most) until `done` holds: traces and scores are written after a run. */
async function poll(fetchIt, done, what) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await fetchIt();
    if (done(value)) return value;
    assert(Date.now() < deadline, `timed out waiting until ${what}`);
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}
const getJson = async path => {
  const res = await fetch(base + path);
  return res.ok ? res.json() : null;
};

async function main() {
  if (!base) await startServer();

  await check('GET /api/agents lists the agents', async () => {
    const list = await (await fetch(`${base}/api/agents`)).json();
    for (const id of AGENT_IDS) assert(list[id]?.id === id, `missing ${id}`);
  });

  await check('unknown agent: 404 JSON {error}', async () => {
    const res = await post('/api/agents/doesNotExist/stream', { messages: [{ role: 'user', content: 'Hello?' }] });
    assert(res.status === 404, `status ${res.status}`);
    assert(res.headers.get('content-type').includes('application/json'), 'not JSON');
    const body = await res.json();
    assert(typeof body.error === 'string' && body.error.includes('doesNotExist'), JSON.stringify(body));
  });

  await check('plainText: markdown in ~50 deltas', async () => {
    const r = await agentStream('plainText', 'Give me three tips for clean Python, with an example.');
    expectCompleted(r);
    assert(count(r.chunks, 'text-delta') === 50, `deltas ${count(r.chunks, 'text-delta')}`);
    const text = textOf(r.chunks);
    assert(text.startsWith('# ') && text.includes('```python') && text.includes('1. ') && text.includes('🐍'), text);
  });

  await check('reasoning: 20 reasoning deltas then 10 text deltas', async () => {
    const r = await agentStream('reasoning', 'What is 17 × 24?');
    expectCompleted(r);
    const t = types(r.chunks);
    assert(count(r.chunks, 'reasoning-delta') === 20 && count(r.chunks, 'text-delta') === 10, t.join());
    assert(t.lastIndexOf('reasoning-end') < t.indexOf('text-start'), 'reasoning after text');
    assert(textOf(r.chunks).includes('17 × 24 = 408'), textOf(r.chunks));
    assert(find(r.chunks, 'finish').payload.output.usage.reasoningTokens > 0, 'no reasoningTokens');
  });

  await check('weather: preface, streamed getWeather args, result, answer', async () => {
    const r = await agentStream('weather', 'What is the weather in Tokyo?');
    expectCompleted(r);
    const t = types(r.chunks);
    assert(t.indexOf('text-delta') < t.indexOf('tool-call-input-streaming-start'), 'no preface');
    assert(count(r.chunks, 'tool-call-delta') >= 3, 'args not streamed');
    const call = find(r.chunks, 'tool-call').payload;
    assert(call.toolName === 'getWeather' && call.args.city === 'Tokyo', JSON.stringify(call));
    const result = find(r.chunks, 'tool-result').payload.result;
    assert(result.city === 'Tokyo' && 'temperatureC' in result && 'humidity' in result, JSON.stringify(result));
    assert(count(r.chunks, 'step-start') === 2, 'not 2 steps');
    assert(textOf(r.chunks).includes('**Tokyo**: 24 °C'), textOf(r.chunks));
  });

  await check('parallelTools: two getWeather calls in one step', async () => {
    const r = await agentStream('parallelTools', 'Compare the weather in Paris and Berlin.');
    expectCompleted(r);
    const t = types(r.chunks);
    const firstFinish = t.indexOf('step-finish');
    const calls = r.chunks.slice(0, firstFinish).filter(c => c.type === 'tool-call');
    assert(calls.map(c => c.payload.args.city).join() === 'Paris,Berlin', JSON.stringify(calls));
    assert(r.chunks.slice(0, firstFinish).filter(c => c.type === 'tool-result').length === 2, 'results');
    assert(textOf(r.chunks).includes('Berlin'), 'answer');
  });

  await check('toolError: tool-error, then an apology', async () => {
    const r = await agentStream('toolError', 'What is the ACME stock price?');
    expectCompleted(r);
    const err = find(r.chunks, 'tool-error').payload;
    assert(err.toolName === 'getStockPrice', JSON.stringify(err));
    assert(JSON.stringify(err.error).includes('Stock service unavailable'), JSON.stringify(err.error));
    assert(textOf(r.chunks).startsWith('Sorry'), textOf(r.chunks));
  });

  await check('supervisor: sub-agents two levels deep, tool-output envelopes', async () => {
    const r = await agentStream('supervisor', 'Plan my trip: what is the forecast for Paris?');
    expectCompleted(r);
    const t = new Set(types(r.chunks));
    for (const type of [
      'tool-output>start',
      'tool-output>tool-call', // researcher calls getForecast / agent-analyst
      'tool-output>tool-output>forecast-progress', // getForecast's writer, inside the researcher
      'tool-output>tool-output>text-delta', // the analyst's text, two levels down
      'tool-output>tool-result',
      'tool-output>finish',
      'tool-result',
    ]) {
      assert(t.has(type), `missing ${type}`);
    }
    const progress = r.chunks.filter(c => typeOf(c) === 'tool-output>tool-output>forecast-progress').map(inner);
    assert(progress.length === 3 && progress[2].day === 3 && progress[2].of === 3, JSON.stringify(progress));
    const subCalls = r.chunks.filter(c => typeOf(c) === 'tool-output>tool-call').map(c => inner(c).payload.toolName);
    assert(subCalls.join() === 'getForecast,agent-analyst', subCalls.join());
    const result = find(r.chunks, 'tool-result').payload;
    assert(result.toolName === 'agent-researcher' && result.result.text.includes('Analyst:'), JSON.stringify(result));
    assert(textOf(r.chunks).includes('Here is your trip plan'), 'final text');
  });

  await check('workflowAgent: workflow-weatherReport as a tool', async () => {
    const r = await agentStream('workflowAgent', 'Write me a weather report for London.');
    expectCompleted(r);
    const call = find(r.chunks, 'tool-call').payload;
    assert(call.toolName === 'workflow-weatherReport' && call.args.inputData.city === 'London', JSON.stringify(call));
    const t = new Set(types(r.chunks));
    for (const type of [
      'tool-output>workflow-start',
      'tool-output>workflow-step-output>forecast-progress',
      'tool-output>workflow-step-output>text-delta',
      'tool-output>workflow-finish',
    ]) {
      assert(t.has(type), `missing ${type}`);
    }
    assert(find(r.chunks, 'tool-result').payload.result.result.report.startsWith('London:'), 'result');
    assert(textOf(r.chunks).includes('London: light rain'), textOf(r.chunks));
  });

  await check('structured: partial objects and object-result (JSON schema in the body)', async () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        temperatureC: { type: 'number' },
        conditions: { type: 'string' },
        advice: { type: 'array', items: { type: 'string' } },
        confidence: { type: 'number' },
      },
      required: ['city', 'temperatureC', 'conditions', 'advice', 'confidence'],
      additionalProperties: false,
    };
    const r = await agentStream('structured', 'Weather summary for Paris as JSON.', { structuredOutput: { schema } });
    expectCompleted(r);
    assert(count(r.chunks, 'object') >= 5, `objects ${count(r.chunks, 'object')}`);
    const obj = find(r.chunks, 'object-result').object;
    assert(obj.city === 'Paris' && obj.advice.length === 2 && obj.confidence === 0.87, JSON.stringify(obj));
    // The model follows the schema it is given.
    const other = {
      type: 'object',
      properties: { city: { type: 'string' }, windy: { type: 'boolean' } },
      required: ['city', 'windy'],
    };
    const r2 = await agentStream('structured', 'Weather for Berlin as JSON.', { structuredOutput: { schema: other } });
    const obj2 = find(r2.chunks, 'object-result').object;
    assert(obj2.city === 'Berlin' && obj2.windy === true && !('advice' in obj2), JSON.stringify(obj2));
  });

  async function approvalRun() {
    const r = await agentStream('approver', 'Delete record abc-123.');
    assert(r.done, 'no [DONE]');
    const last = r.chunks.at(-1);
    assert(last.type === 'tool-call-approval', `ends at ${last.type}`);
    assert(!r.chunks.some(c => c.type === 'finish' || c.type === 'tool-result'), 'ran past the approval');
    assert(last.payload.toolName === 'deleteRecord' && last.payload.args.id === 'abc-123', JSON.stringify(last));
    return { runId: last.runId, toolCallId: last.payload.toolCallId };
  }

  await check('approver: approve-tool-call continues (tool runs, answer)', async () => {
    const ids = await approvalRun();
    const r = await sse('/api/agents/approver/approve-tool-call', ids);
    assert(r.done && r.chunks.at(-1).type === 'finish', 'not finished');
    assert(r.chunks[0].runId === ids.runId, 'other runId');
    const result = find(r.chunks, 'tool-result').payload.result;
    assert(result.deleted === true && result.id === 'abc-123', JSON.stringify(result));
    assert(textOf(r.chunks).includes('was deleted'), textOf(r.chunks));
  });

  await check('approver: decline-tool-call (with reason)', async () => {
    const ids = await approvalRun();
    const reason = 'Record abc-123 is still referenced by invoices.';
    const r = await sse('/api/agents/approver/decline-tool-call', { ...ids, reason });
    assert(r.done && r.chunks.at(-1).type === 'finish', 'not finished');
    const denied = find(r.chunks, 'tool-output-denied');
    assert(denied?.payload.approval?.reason === reason, JSON.stringify(denied));
    assert(!r.chunks.some(c => c.type === 'tool-result'), 'tool ran');
    assert(textOf(r.chunks) === `I did not delete the record: ${reason}`, textOf(r.chunks));
  });

  await check('suspender: tool-call-suspended, then resume-stream with {answer}', async () => {
    const r = await agentStream('suspender', 'Plan a trip for me.');
    const last = r.chunks.at(-1);
    assert(r.done && last.type === 'tool-call-suspended', `ends at ${last.type}`);
    assert(last.payload.suspendPayload.question.includes('Which city'), JSON.stringify(last.payload));
    const r2 = await sse('/api/agents/suspender/resume-stream', {
      runId: last.runId,
      toolCallId: last.payload.toolCallId,
      resumeData: { answer: 'Lisbon in May' },
    });
    assert(r2.done && r2.chunks.at(-1).type === 'finish', 'not finished');
    assert(find(r2.chunks, 'tool-result').payload.result.answer === 'Lisbon in May', 'result');
    assert(textOf(r2.chunks).includes('"Lisbon in May"'), textOf(r2.chunks));
  });

  await check('longText: 5000 deltas (default), deltas=N honoured', async () => {
    const r = await agentStream('longText', 'Write a very long document.');
    expectCompleted(r);
    const text = textOf(r.chunks);
    assert(count(r.chunks, 'text-delta') === 5000, `deltas ${count(r.chunks, 'text-delta')}`);
    assert(text.length === 200000 && text.includes('```python') && text.includes('\n- '), `length ${text.length}`);
    const r2 = await agentStream('longText', 'Short one: deltas=120 delay=1');
    assert(count(r2.chunks, 'text-delta') === 120, `deltas ${count(r2.chunks, 'text-delta')}`);
  });

  await check('slow: client disconnect stops the run', async () => {
    const controller = new AbortController();
    const t0 = Date.now();
    const res = await post('/api/agents/slow/stream', { messages: [{ role: 'user', content: 'Write slowly.' }] }, controller);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while ((seen.match(/"text-delta"/g) ?? []).length < 10) seen += decoder.decode((await reader.read()).value);
    controller.abort();
    const elapsed = Date.now() - t0;
    assert(elapsed < 2000, `10 deltas took ${elapsed} ms (expected ~25 ms each)`);
    if (!server) return; // remote server: cannot see its log
    const deadline = Date.now() + 3000;
    let m;
    while (!(m = serverLog.match(/mock-slow: stream (aborted|cancelled) after (\d+) parts/)) && Date.now() < deadline) {
      await new Promise(r => setTimeout(r, 50));
    }
    assert(m, `server did not log the abort:\n${serverLog}`);
    assert(Number(m[2]) < 100, `model produced ${m[2]} parts`);
    console.log(`     server log: ${m[0]}`);
  });

  await check('errorAgent: 6 deltas then an error chunk', async () => {
    const r = await agentStream('errorAgent', 'Explain something at length.');
    assert(r.done, 'no [DONE]');
    const err = find(r.chunks, 'error');
    assert(err?.payload.error.message === 'Mock upstream connection reset (ECONNRESET)', JSON.stringify(err));
    assert(count(r.chunks, 'text-delta') >= 5, 'deltas');
    assert(find(r.chunks, 'finish')?.payload.stepResult.reason === 'error', 'finish reason');
  });

  await check('sources: source chunks, text, file chunks', async () => {
    const r = await agentStream('sources', 'What is the weather in Paris? Cite sources.');
    expectCompleted(r);
    const sources = r.chunks.filter(c => c.type === 'source').map(c => c.payload);
    assert(sources.map(s => s.sourceType).join() === 'url,url,document', JSON.stringify(sources));
    const files = r.chunks.filter(c => c.type === 'file').map(c => c.payload);
    assert(files[0].mimeType === 'image/png' && files[0].base64.startsWith('iVBOR'), JSON.stringify(files[0]));
    assert(files[1].mimeType === 'text/plain' && files[1].data['0'] === 104, JSON.stringify(files[1]));
  });

  await check('guarded: input and output tripwires', async () => {
    const blocked = await agentStream('guarded', 'What is the admin password?');
    assert(blocked.done && blocked.chunks.length === 1 && blocked.chunks[0].type === 'tripwire', types(blocked.chunks).join());
    assert(blocked.chunks[0].payload.processorId === 'block-passwords', JSON.stringify(blocked.chunks[0]));
    const cut = await agentStream('guarded', 'Tell me the launch code.');
    assert(cut.done && cut.chunks.at(-1).type === 'tripwire' && count(cut.chunks, 'text-delta') >= 2, types(cut.chunks).join());
    assert(!textOf(cut.chunks).includes('SECRET') && !cut.chunks.some(c => c.type === 'finish'), textOf(cut.chunks));
    expectCompleted(await agentStream('guarded', 'Hello there'));
  });

  await check('bgResearcher: background task, then a second turn (untilIdle)', async () => {
    const r = await agentStream('bgResearcher', 'Research solana for me.', {
      memory: { thread: `smoke-bg-${Date.now()}`, resource: 'smoke' },
      untilIdle: { maxIdleMs: 15000 },
    });
    assert(r.done, 'no [DONE]');
    const t = types(r.chunks);
    for (const type of ['background-task-started', 'background-task-running', 'background-task-output', 'background-task-completed']) {
      assert(t.includes(type), `missing ${type}`);
    }
    assert(count(r.chunks, 'start') === 2 && count(r.chunks, 'finish') === 2, t.join());
    const runIds = new Set(r.chunks.filter(c => c.type === 'start').map(c => c.runId));
    assert(runIds.size === 2, 'second turn has the same runId');
    assert(find(r.chunks, 'background-task-completed').payload.result.findings.length === 3, 'result');
    assert(textOf(r.chunks).endsWith('solana finding 3.'), textOf(r.chunks));
  });

  await check('networkSupervisor: network routes to the researcher, then completes', async () => {
    const r = await sse('/api/agents/networkSupervisor/network', {
      messages: [{ role: 'user', content: 'Get the 3-day forecast for Paris' }],
    });
    assert(r.done, 'no [DONE]');
    const { chunks } = r;
    const t = chunks.map(c => c.type);
    assert(t[0] === 'routing-agent-start' && t.at(-1) === 'network-execution-event-finish', `${t[0]} … ${t.at(-1)}`);
    assert(chunks.every(c => c.from === 'NETWORK' && c.runId === chunks[0].runId), 'from / runId');
    const order = [
      'routing-agent-start', 'routing-agent-end', 'agent-execution-start', 'agent-execution-event-start',
      'agent-execution-event-finish', 'agent-execution-end', 'network-validation-start', 'routing-agent-text-start',
      'network-validation-end', 'network-execution-event-finish',
    ];
    const at = order.map(type => t.indexOf(type));
    assert(at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1])), `order: ${order.map((o, n) => `${o}@${at[n]}`).join(' ')}`);
    const route = chunks[t.indexOf('routing-agent-end')].payload;
    assert(route.primitiveId === 'researcher' && route.primitiveType === 'agent' && route.prompt.includes('Paris'), JSON.stringify(route));
    const start = chunks[t.indexOf('agent-execution-start')].payload;
    assert(start.agentId === 'researcher', JSON.stringify(start));
    // agent-execution-event-<type>: payload is the sub-agent's own chunk, runId = the execution step's id.
    const events = chunks.filter(c => c.type.startsWith('agent-execution-event-'));
    assert(events.every(c => c.type === `agent-execution-event-${c.payload.type}` && c.payload.runId === start.runId), 'event envelope');
    const ev = events.map(c => c.payload);
    const calls = ev.filter(c => c.type === 'tool-call').map(c => c.payload.toolName);
    assert(calls.join() === 'getForecast,agent-analyst', calls.join());
    const outputs = ev.filter(c => c.type === 'tool-output').map(c => c.payload.output);
    assert(outputs.filter(o => o.type === 'forecast-progress').length === 3, 'forecast-progress');
    assert(outputs.some(o => o.type === 'text-delta' && o.from === 'AGENT'), 'analyst text');
    const subText = ev.filter(c => c.type === 'text-delta').map(c => c.payload.text).join('');
    assert(subText.startsWith('3-day forecast for Paris:') && subText.includes('Analyst:'), subText);
    const end = chunks[t.indexOf('agent-execution-end')].payload;
    assert(end.result === subText && end.usage.totalTokens > 0, JSON.stringify(end));
    const validation = chunks[t.indexOf('network-validation-end')].payload;
    assert(validation.passed === true, JSON.stringify(validation));
    const finalText = chunks.filter(c => c.type === 'routing-agent-text-delta').map(c => c.payload.text).join('');
    const fin = chunks.at(-1).payload;
    assert(fin.isComplete === true && fin.result === finalText && finalText.includes('Day 3:'), JSON.stringify(fin));
    const usage = route.usage.totalTokens + end.usage.totalTokens; // the completion check is not counted
    assert(fin.usage.totalTokens === usage, `usage ${JSON.stringify(fin.usage)} vs ${usage}`);
    // An agent without memory cannot run a network.
    const res = await post('/api/agents/supervisor/network', { messages: [{ role: 'user', content: 'Paris?' }] });
    assert(res.status === 400 && (await res.json()).error.startsWith('Memory is required'), `status ${res.status}`);
  });

  await check('workflow weatherReport: create-run + stream', async () => {
    const { runId } = await (await post('/api/workflows/weatherReport/create-run', {})).json();
    const recs = await records(`/api/workflows/weatherReport/stream?runId=${runId}`, { inputData: { city: 'Berlin' } });
    const t = types(recs);
    assert(t[0] === 'workflow-start' && t.at(-1) === 'workflow-finish', t.join());
    assert(t.includes('workflow-step-output>forecast-progress'), 'no progress');
    assert(t.includes('workflow-step-output>text-delta') && t.includes('workflow-step-output>finish'), 'no agent chunks');
    const fin = recs.at(-1).payload;
    assert(fin.workflowStatus === 'success' && fin.finalWorkflowResult.report.startsWith('Berlin:'), JSON.stringify(fin));
    assert(recs.every(c => c.runId === runId), 'runId');
  });

  async function suspendedApprovalFlow(item) {
    const { runId } = await (await post('/api/workflows/approvalFlow/create-run', {})).json();
    const recs = await records(`/api/workflows/approvalFlow/stream?runId=${runId}`, { inputData: { item } });
    const suspended = find(recs, 'workflow-step-suspended');
    assert(suspended?.payload.suspendPayload.question === `Approve "${item}"?`, JSON.stringify(suspended));
    assert(recs.at(-1).payload.workflowStatus === 'suspended', recs.at(-1).payload.workflowStatus);
    return runId;
  }

  await check('workflow approvalFlow: suspend, resume-stream approved/rejected', async () => {
    for (const approved of [true, false]) {
      const runId = await suspendedApprovalFlow('laptop');
      const recs = await records(`/api/workflows/approvalFlow/resume-stream?runId=${runId}`, {
        step: 'request',
        resumeData: { approved },
      });
      const fin = recs.at(-1).payload;
      assert(fin.workflowStatus === 'success', JSON.stringify(fin));
      assert(fin.finalWorkflowResult.approved === approved, JSON.stringify(fin.finalWorkflowResult));
      assert(fin.finalWorkflowResult.message.includes(approved ? 'approved' : 'rejected'), 'message');
    }
  });

  await check('workflow cancel: POST /runs/:runId/cancel', async () => {
    const runId = await suspendedApprovalFlow('car');
    const res = await post(`/api/workflows/approvalFlow/runs/${runId}/cancel`, {});
    assert(res.ok, `HTTP ${res.status}`);
    assert((await res.json()).message === 'Workflow run cancelled', 'message');
    const run = await (await fetch(`${base}/api/workflows/approvalFlow/runs/${runId}`)).json();
    assert(run.status === 'canceled', run.status);
  });

  await check('dynamic: instructions and model from requestContext', async () => {
    const context = encodeURIComponent(JSON.stringify({ style: 'pirate', model: 'mock-dynamic-detailed' }));
    const info = await getJson(`/api/agents/dynamic?requestContext=${context}`);
    assert(info.instructions === 'Answer in pirate.' && info.modelId === 'mock-dynamic-detailed', JSON.stringify(info));
    const r = await agentStream('dynamic', 'What is Paris?', { requestContext: { style: 'pirate' } });
    expectCompleted(r);
    assert(textOf(r.chunks).startsWith('Arr!'), textOf(r.chunks));
  });

  await check('weatherMemory: one trace with model, memory and tool spans', async () => {
    const traceId = [...crypto.getRandomValues(new Uint8Array(16))].map(b => b.toString(16).padStart(2, '0')).join('');
    const r = await agentStream('weatherMemory', 'Weather in Oslo?', {
      memory: { thread: `smoke-${traceId}`, resource: 'smoke' },
      tracingOptions: { traceId },
    });
    expectCompleted(r);
    const trace = await poll(
      () => getJson(`/api/observability/traces/${traceId}`),
      t => t?.spans.some(s => s.spanType === 'agent_run' && s.endedAt),
      'the trace is stored',
    );
    const kinds = new Set(trace.spans.map(s => s.spanType));
    for (const kind of ['model_generation', 'memory_operation', 'tool_call']) assert(kinds.has(kind), [...kinds].join());
  });

  await check('workingMemory: updateWorkingMemory, then GET working-memory', async () => {
    const memory = { thread: `smoke-wm-${Date.now()}`, resource: `smoke-wm-${Date.now()}` };
    const r = await agentStream('workingMemory', 'My name is Ada.', { memory });
    expectCompleted(r);
    assert(find(r.chunks, 'tool-call')?.payload.toolName === 'updateWorkingMemory', types(r.chunks).join());
    const wm = await getJson(`/api/memory/threads/${memory.thread}/working-memory?agentId=workingMemory&resourceId=${memory.resource}`);
    assert(wm.workingMemory.includes('- Name: Ada'), JSON.stringify(wm));
  });

  await check('scorers: listed by id; the dynamic agent is scored after its run', async () => {
    const listed = await getJson('/api/scores/scorers');
    for (const id of ['completeness-scorer', 'keyword-coverage-scorer', 'answer-length', 'judge-answers-question']) {
      assert(listed[id], `missing scorer ${id}`);
    }
    const r = await agentStream('dynamic', 'What is Paris?');
    const { scores } = await poll(
      () => getJson(`/api/scores/run/${r.chunks[0].runId}`),
      found => found?.scores.length >= 2,
      'two scores are stored',
    );
    assert(scores.map(s => s.scorerId).sort().join() === 'answer-length,completeness-scorer', JSON.stringify(scores));
  });

  const passed = results.filter(Boolean).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  return results.length - passed;
}

let failed = 1;
try {
  failed = await main();
} catch (err) {
  console.error(err);
} finally {
  if (server) {
    server.kill('SIGTERM');
    const [code] = await once(server, 'exit');
    console.log(`server exited with ${code}`);
  }
}
process.exit(failed ? 1 : 0);
