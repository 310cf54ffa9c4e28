// A scripted language model implementing the AI SDK LanguageModelV2 interface.
//
// Each ScriptedModel is given a `script`: an (async) generator function that receives a
// PromptContext and yields LanguageModelV2StreamParts for ONE model call (one agent step).
// The script decides what to do by looking at the prompt (e.g. "is there already a tool
// result? then answer in text, else call the tool"). `stream-start`, `response-metadata`
// and, if the script yields none, a `finish` part are added automatically.
// No network, no API key.
//
// What it reports as the provider request (`request.body`, shown in `step-start.payload.request`
// when the server does not redact it) is the body OpenAI's chat-completions API would be sent for
// this call: the AI SDK's own OpenAI chat model builds it from the prompt, tools and settings.
import { OpenAIChatLanguageModel } from '@ai-sdk/openai/internal';

export const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(abortError(signal));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function abortError(signal) {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  const err = new Error(typeof reason === 'string' ? reason : 'The operation was aborted.');
  err.name = 'AbortError';
  return err;
}

/** Split `str` into pieces of about `size` characters. */
export function chunk(str, size) {
  const out = [];
  for (let i = 0; i < str.length; i += size) out.push(str.slice(i, i + size));
  return out;
}

/** Split `str` into exactly `n` pieces (fewer if the string is shorter). */
export function splitN(str, n) {
  const chars = Array.from(str); // keep emoji / surrogate pairs intact
  const count = Math.max(1, Math.min(n, chars.length));
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push(chars.slice(Math.floor((i * chars.length) / count), Math.floor(((i + 1) * chars.length) / count)).join(''));
  }
  return out;
}

// ---- part builders (use with `yield*`) ----------------------------------------------------

export function* text(id, pieces) {
  yield { type: 'text-start', id };
  for (const delta of pieces) yield { type: 'text-delta', id, delta };
  yield { type: 'text-end', id };
}

export function* reasoning(id, pieces) {
  yield { type: 'reasoning-start', id };
  for (const delta of pieces) yield { type: 'reasoning-delta', id, delta };
  yield { type: 'reasoning-end', id };
}

/** A tool call whose JSON arguments are streamed in `n` tool-input deltas. */
export function* toolCall(toolCallId, toolName, args, n = 4) {
  const json = JSON.stringify(args);
  yield { type: 'tool-input-start', id: toolCallId, toolName };
  for (const delta of splitN(json, n)) yield { type: 'tool-input-delta', id: toolCallId, delta };
  yield { type: 'tool-input-end', id: toolCallId };
  yield { type: 'tool-call', toolCallId, toolName, input: json };
}

// ---- what the model "reads" -------------------------------------------------------------

function partText(content) {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter(p => p.type === 'text')
    .map(p => p.text)
    .join('');
}

function outputValue(output) {
  // LanguageModelV2ToolResultOutput: {type: 'json'|'text'|'error-json'|'error-text'|'content', value}
  if (!output || typeof output !== 'object') return output;
  return 'value' in output ? output.value : output;
}

export class PromptContext {
  constructor(options) {
    this.options = options;
    this.prompt = options.prompt ?? [];
    this.signal = options.abortSignal;
  }

  get lastUserIndex() {
    for (let i = this.prompt.length - 1; i >= 0; i--) if (this.prompt[i].role === 'user') return i;
    return -1;
  }

  /** Text of the latest user message. */
  get userText() {
    const i = this.lastUserIndex;
    return i < 0 ? '' : partText(this.prompt[i].content);
  }

  /** Tool results given to the model since the latest user message. */
  get toolResults() {
    return this.prompt
      .slice(this.lastUserIndex + 1)
      .filter(m => m.role === 'tool')
      .flatMap(m => m.content)
      .filter(p => p.type === 'tool-result')
      .map(p => ({
        toolCallId: p.toolCallId,
        toolName: p.toolName,
        isError: String(p.output?.type ?? '').startsWith('error'),
        value: outputValue(p.output),
      }));
  }

  result(toolName) {
    return this.toolResults.find(r => r.toolName === toolName);
  }

  /** A `name=123` setting in the user prompt, e.g. `deltas=200 delay=10`. */
  intParam(name, fallback) {
    const m = this.userText.match(new RegExp(`\\b${name}\\s*=\\s*(\\d+)`, 'i'));
    return m ? Number(m[1]) : fallback;
  }

  /** Estimated prompt size in tokens (~4 chars a token). */
  get inputTokens() {
    const chars = this.prompt.reduce((n, m) => n + JSON.stringify(m.content ?? '').length, 0);
    return Math.max(1, Math.round(chars / 4));
  }
}

// ---- the request a provider would be sent ------------------------------------------------

/** A V2 prompt file part as the V4 OpenAI provider reads it (`data: {type: 'url'|'data', ...}`). */
function v4File(part) {
  const { data } = part;
  const url = data instanceof URL ? data : typeof data === 'string' && /^https?:\/\//.test(data) ? new URL(data) : null;
  return { ...part, data: url ? { type: 'url', url } : { type: 'data', data } };
}

const v4Prompt = prompt =>
  prompt.map(m =>
    Array.isArray(m.content) ? { ...m, content: m.content.map(p => (p.type === 'file' ? v4File(p) : p)) } : m,
  );

/** JSON-safe copy (bytes as base64, URLs as strings) of what the model was given. */
const jsonSafe = value =>
  JSON.parse(
    JSON.stringify(value, function (key, v) {
      const raw = this[key];
      return raw instanceof Uint8Array ? Buffer.from(raw).toString('base64') : v;
    }) ?? 'null',
  );

/** The chat-completions body for this call. A prompt OpenAI's chat API cannot take (a text/plain
 * file, say) is reported as given: the AI SDK's prompt, its tools and settings, and why. */
async function providerRequestBody(modelId, options) {
  const { abortSignal, headers, includeRawChunks, ...call } = options;
  const openai = new OpenAIChatLanguageModel(modelId, { provider: 'openai.chat', url: () => '', headers: () => ({}) });
  try {
    // getArgs is the provider's own body builder (what doStream posts), used without a network call.
    const { args } = await openai.getArgs({ ...call, prompt: v4Prompt(call.prompt ?? []) });
    return jsonSafe(args);
  } catch (err) {
    return jsonSafe({ model: modelId, ...call, unconverted: String(err?.message ?? err) });
  }
}

// ---- the model ----------------------------------------------------------------------------

const FIXED_TIMESTAMP = new Date('2025-01-01T00:00:00.000Z');

export class ScriptedModel {
  specificationVersion = 'v2';
  provider = 'mock-provider';
  supportedUrls = {};

  constructor(modelId, script) {
    this.modelId = modelId;
    this.script = script;
    this.calls = 0;
  }

  async doStream(options) {
    const ctx = new PromptContext(options);
    const body = await providerRequestBody(this.modelId, options);
    const signal = options.abortSignal;
    const callIndex = this.calls++;
    const generator = this.script(ctx);
    const iterator = generator[Symbol.asyncIterator]?.() ?? generator[Symbol.iterator]();
    const modelId = this.modelId;
    let finished = false; // the script yielded `finish` (or `error`)
    let sawToolCall = false;
    let sawReasoning = false;
    let outChars = 0;
    let reasoningChars = 0;
    let parts = 0;
    let stopped = false;

    // Ends the script early (client disconnected / run aborted) and logs it to stderr.
    const stop = async why => {
      if (stopped) return;
      stopped = true;
      console.error(`[scripted-model] ${modelId}: stream ${why} after ${parts} parts`);
      await iterator.return?.();
    };

    const usageOf = () => {
      const outputTokens = Math.max(1, Math.round(outChars / 4));
      const reasoningTokens = Math.round(reasoningChars / 4);
      return {
        inputTokens: ctx.inputTokens,
        outputTokens: outputTokens + reasoningTokens,
        totalTokens: ctx.inputTokens + outputTokens + reasoningTokens,
        ...(sawReasoning ? { reasoningTokens } : {}),
      };
    };

    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({
          type: 'response-metadata',
          id: `resp-${modelId}-${callIndex}`,
          timestamp: FIXED_TIMESTAMP,
          modelId,
        });
      },
      async pull(controller) {
        try {
          if (signal?.aborted) throw abortError(signal);
          const { value, done } = await iterator.next();
          if (done) {
            if (!finished) {
              controller.enqueue({ type: 'finish', finishReason: sawToolCall ? 'tool-calls' : 'stop', usage: usageOf() });
            }
            controller.close();
            return;
          }
          if (value.type === 'text-delta' || value.type === 'tool-input-delta') outChars += value.delta.length;
          if (value.type === 'reasoning-delta') reasoningChars += value.delta.length;
          if (value.type === 'reasoning-start') sawReasoning = true;
          if (value.type === 'tool-call') sawToolCall = true;
          if (value.type === 'error') finished = true; // a failed stream ends without `finish`
          if (value.type === 'finish') {
            finished = true;
            value.usage ??= usageOf();
          }
          parts++;
          controller.enqueue(value);
        } catch (err) {
          await stop(signal?.aborted ? 'aborted' : `failed (${err?.message})`);
          controller.error(err);
        }
      },
      async cancel() {
        await stop('cancelled');
      },
    });

    return {
      stream,
      request: { body },
      response: { headers: { 'x-mock-model': modelId } },
    };
  }

  async doGenerate(options) {
    const { stream, request, response } = await this.doStream(options);
    const content = [];
    let finishReason = 'stop';
    let usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    let meta = {};
    const texts = new Map();
    for await (const part of stream) {
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start':
          texts.set(part.id, { type: part.type === 'text-start' ? 'text' : 'reasoning', text: '' });
          break;
        case 'text-delta':
        case 'reasoning-delta':
          texts.get(part.id).text += part.delta;
          break;
        case 'text-end':
        case 'reasoning-end':
          content.push(texts.get(part.id));
          break;
        case 'tool-call':
        case 'source':
        case 'file':
          content.push(part);
          break;
        case 'response-metadata':
          meta = { id: part.id, timestamp: part.timestamp, modelId: part.modelId };
          break;
        case 'finish':
          finishReason = part.finishReason;
          usage = part.usage;
          break;
        case 'error':
          throw part.error;
      }
    }
    return { content, finishReason, usage, warnings: [], request, response: { ...meta, ...response } };
  }
}

/** Shorthand: `model('mock-weather', function* (ctx) { ... })`. */
export const model = (modelId, script) => new ScriptedModel(modelId, script);
