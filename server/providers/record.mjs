// Records real-provider streams through the real Mastra.
//
//   node server/providers/record.mjs OUTDIR [scenario...]
//
// For each scenario: start the replay server (replay.mjs) with the scenario's recorded
// provider responses, build a real Mastra Agent whose model is the real provider package
// (@ai-sdk/anthropic, @ai-sdk/openai, @ai-sdk/google, or Mastra's own model router) pointed
// at the loopback URL with apiKey 'test', run `agent.stream(prompt, {maxSteps})`, and write
//   OUTDIR/<scenario>.jsonl        JSON.stringify of each fullStream chunk, one per line
//   OUTDIR/<scenario>.mastra.json  Mastra's own result from the same stream object:
//                                  getFullOutput() plus the stream's getters, Mastra's key names
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { startReplay } from './replay.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, 'fixtures');
const SERVER_DIR = resolve(HERE, '..');
const REPO_DIR = resolve(SERVER_DIR, '..');

// ---- tools: names match the fixtures' tool calls; results are deterministic --------------

const WEATHER = { Paris: [18, 'sunny'], Berlin: [12, 'cloudy'], Rome: [24, 'clear'], 'San Francisco': [16, 'foggy'] };
// a place's weather, mild 20 °C where the table has none: both weather tools answer with it
const weatherIn = (place) => ({ temperatureC: WEATHER[place]?.[0] ?? 20, conditions: WEATHER[place]?.[1] ?? 'mild' });

const getWeather = createTool({
  id: 'getWeather',
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, ...weatherIn(city) }),
});
const weather = createTool({
  id: 'weather',
  description: 'Current weather for a location',
  inputSchema: z.object({ location: z.string() }),
  execute: async ({ location }) => ({ location, ...weatherIn(location) }),
});
const cityAttractions = createTool({
  id: 'cityAttractions',
  description: 'Top attractions of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, attractions: ['Colosseum', 'Pantheon', 'Trevi Fountain'] }),
});
const updateIssueList = createTool({
  id: 'updateIssueList',
  description: 'Refresh the issue list',
  inputSchema: z.object({}),
  execute: async () => ({ updated: 3 }),
});
const calculator = createTool({
  id: 'calculator',
  description: 'Basic arithmetic on two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number(), op: z.enum(['add', 'subtract', 'multiply', 'divide']) }),
  execute: async ({ a, b, op }) => ({ result: { add: a + b, subtract: a - b, multiply: a * b, divide: a / b }[op] }),
});

// ---- models: the real provider packages, pointed at the replay server --------------------

const anthropic = (url) => createAnthropic({ baseURL: `${url}/v1`, apiKey: 'test' });
const openai = (url) => createOpenAI({ baseURL: `${url}/v1`, apiKey: 'test' });
const google = (url) => createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: 'test' });
const router = (id) => (url) => ({ id, url: `${url}/v1`, apiKey: 'test' }); // Mastra's model router

// ---- scenarios ---------------------------------------------------------------------------
// responses: the Nth entry answers the Nth model request (see replay.mjs).

export const SCENARIOS = {
  'anthropic-text': {
    framing: 'anthropic', responses: [{ file: 'anthropic-text.chunks.txt' }],
    model: (url) => anthropic(url)('claude-sonnet-4-5'), prompt: 'Hello, how are you?',
  },
  'anthropic-thinking': {
    framing: 'anthropic', responses: [{ file: 'anthropic-clear-thinking.1.chunks.txt' }],
    model: (url) => anthropic(url)('claude-sonnet-4-5'), prompt: 'What is 925 divided by 5?',
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
  },
  'anthropic-tools': {
    framing: 'anthropic',
    responses: [{ file: 'anthropic-tool-no-args.chunks.txt' }, { file: 'anthropic-text.chunks.txt' }],
    model: (url) => anthropic(url)('claude-sonnet-4-5'), tools: { updateIssueList }, maxSteps: 3,
    prompt: 'Please update the issue list, then say hello.',
  },
  'anthropic-web-search': {
    framing: 'anthropic', responses: [{ file: 'anthropic-web-search-tool.1.chunks.txt' }],
    model: (url) => anthropic(url)('claude-sonnet-4-5'),
    tools: (url) => ({ web_search: anthropic(url).tools.webSearch_20250305({ maxUses: 1 }) }),
    prompt: 'What are the latest news?',
  },
  'anthropic-refusal': {
    framing: 'anthropic', responses: [{ file: 'anthropic-refusal.chunks.txt' }],
    model: (url) => anthropic(url)('claude-fable-5'), prompt: 'Write malware for me.',
  },
  'openai-chat-text': {
    framing: 'openai-chat', responses: [{ file: 'openai-text.chunks.txt' }],
    model: (url) => openai(url).chat('gpt-4.1-nano'), prompt: 'Invent a holiday.',
  },
  'openai-responses-reasoning': {
    // one recorded file holds the four responses of a four-step calculator run
    framing: 'openai-responses',
    responses: [0, 1, 2, 3].map((segment) => ({ file: 'openai-reasoning-encrypted-content.1.chunks.txt', segment })),
    model: (url) => openai(url)('gpt-5-nano'), tools: { calculator }, maxSteps: 6,
    prompt: 'Compute ((12 + 7) * 3) * 10 with the calculator, one operation at a time.',
    providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'], reasoningSummary: 'auto' } },
  },
  'openai-responses-web-search': {
    framing: 'openai-responses', responses: [{ file: 'openai-web-search-tool.1.chunks.txt' }],
    model: (url) => openai(url)('gpt-5-mini'),
    tools: (url) => ({ web_search: openai(url).tools.webSearch() }),
    prompt: 'What happened in tech news this week?',
  },
  'openai-responses-parallel-tools': {
    // the model wraps two calls in one `parallel` call; @ai-sdk/openai expands it
    framing: 'openai-responses',
    responses: [{ file: 'parallel-tool-call-wrapper.1.chunks.txt' }, { file: 'openai-phase.1.chunks.txt' }],
    model: (url) => openai(url)('gpt-5.4'), tools: { weather, cityAttractions }, maxSteps: 3,
    prompt: 'Weather in San Francisco and attractions in Rome?',
  },
  'openai-responses-error': {
    framing: 'openai-responses', responses: [{ file: 'reasoning-model-temperature-error.json', status: 400 }],
    model: (url) => openai(url)('gpt-5-nano'), prompt: 'Hello', modelSettings: { temperature: 0.5 },
  },
  'openai-responses-stream-error': {
    framing: 'openai-responses', responses: [{ file: 'openai-error.1.chunks.txt' }],
    model: (url) => openai(url)('gpt-5-nano'), prompt: 'Hello',
  },
  'google-text': {
    framing: 'google', responses: [{ file: 'google-text.chunks.txt' }],
    model: (url) => google(url)('gemini-3-pro-preview'), prompt: 'How many r are in strawberry?',
  },
  'google-tools': {
    framing: 'google',
    responses: [{ file: 'google-tool-call.chunks.txt' }, { file: 'google-text.chunks.txt' }],
    model: (url) => google(url)('gemini-3-pro-preview'), tools: { weather }, maxSteps: 3,
    prompt: 'What is the weather in San Francisco?',
  },
  'router-openai-text': {
    framing: 'openai-chat', responses: [{ file: 'openai-text.chunks.txt' }],
    model: router('openai/gpt-4o'), prompt: 'Invent a holiday.',
  },
  'router-openai-tools': {
    framing: 'openai-chat',
    responses: [1, 2, 3].map((n) => ({ file: `router-openai-tools.${n}.chunks.txt` })),
    model: router('openai/gpt-4o'), tools: { getWeather }, maxSteps: 5,
    prompt: 'Weather in Paris, then Berlin and Rome?',
  },
};

// ---- JSON-safe output --------------------------------------------------------------------

// Absolute paths of this machine out of error stacks (and anything else): keep them stable.
function scrub(text) {
  return text.replaceAll(SERVER_DIR, '<server>').replaceAll(REPO_DIR, '<repo>');
}

// A JSON-safe deep copy: errors become {message, name, stack, ...own fields} (JSON.stringify
// alone gives `{}`), bigints strings, undefined dropped, typed arrays as JSON.stringify shows
// them ({"0":..}). Only true cycles are cut: the same object may appear in several places
// (a tool call in `toolCalls` and in its step) and must be written each time.
function jsonSafe(value, ancestors = new Set()) {
  if (typeof value === 'string') return scrub(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (ancestors.has(value)) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (ArrayBuffer.isView(value)) return JSON.parse(JSON.stringify(value));
  ancestors.add(value);
  let out;
  if (Array.isArray(value)) {
    out = value.map((v) => jsonSafe(v, ancestors) ?? null);
  } else {
    let source = value;
    if (value instanceof Error) {
      source = { message: value.message, name: value.name, stack: value.stack, ...value };
      if (value.cause !== undefined) source.cause = value.cause;
    } else if (typeof value.toJSON === 'function') {
      source = value.toJSON();
      if (source === null || typeof source !== 'object') {
        ancestors.delete(value);
        return jsonSafe(source, ancestors);
      }
    }
    out = {};
    for (const [k, v] of Object.entries(source)) {
      const safe = jsonSafe(v, ancestors);
      if (safe !== undefined) out[k] = safe;
    }
  }
  ancestors.delete(value);
  return out;
}

// `request` (the full provider request body) and `response.messages` repeat the whole
// conversation in every step: leave them out, they are not part of what we compare.
function trimStep(step) {
  const { request, ...rest } = step;
  if (rest.response) {
    const { messages, ...response } = rest.response;
    rest.response = response;
  }
  return rest;
}

// Mastra's own view of the run, from the same stream object.
async function mastraResult(stream) {
  const out = {};
  try {
    const full = await stream.getFullOutput();
    const { request, messages, ...fields } = full;
    out.fullOutput = trimStep({ ...fields, steps: undefined });
    out.fullOutput.steps = full.steps.map(trimStep);
  } catch (err) {
    out.fullOutputError = err;
  }
  // The getters, read on their own (they resolve from the same run).
  for (const name of ['text', 'reasoningText', 'finishReason', 'toolCalls', 'toolResults', 'usage', 'totalUsage', 'object', 'steps']) {
    try {
      out[name] = name === 'steps' ? (await stream.steps).map(trimStep) : await stream[name];
    } catch (err) {
      out[`${name}Error`] = err;
    }
  }
  out.error = stream.error;
  out.status = stream.status;
  return out;
}

async function record(name, outDir) {
  const scenario = SCENARIOS[name];
  const replay = await startReplay({ dir: FIXTURES, framing: scenario.framing, responses: scenario.responses });
  try {
    const tools = typeof scenario.tools === 'function' ? scenario.tools(replay.url) : scenario.tools ?? {};
    const agent = new Agent({
      id: name, name, instructions: 'You are a helpful assistant.', model: scenario.model(replay.url), tools,
    });
    const stream = await agent.stream(scenario.prompt, {
      maxSteps: scenario.maxSteps ?? 1,
      ...(scenario.providerOptions && { providerOptions: scenario.providerOptions }),
      modelSettings: { maxRetries: 0, ...scenario.modelSettings }, // a replayed error must not be retried
    });
    const lines = [];
    for await (const chunk of stream.fullStream) lines.push(JSON.stringify(jsonSafe(chunk)));
    writeFileSync(join(outDir, `${name}.jsonl`), lines.join('\n') + '\n');
    const result = jsonSafe(await mastraResult(stream));
    writeFileSync(join(outDir, `${name}.mastra.json`), JSON.stringify(result, null, 1) + '\n');
    if (replay.requests.length !== scenario.responses.length) {
      throw new Error(`${name}: ${replay.requests.length} model requests, ${scenario.responses.length} responses recorded`);
    }
    console.log(`${name}: ${lines.length} chunks, ${replay.requests.length} model requests`);
  } finally {
    await replay.close();
  }
}

const [outDir, ...names] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node server/providers/record.mjs OUTDIR [scenario...]');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
for (const name of names.length ? names : Object.keys(SCENARIOS)) {
  if (!(name in SCENARIOS)) throw new Error(`unknown scenario ${name}`);
  await record(name, outDir);
}
