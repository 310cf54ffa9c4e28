// Agents and the scripts of their (scripted) models: each script decides one model call
// (one agent step) from the prompt it is given.
import { randomUUID } from 'node:crypto';
import { Agent } from '@mastra/core/agent';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { chunk, model, reasoning, sleep, splitN, text, toolCall } from './models.mjs';
import {
  askUser, blockPasswords, blockSecrets, deleteRecord, getForecast, getStockPrice, getWeather, researchTopic,
} from './tools.mjs';
import { cityIn, citiesIn, weatherFor } from './weather.mjs';
import { weatherReport } from './workflows.mjs';

// ---- scripts ------------------------------------------------------------------------------

const PLAIN_MARKDOWN = `# Three tips for clean Python

Here is a short list:

1. **Name things clearly** – prefer \`user_count\` over \`uc\`.
2. **Keep functions small** – one job per function.
3. **Write tests** – even tiny ones catch regressions.

Example:

\`\`\`python
def greet(name: str) -> str:
    return f"Hello, {name}!"
\`\`\`

Happy coding! 🐍✨`;

const describe = w => `**${w.city}**: ${w.temperatureC} °C, ${w.conditions}, humidity ${w.humidity}%`;

function* plainTextScript() {
  yield* text('txt-0', splitN(PLAIN_MARKDOWN, 50));
}

function* reasoningScript() {
  const thought =
    'The user asks for 17 × 24. Break it up: 17 × 24 = 17 × 20 + 17 × 4 = 340 + 68 = 408. ' +
    'Double-check: 24 × 17 = 24 × 10 + 24 × 7 = 240 + 168 = 408. Both agree.';
  yield* reasoning('rs-0', splitN(thought, 20));
  yield* text('txt-0', splitN('**17 × 24 = 408.**\n\nI split 24 into 20 + 4: 340 + 68 = 408.', 10));
}

function* weatherScript(ctx) {
  const result = ctx.result('getWeather');
  if (!result) {
    const city = cityIn(ctx.userText);
    yield* text('txt-pre', splitN(`Let me look up the current weather in ${city}.`, 5));
    yield* toolCall('call_weather_1', 'getWeather', { city }, 5);
    return;
  }
  yield* text('txt-final', splitN(`Here is what I found:\n\n- ${describe(result.value)}`, 6));
}

function* parallelScript(ctx) {
  const results = ctx.toolResults.filter(r => r.toolName === 'getWeather');
  if (!results.length) {
    const named = citiesIn(ctx.userText);
    const cities = named.length >= 2 ? named.slice(0, 2) : ['Paris', 'Berlin'];
    for (const city of cities) {
      yield* toolCall(`call_weather_${city.toLowerCase().replace(/\W+/g, '_')}`, 'getWeather', { city }, 4);
    }
    return;
  }
  const lines = results.map(r => `- ${describe(r.value)}`).join('\n');
  yield* text('txt-final', splitN(`Here is what I found:\n\n${lines}`, 10));
}

function* toolErrorScript(ctx) {
  const result = ctx.result('getStockPrice');
  if (!result) {
    const symbol = ctx.userText.match(/\b[A-Z]{2,5}\b/)?.[0] ?? 'ACME';
    yield* toolCall('call_stock_1', 'getStockPrice', { symbol }, 3);
    return;
  }
  const message = errorMessage(result.value);
  yield* text(
    'txt-final',
    chunk(`Sorry, I could not complete that lookup.\n\n- \`getStockPrice\` failed: ${message}\n\nPlease try again later.`, 12),
  );
}

/** Sub-agent results reach the model as plain text; tool results as JSON. */
const asText = value => (typeof value === 'string' ? value : (value?.text ?? JSON.stringify(value)));

function errorMessage(value) {
  const raw = typeof value === 'string' ? value : (value?.message ?? JSON.stringify(value));
  return raw.replace(/^(Error: )+/, '');
}

/** The number of days a forecast is asked for ("5-day forecast"): 1 to 7, else 3. */
const daysIn = text => Math.min(7, Math.max(1, Number(text.match(/\b(\d+)[- ]days?\b/i)?.[1] ?? 3)));

/** Whether `task` asks for a trip to be planned rather than for a forecast. */
const plansTrip = task => /\b(trip|travel|holiday|vacation|visit)/i.test(task);

/** The answer to `task` from the researcher's findings ("N-day forecast for City:\n- Day 1: …\n\nAnalyst: …"):
 * the forecast it asked for, or, for a trip, a plan made of it. */
function forecastAnswer(task, findings) {
  const city = cityIn(task);
  const days = [...findings.matchAll(/- Day \d+: [^\n]+/g)].map(m => m[0]);
  const note = findings.match(/Analyst: ([^\n]+)/)?.[1];
  const body = (days.length ? days.join('\n') : findings) + (note ? `\n\nAdvice: ${note}` : '');
  if (plansTrip(task)) {
    return `Here is your trip plan for ${city}: the weather day by day, and what to pack.\n\n${body}\n\nHave a great trip!`;
  }
  return `Here is the ${days.length ? `${days.length}-day ` : ''}forecast for ${city}:\n\n${body}`;
}

function* supervisorScript(ctx) {
  const result = ctx.result('agent-researcher');
  if (!result) {
    const prompt = `Get the ${daysIn(ctx.userText)}-day forecast for ${cityIn(ctx.userText)}.`;
    yield* text('supervisor-pre', splitN('I will delegate this to the research agent.', 4));
    yield* toolCall('call_delegate_1', 'agent-researcher', { prompt }, 6);
    return;
  }
  yield* text('supervisor-final', chunk(forecastAnswer(ctx.userText, asText(result.value)), 12));
}

function* researcherScript(ctx) {
  const city = cityIn(ctx.userText);
  const forecast = ctx.result('getForecast');
  if (!forecast) {
    yield* toolCall('call_forecast_1', 'getForecast', { city, days: daysIn(ctx.userText) }, 4);
    return;
  }
  const days = forecast.value.forecast;
  const analysis = ctx.result('agent-analyst');
  if (!analysis) {
    const summary = days.map(d => `day ${d.day}: ${d.lowC}–${d.highC} °C, ${d.conditions}`).join('; ');
    yield* toolCall('call_analyst_1', 'agent-analyst', { prompt: `Analyse the forecast for ${city}: ${summary}.` }, 5);
    return;
  }
  const lines = days.map(d => `- Day ${d.day}: ${d.lowC}–${d.highC} °C, ${d.conditions}`).join('\n');
  const note = asText(analysis.value);
  yield* text('researcher-final', chunk(`${days.length}-day forecast for ${city}:\n${lines}\n\nAnalyst: ${note}`, 12));
}

function* analystScript(ctx) {
  const city = cityIn(ctx.userText);
  const conditions = ctx.userText.match(/°C, ([a-z ]+)/)?.[1] ?? 'mixed';
  yield* text('analyst-0', chunk(`Stable, ${conditions} weather in ${city}; pack light layers.`, 10));
}

function* workflowAgentScript(ctx) {
  const result = ctx.result('workflow-weatherReport');
  if (!result) {
    yield* toolCall('call_workflow_1', 'workflow-weatherReport', { inputData: { city: cityIn(ctx.userText) } }, 4);
    return;
  }
  const report = result.value?.result?.report ?? JSON.stringify(result.value);
  yield* text('wf-final', chunk(`The weather-report workflow finished.\n\n${report}`, 14));
}

function* reporterScript(ctx) {
  const prompt = ctx.userText;
  const data = JSON.parse(prompt.slice(prompt.indexOf('{'), prompt.lastIndexOf('}') + 1) || '{}');
  const day = data.forecast?.[0] ?? { highC: 16, conditions: 'mild' };
  const report = `${data.city ?? 'The city'}: ${day.conditions}, around ${day.highC - 1} °C. Pack a light jacket.`;
  yield* text('reporter-0', chunk(report, 10));
}

const STRUCTURED_TEMPLATE = {
  city: 'Paris',
  temperatureC: 18,
  conditions: 'partly cloudy',
  advice: ['Bring a light jacket', 'Sunglasses in the afternoon'],
  confidence: 0.87,
};

/** A value matching (the simple parts of) a JSON schema, taken from `template` where possible. */
function fill(schema, template) {
  if (template !== undefined) return template;
  switch (schema?.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fill(s)]));
    case 'array':
      return [fill(schema.items)];
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    default:
      return schema?.enum?.[0] ?? 'example';
  }
}

function* structuredScript(ctx) {
  const schema = ctx.options.responseFormat?.schema;
  const city = cityIn(ctx.userText);
  const w = weatherFor(city);
  const template = { ...STRUCTURED_TEMPLATE, city, temperatureC: w.temperatureC, conditions: w.conditions };
  const value = schema?.properties
    ? Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, fill(s, template[k])]))
    : template;
  yield* text('txt-json', chunk(JSON.stringify(value, null, 2), 6));
}

function* approverScript(ctx) {
  const result = ctx.result('deleteRecord');
  if (!result) {
    const id = ctx.userText.match(/record\s+([\w-]+)/i)?.[1] ?? 'abc-123';
    yield* text('approver-pre', splitN(`I will delete record ${id} once you approve.`, 4));
    yield* toolCall('call_delete_1', 'deleteRecord', { id }, 4);
    return;
  }
  if (result.value?.deleted) {
    yield* text('approver-final', splitN(`Done: record ${result.value.id} was deleted.`, 3));
  } else {
    const reason = errorMessage(result.value);
    yield* text('approver-final', chunk(`I did not delete the record: ${reason}`, 11));
  }
}

function* suspenderScript(ctx) {
  const result = ctx.result('askUser');
  if (!result) {
    yield* text('suspender-pre', splitN('I need one detail from you first.', 3));
    yield* toolCall('call_ask_1', 'askUser', { question: 'Which city should I plan the trip for?' }, 4);
    return;
  }
  const answer = result.value?.answer ?? String(result.value);
  yield* text('suspender-final', chunk(`You answered: "${answer}". I will plan the trip with that in mind.`, 12));
}

/** Endless mixed markdown, numbered so every part of the document is different. */
function* longMarkdown() {
  for (let i = 1; ; i++) {
    yield `## Section ${i}\n\nThis paragraph explains part ${i} of the document in plain words, with **bold** and _italic_ text and a [link](https://example.com/${i}).\n\n`;
    yield `- first point of section ${i}\n- second point, with \`inline code\`\n- third point\n\n`;
    yield `\`\`\`python\ndef step_${i}(x):\n    return x * ${i}\n\`\`\`\n\n`;
    yield `> Note ${i}: streaming keeps going until the answer is complete.\n\n`;
  }
}

function longTextScript(defaults) {
  return async function* (ctx) {
    const deltas = ctx.intParam('deltas', defaults.deltas);
    const delay = ctx.intParam('delay', defaults.delay);
    const source = longMarkdown();
    let buffer = '';
    yield { type: 'text-start', id: 'txt-long' };
    for (let n = 0; n < deltas; n++) {
      while (buffer.length < 40) buffer += source.next().value;
      yield { type: 'text-delta', id: 'txt-long', delta: buffer.slice(0, 40) };
      buffer = buffer.slice(40);
      if (delay > 0) await sleep(delay, ctx.signal);
    }
    yield { type: 'text-end', id: 'txt-long' };
  };
}

function* errorScript() {
  yield { type: 'text-start', id: 'txt-0' };
  for (const delta of ['Starting ', 'a long e', 'xplanatio', 'n that w', 'ill be cu', 't off by ']) {
    yield { type: 'text-delta', id: 'txt-0', delta };
  }
  yield { type: 'error', error: new Error('Mock upstream connection reset (ECONNRESET)') };
}

function* bgResearcherScript(ctx) {
  const result = ctx.result('researchTopic');
  if (!result) {
    const topic = ctx.userText.match(/research\s+(\w+)/i)?.[1] ?? 'solana';
    yield* text('bg-pre', splitN('Starting a background research job.', 4));
    // Unique id: this agent has memory, and a thread must not hold two calls with one id.
    yield* toolCall(`call_research_${randomUUID().slice(0, 8)}`, 'researchTopic', { topic }, 3);
  } else if (!result.value?.findings) {
    // The placeholder result ("Background task started. Task ID: ...").
    yield* text('bg-ack', chunk('The research job is running in the background; I will report back when it finishes.', 16));
  } else {
    // Re-invoked (untilIdle) after the task completed: the real result is in the thread.
    const { topic, findings } = result.value;
    yield* text('bg-final', chunk(`Research on ${topic} finished: ${findings.join('; ')}.`, 16));
  }
}

// ---- agent network (POST /api/agents/networkSupervisor/network) --------------------------
//
// In a network run the supervisor's model is driven by Mastra's routing agent with
// structured output (responseFormat json + schema); the script answers by the schema asked for:
// - routing decision {primitiveId, primitiveType, prompt, selectionReason}
//   ("none"/"none" once the researcher's result is in the thread: task done);
// - completion check {isComplete, completionReason, finalResult} after the primitive ran;
// - final result only {finalResult} (used when completion scorers are configured).
// A plain `/stream` call to this agent just gets a short text answer.

/** The text of every prompt message (all roles). */
const promptText = ctx =>
  ctx.prompt
    .map(m => (typeof m.content === 'string' ? m.content : m.content.map(p => p.text ?? '').join('')))
    .join('\n');

/** `isNetwork` result records (JSON text of assistant messages) the network saved in the thread. */
function networkResults(ctx) {
  const out = [];
  for (const m of ctx.prompt.slice(ctx.lastUserIndex + 1)) {
    if (m.role !== 'assistant') continue;
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const p of parts ?? []) {
      if (p.type !== 'text') continue;
      try {
        const parsed = JSON.parse(p.text);
        if (parsed?.isNetwork) out.push(parsed);
      } catch {}
    }
  }
  return out;
}

/** The primitive's result quoted (JSON-stringified) in the completion-check / final-result prompt. */
function completionResult(ctx) {
  const m = promptText(ctx).match(/(?:This is the result:|produced this result:\s*\n)\s*(.*)\n/);
  if (!m) return '';
  try {
    const v = JSON.parse(m[1]);
    return typeof v === 'string' ? v : JSON.stringify(v);
  } catch {
    return m[1];
  }
}

/** The original task as quoted in the completion-check prompt, else the latest user text. */
const originalTask = ctx => promptText(ctx).match(/Original task: (.*)\n/)?.[1]?.trim() || ctx.userText;

function* networkSupervisorScript(ctx) {
  const props = ctx.options.responseFormat?.schema?.properties ?? {};
  const all = promptText(ctx);
  // The schema's fields; without a responseFormat (JSON prompt-injection fallback) the JSON shape in the prompt.
  const asks = key => key in props || (!ctx.options.responseFormat && all.includes(`"${key}":`));
  const json = value => text('network-json', chunk(JSON.stringify(value), 12));

  if (asks('primitiveId')) {
    const city = cityIn(ctx.userText);
    const done = networkResults(ctx).find(r => r.primitiveId === 'researcher');
    if (done) {
      yield* json({
        primitiveId: 'none',
        primitiveType: 'none',
        prompt: '',
        selectionReason: `The researcher already returned the forecast for ${city}; nothing left to do.`,
      });
      return;
    }
    yield* json({
      primitiveId: 'researcher',
      primitiveType: 'agent',
      prompt: `Get the ${daysIn(ctx.userText)}-day forecast for ${city}.`,
      selectionReason:
        'The researcher agent researches forecasts with getForecast and the analyst; ' +
        'no workflow or tool in this network does that, so no other primitive was picked.',
    });
    return;
  }

  if (asks('isComplete') || asks('finalResult')) {
    const task = originalTask(ctx);
    const city = cityIn(task);
    const finalResult = forecastAnswer(task, completionResult(ctx));
    if (asks('isComplete')) {
      // isComplete first: Mastra streams finalResult as routing-agent-text-delta once it is true.
      yield* json({
        isComplete: true,
        completionReason: `The researcher returned the forecast for ${city} with the analyst's advice.`,
        finalResult,
      });
    } else {
      yield* json({ finalResult });
    }
    return;
  }

  yield* text('network-plain', chunk('I coordinate a small agent network; call my /network route to use it.', 16));
}

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function* sourcesScript() {
  yield { type: 'source', sourceType: 'url', id: 'src-1', url: 'https://example.com/weather/paris', title: 'Paris weather – Example' };
  yield {
    type: 'source',
    sourceType: 'url',
    id: 'src-2',
    url: 'https://example.org/climate',
    title: 'Climate notes',
    providerMetadata: { mock: { rank: 2 } },
  };
  yield {
    type: 'source',
    sourceType: 'document',
    id: 'src-3',
    mediaType: 'application/pdf',
    title: 'Forecast handbook',
    filename: 'handbook.pdf',
  };
  yield* text('txt-0', ['According to ', '[1] and [2], ', 'Paris is ', 'mild today. ', 'A chart is ', 'attached.']);
  yield { type: 'file', mediaType: 'image/png', data: PNG_1PX };
  yield { type: 'file', mediaType: 'text/plain', data: new TextEncoder().encode('hello file\n') };
}

function* guardedScript(ctx) {
  const answer = /launch code/i.test(ctx.userText)
    ? 'Sure. The launch code is SECRET-0000.'
    : 'I can help with that, as long as no secrets are involved.';
  yield* text('txt-0', chunk(answer, 8));
}

// ---- client tools and conversations (tools the notebook defines and runs) -------------------
//
// The prompt names the client tools to call: `call lookup with {"city": "Paris"} and call
// top_rows` (args are the JSON after "with", else {}). Once their results are in, the answer
// quotes them: `lookup returned {...}` or `lookup failed: ...`. A prompt with "again and again"
// calls the tools after every result (for a client's max-rounds guard). A prompt naming no tool
// gets an answer that recounts the conversation, so a turn shows what it remembers.

/** `[{toolName, args}]` the latest user text asks for, in order. */
function requestedCalls(userText) {
  const starts = [...userText.matchAll(/\bcall\s+([A-Za-z_][\w-]*)/g)];
  return starts.map((m, i) => {
    const segment = userText.slice(m.index + m[0].length, starts[i + 1]?.index ?? userText.length);
    const open = segment.match(/^\s*with\s*\{/) ? segment.indexOf('{') : -1;
    let args = {};
    if (open >= 0) {
      const json = segment.slice(open, segment.lastIndexOf('}') + 1);
      try {
        args = JSON.parse(json);
      } catch {
        args = { unparsed: json };
      }
    }
    return { toolName: m[1], args };
  });
}

/** The user messages of the whole prompt (memory or resent history included), in order. */
const userTexts = ctx =>
  ctx.prompt
    .filter(m => m.role === 'user')
    .map(m => (typeof m.content === 'string' ? m.content : m.content.map(p => p.text ?? '').join('')));

/** Every tool result in the prompt, earlier turns included. */
const allToolResults = ctx =>
  ctx.prompt
    .filter(m => m.role === 'tool')
    .flatMap(m => m.content)
    .filter(p => p.type === 'tool-result')
    .map(p => ({ toolName: p.toolName, value: p.output && typeof p.output === 'object' && 'value' in p.output ? p.output.value : p.output }));

const quoted = value => (typeof value === 'string' ? value : JSON.stringify(value));

function* clientToolScript(ctx) {
  const offered = new Set((ctx.options.tools ?? []).map(t => t.name));
  const calls = requestedCalls(ctx.userText);
  const results = ctx.toolResults;
  const again = /again and again/i.test(ctx.userText);
  if (calls.length && (!results.length || again)) {
    const missing = calls.filter(c => !offered.has(c.toolName)).map(c => c.toolName);
    if (missing.length) {
      yield* text('client-missing', chunk(`I was given no tool named ${missing.join(', ')}.`, 12));
      return;
    }
    // Unique ids: a memory thread must not hold two calls with one id.
    for (const { toolName, args } of calls) yield* toolCall(`call_${toolName}_${randomUUID().slice(0, 8)}`, toolName, args, 3);
    return;
  }
  if (results.length) {
    // A client reports a failure as the result {error: message} (as @mastra/client-js does).
    const failed = r => r.isError || (Object.keys(r.value ?? {}).length === 1 && typeof r.value?.error === 'string');
    const lines = results.map(r =>
      failed(r) ? `- ${r.toolName} failed: ${r.value?.error ?? errorMessage(r.value)}` : `- ${r.toolName} returned ${quoted(r.value)}`,
    );
    yield* text('client-final', chunk(`Here is what the notebook's tools said:\n\n${lines.join('\n')}`, 16));
    return;
  }
  const said = userTexts(ctx);
  const earlier = said.slice(0, -1).map(t => `"${t}"`).join(', ') || 'nothing yet';
  const tools = allToolResults(ctx).map(r => `${r.toolName} returned ${quoted(r.value)}`);
  const recalled = tools.length ? ` Earlier tools said: ${tools.join('; ')}.` : '';
  yield* text('chat-reply', chunk(`Turn ${said.length}: you said "${ctx.userText}". Before that you said: ${earlier}.${recalled}`, 16));
}

// ---- agents -------------------------------------------------------------------------------

const agent = (id, description, script, extra = {}) =>
  new Agent({
    id,
    name: id,
    description,
    instructions: `You are the scripted "${id}" test agent.`,
    model: model(`mock-${id}`, script),
    ...extra,
  });

const analyst = agent('analyst', 'Analyses a forecast and gives one line of advice', analystScript);
const researcher = agent('researcher', 'Researches forecasts (uses getForecast and the analyst)', researcherScript, {
  tools: { getForecast },
  agents: { analyst },
});
// Conversations with memory keep their threads in LibSQL: in memory unless MASTRA_MEMORY_URL names a
// file (file:/tmp/...), so tests leave nothing behind.
const chatStorage = new LibSQLStore({ id: 'memory-chat', url: process.env.MASTRA_MEMORY_URL ?? ':memory:' });

const reporter = agent('reporter', 'Writes a one-line weather report from a forecast', reporterScript);

export const agents = {
  plainText: agent('plainText', 'Markdown answer in ~50 text deltas', plainTextScript),
  reasoning: agent('reasoning', 'Reasoning, then an answer', reasoningScript),
  weather: agent('weather', 'Looks up the weather with getWeather', weatherScript, { tools: { getWeather } }),
  parallelTools: agent('parallelTools', 'Two getWeather calls in one step', parallelScript, { tools: { getWeather } }),
  toolError: agent('toolError', 'Calls getStockPrice, which fails', toolErrorScript, { tools: { getStockPrice } }),
  supervisor: agent('supervisor', 'Delegates to the researcher sub-agent', supervisorScript, { agents: { researcher } }),
  workflowAgent: agent('workflowAgent', 'Runs the weatherReport workflow as a tool', workflowAgentScript, {
    workflows: { weatherReport },
  }),
  structured: agent('structured', 'Streams JSON for structured output', structuredScript),
  approver: agent('approver', 'deleteRecord needs approval', approverScript, { tools: { deleteRecord } }),
  suspender: agent('suspender', 'askUser suspends until resumed with {answer}', suspenderScript, { tools: { askUser } }),
  longText: agent('longText', 'Long markdown: deltas=N (5000) delay=MS (0)', longTextScript({ deltas: 5000, delay: 0 })),
  slow: agent('slow', 'Slow markdown: deltas=N (400) delay=MS (25)', longTextScript({ deltas: 400, delay: 25 })),
  errorAgent: agent('errorAgent', 'The model stream fails after 6 deltas', errorScript),
  bgResearcher: agent('bgResearcher', 'researchTopic runs as a background task (use untilIdle)', bgResearcherScript, {
    tools: { researchTopic },
    memory: new Memory(), // background results are delivered through the thread
  }),
  sources: agent('sources', 'Sources (url, document), text, then files', sourcesScript),
  guarded: agent('guarded', 'Guardrails: password prompts and secret answers trip a wire', guardedScript, {
    inputProcessors: [blockPasswords],
    outputProcessors: [blockSecrets],
  }),
  networkSupervisor: agent(
    'networkSupervisor',
    'Agent network (POST /network): routes to the researcher, then completes with a final result',
    networkSupervisorScript,
    {
      instructions:
        'You coordinate a small network. Use the researcher agent for forecasts. ' +
        'The task is complete once the researcher has returned the forecast.',
      agents: { researcher },
      memory: new Memory(), // the network keeps its decisions and results in a thread
    },
  ),
  toolUser: agent('toolUser', 'Calls the client tools the prompt names ("call lookup with {...}"); no memory', clientToolScript),
  memoryChat: agent('memoryChat', 'Like toolUser, with memory (LibSQL): every turn of a thread is remembered', clientToolScript, {
    memory: new Memory({ storage: chatStorage, options: { lastMessages: 40 } }),
  }),
  researcher,
  analyst,
  reporter,
};

// ---- retries and network approvals (what client-js users rely on) ---------------------------

const runsByPrompt = new Map();

/** Counts its runs per prompt: a retried request must reach the model once ("Run 1 for this prompt."). */
function* countingScript(ctx) {
  const n = (runsByPrompt.get(ctx.userText) ?? 0) + 1;
  runsByPrompt.set(ctx.userText, n);
  yield* text('count-0', [`Run ${n} `, 'for this prompt.']);
}

const wanderingsByPrompt = new Map();

/** Looks the weather up as `weather` does, except that every third run of a prompt looks up the wrong
 * city (Lyon; Paris when Lyon was asked): repeats of one input that part at their tool call (exp.forks). */
function* wanderingScript(ctx) {
  const result = ctx.result('getWeather');
  if (!result) {
    const n = (wanderingsByPrompt.get(ctx.userText) ?? 0) + 1;
    wanderingsByPrompt.set(ctx.userText, n);
    const asked = cityIn(ctx.userText);
    const city = n % 3 === 0 ? (asked === 'Lyon' ? 'Paris' : 'Lyon') : asked;
    yield* text('txt-pre', splitN(`Let me look up the current weather in ${city}.`, 5));
    yield* toolCall('call_weather_1', 'getWeather', { city }, 5);
    return;
  }
  yield* text('txt-final', splitN(`Here is what I found:\n\n- ${describe(result.value)}`, 6));
}

/** A network whose one tool, deleteRecord, needs approval: it routes to the tool, then completes
 * with what the tool returned, or with the reason it was declined. */
function* networkApproverScript(ctx) {
  const props = ctx.options.responseFormat?.schema?.properties ?? {};
  const asks = key => key in props || (!ctx.options.responseFormat && promptText(ctx).includes(`"${key}":`));
  const json = value => text('network-json', chunk(JSON.stringify(value), 12));
  if (asks('primitiveId')) {
    const id = ctx.userText.match(/record\s+([\w-]+)/i)?.[1] ?? 'abc-123';
    const ran = networkResults(ctx).some(r => r.primitiveId === 'deleteRecord' && r.finalResult?.result);
    yield* json(
      ran
        ? { primitiveId: 'none', primitiveType: 'none', prompt: '', selectionReason: 'deleteRecord has answered.' }
        : {
            primitiveId: 'deleteRecord',
            primitiveType: 'tool',
            prompt: JSON.stringify({ id }),
            selectionReason: `deleteRecord deletes record ${id}; it needs a person's approval.`,
          },
    );
    return;
  }
  if (asks('isComplete') || asks('finalResult')) {
    const result = completionResult(ctx);
    const finalResult = /"deleted":\s*true/.test(result) ? `Deleted: ${result}` : `Not deleted: ${result}`;
    yield* json({ isComplete: true, completionReason: 'deleteRecord has answered.', finalResult });
    return;
  }
  yield* text('network-plain', chunk('Call my /network route to delete a record.', 16));
}

Object.assign(agents, {
  counter: agent('counter', 'Says how many times it has run for this prompt (for retry tests)', countingScript),
  wanderer: agent('wanderer', 'Looks up the weather, but every third run of a prompt in the wrong city (repeats that fork)', wanderingScript, {
    tools: { getWeather },
  }),
  networkApprover: agent('networkApprover', 'Agent network whose deleteRecord tool needs approval', networkApproverScript, {
    instructions: 'You delete records with deleteRecord, once a person approves.',
    tools: { deleteRecord },
    memory: new Memory(), // the network keeps its decisions and results in a thread
  }),
});
