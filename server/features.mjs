// Agents for what the model saw, traces, memory and evaluation (issues 19 and 20):
// - `dynamic`: instructions and model are functions of the request context;
// - `workingMemory`: keeps facts about the user in Mastra's working memory (updateWorkingMemory);
// - `observer`: observational memory, observed by a scripted observer model;
// - `weatherMemory`: memory and a tool call in one run (model, memory and tool spans in one trace).
import { randomUUID } from 'node:crypto';
import { Agent } from '@mastra/core/agent';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { chunk, model, sleep, splitN, text, toolCall } from './models.mjs';
import { answerLength, completeness } from './scorers.mjs';
import { getWeather } from './tools.mjs';
import { cityIn } from './weather.mjs';

/** The system prompt the model was given (all system messages). */
const systemText = ctx =>
  ctx.prompt
    .filter(m => m.role === 'system')
    .map(m => m.content)
    .join('\n\n');

// ---- dynamic: instructions and model from requestContext ----------------------------------

const STYLES = {
  // how each style shapes the answer; any other style is quoted as is
  uppercase: s => s.toUpperCase(),
  pirate: s => `Arr! ${s} Yo-ho!`,
  brief: s => s.split(/(?<=\.)\s/)[0],
};

/** Answers from its effective instructions ("Answer in <style>."), so that prompts differ in output;
 * "Pace <N> ms." in them waits N ms after each text delta (an experiment's grid seen while it streams). */
function dynamicScript(detail) {
  return async function* (ctx) {
    const system = systemText(ctx);
    const style = system.match(/Answer in ([^.\n]+)/)?.[1]?.trim() ?? 'plain words';
    const sentences = [
      `You asked: "${ctx.userText}".`,
      `My instructions say: "${system.split('\n')[0]}".`,
      `This is the ${detail} model.`,
    ];
    const answer = (detail === 'brief' ? sentences.slice(0, 2) : sentences).join(' ');
    const pace = Number(system.match(/\bPace (\d+) ms\b/)?.[1] ?? 0);
    for (const part of text('dynamic-0', chunk((STYLES[style] ?? (s => `(${style}) ${s}`))(answer), 12))) {
      yield part;
      if (pace > 0 && part.type === 'text-delta') await sleep(pace, ctx.signal);
    }
  };
}

const dynamicModels = {
  'mock-dynamic-brief': model('mock-dynamic-brief', dynamicScript('brief')),
  'mock-dynamic-detailed': model('mock-dynamic-detailed', dynamicScript('detailed')),
};

const dynamic = new Agent({
  id: 'dynamic',
  name: 'dynamic',
  description:
    'Instructions "Answer in <style>." from requestContext.style (plain words unless set); model from ' +
    'requestContext.model: mock-dynamic-brief (default) or mock-dynamic-detailed. Scored by answer-length.',
  instructions: ({ requestContext }) => `Answer in ${requestContext?.get('style') ?? 'plain words'}.`,
  model: ({ requestContext }) => dynamicModels[requestContext?.get('model')] ?? dynamicModels['mock-dynamic-brief'],
  scorers: {
    answerLength: { scorer: answerLength, sampling: { type: 'ratio', rate: 1 } },
    completeness: { scorer: completeness, sampling: { type: 'ratio', rate: 1 } },
  },
});

// ---- memory --------------------------------------------------------------------------------

// Threads and working memory of these agents: LibSQL in memory (nothing left behind).
const storage = new LibSQLStore({ id: 'feature-memory', url: ':memory:' });

const WM_FIELDS = [
  ['Name', /\bmy name is ([A-Z][\w-]*)/i],
  ['Location', /\bI live in ([A-Z][\w -]*?)(?:[.,!]|$)/i],
  ['Likes', /\bI like ([^.,!]+)/i],
];
const WM_TEMPLATE = `# User\n${WM_FIELDS.map(([f]) => `- ${f}:`).join('\n')}\n`;

/** The working memory Mastra put in the system prompt. */
const workingMemoryIn = ctx => systemText(ctx).match(/<working_memory_data>\s*([\s\S]*?)\s*<\/working_memory_data>/)?.[1];

/** Working memory with the facts the user states filled in ("my name is", "I live in", "I like"). */
function updatedMemory(current, said) {
  let memory = current?.includes('# User') ? current : WM_TEMPLATE.trim();
  for (const [field, pattern] of WM_FIELDS) {
    const value = said.match(pattern)?.[1]?.trim();
    if (value) memory = memory.replace(new RegExp(`^- ${field}:.*$`, 'm'), `- ${field}: ${value}`);
  }
  return memory;
}

const known = memory =>
  (memory ?? '')
    .split('\n')
    .filter(l => /^- \w+: \S/.test(l))
    .map(l => l.slice(2))
    .join('; ') || 'nothing yet';

/** Calls updateWorkingMemory when the user states a fact; then says what it knows. */
function* workingMemoryScript(ctx) {
  const current = workingMemoryIn(ctx);
  const updated = ctx.result('updateWorkingMemory');
  if (!updated) {
    const memory = updatedMemory(current, ctx.userText);
    if (memory.trim() !== (current ?? '').trim() && memory !== WM_TEMPLATE.trim()) {
      yield* toolCall(`call_wm_${randomUUID().slice(0, 8)}`, 'updateWorkingMemory', { memory }, 3);
      return;
    }
  }
  const memory = updated ? updatedMemory(current, ctx.userText) : current;
  yield* text('wm-final', chunk(`${updated ? 'Noted. ' : ''}What I know about you: ${known(memory)}.`, 12));
}

const workingMemory = new Agent({
  id: 'workingMemory',
  name: 'workingMemory',
  description:
    'Working memory (resource scope, a "# User" template): "my name is X", "I live in Y", "I like Z" ' +
    'are saved with updateWorkingMemory; every answer says what it knows',
  instructions: 'You remember facts about the user in your working memory.',
  model: model('mock-workingMemory', workingMemoryScript),
  memory: new Memory({
    storage,
    options: { lastMessages: 20, workingMemory: { enabled: true, template: WM_TEMPLATE } },
  }),
});

/** The text of a message, one line per part. */
const messageText = m => (typeof m.content === 'string' ? m.content : m.content.map(p => p.text ?? '').join('\n'));

/** The observer's observations: one line per user message in the history it is asked to observe
 * (its last message: "User (14:30): text" lines, one per message part). */
function* observerModelScript(ctx) {
  const history = messageText(ctx.prompt.at(-1) ?? { content: '' });
  const said = [...history.matchAll(/^User(?: \([^)]*\))?: (.+)$/gm)].map(m => m[1].trim());
  const lines = said.length ? said.map(s => `* 🔴 (00:00) User said: ${s.slice(0, 200)}`) : ['* 🟢 (00:00) Nothing new from the user'];
  const output =
    `<observations>\nDate: Jan 1, 2025\n${lines.join('\n')}\n</observations>\n\n` +
    '<current-task>\n- Primary: chatting with the user\n</current-task>\n\n' +
    '<suggested-response>\nAnswer the latest message.\n</suggested-response>';
  yield* text('observer-0', chunk(output, 40));
}

/** Says how many messages it sees and whether observations are in its system prompt. */
function* observerChatScript(ctx) {
  const system = systemText(ctx);
  const observed = [...system.matchAll(/User said: ([^\n]+)/g)].map(m => m[1]);
  const seen = ctx.prompt.filter(m => m.role !== 'system').length;
  const note = observed.length ? `I have observed: ${observed.join(' | ')}.` : 'I have observed nothing yet.';
  yield* text('om-0', chunk(`You said "${ctx.userText}". I see ${seen} messages. ${note}`, 12));
}

const observer = new Agent({
  id: 'observer',
  name: 'observer',
  description:
    'Observational memory (thread scope) whose observer is a scripted model: a few short turns ' +
    'pass its 60-token threshold, the thread is observed and the observations join the system prompt',
  instructions: 'You chat; your observational memory keeps the conversation short.',
  model: model('mock-observer-chat', observerChatScript),
  memory: new Memory({
    storage,
    options: {
      lastMessages: 20,
      observationalMemory: {
        model: model('mock-observer', observerModelScript),
        scope: 'thread',
        observation: { messageTokens: 60, bufferTokens: false },
        reflection: { observationTokens: 100_000 },
      },
    },
  }),
});

/** Looks up the weather (unique call ids: a thread must not hold two calls with one id), then
 * answers, naming the cities asked about earlier in the thread. */
function* weatherMemoryScript(ctx) {
  const result = ctx.result('getWeather');
  if (!result) {
    const city = cityIn(ctx.userText);
    yield* toolCall(`call_weather_${randomUUID().slice(0, 8)}`, 'getWeather', { city }, 3);
    return;
  }
  const w = result.value;
  const earlier = ctx.prompt.filter(m => m.role === 'user').length - 1;
  const line = `${w.city}: ${w.temperatureC} °C, ${w.conditions}. Earlier questions in this thread: ${earlier}.`;
  yield* text('wm-weather', splitN(line, 6));
}

const weatherMemory = new Agent({
  id: 'weatherMemory',
  name: 'weatherMemory',
  description: 'Memory (LibSQL) and getWeather: one run has model, memory and tool spans in its trace',
  instructions: 'You look up the weather with getWeather and remember the conversation.',
  model: model('mock-weatherMemory', weatherMemoryScript),
  tools: { getWeather },
  memory: new Memory({ storage, options: { lastMessages: 20 } }),
});

export const featureAgents = { dynamic, workingMemory, observer, weatherMemory };
