// Crafts the chat-completions fixtures the AI SDK does not have: a run whose steps call
// tools with OpenAI-compatible ids (`call_0` in every step), as vLLM/Ollama-style servers
// send them. Every chunk keeps the envelope of a real recorded chunk of
// `openai-text.chunks.txt` (id, created, model, service_tier, system_fingerprint, obfuscation);
// only `choices[0].delta`, `finish_reason` and `usage` change. Tool-call deltas have the shape
// of OpenAI's own streamed tool calls (first delta: index, id, type, name, empty arguments;
// then argument fragments by index).
// Run: node server/providers/craft.mjs   (rewrites fixtures/router-openai-tools.*.chunks.txt)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const real = readFileSync(join(dir, 'openai-text.chunks.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const first = real[0];
const lastUsage = real.at(-1);

const chunk = (delta, finish = null) => ({ ...first, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const usage = (prompt, completion) => ({
  ...lastUsage,
  usage: { ...lastUsage.usage, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});
const text = (parts) => parts.map((content) => chunk({ content }));
const call = (index, id, name, argParts) => [
  chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] }),
  ...argParts.map((a) => chunk({ tool_calls: [{ index, function: { arguments: a } }] })),
];

const steps = [
  // step 1: a preface, one call `call_0`
  [chunk({ role: 'assistant', content: '', refusal: null }), ...text(['Let me ', 'check Paris.']),
    ...call(0, 'call_0', 'getWeather', ['{"city":', '"Paris"}']), chunk({}, 'tool_calls'), usage(60, 18)],
  // step 2: again `call_0` (ids restart per response), plus `call_1`: two calls in parallel
  [chunk({ role: 'assistant', content: '', refusal: null }), ...text(['Now Berlin ', 'and Rome.']),
    ...call(0, 'call_0', 'getWeather', ['{"city":', '"Berlin"}']),
    ...call(1, 'call_1', 'getWeather', ['{"city":', '"Rome"}']), chunk({}, 'tool_calls'), usage(110, 30)],
  // step 3: the answer
  [chunk({ role: 'assistant', content: '', refusal: null }),
    ...text(['Paris is 18°C and sunny, ', 'Berlin 12°C and cloudy, ', 'Rome 24°C and clear.']), chunk({}, 'stop'), usage(170, 22)],
];
steps.forEach((lines, i) => {
  writeFileSync(join(dir, `router-openai-tools.${i + 1}.chunks.txt`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
});
