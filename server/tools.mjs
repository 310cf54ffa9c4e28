// Tools used by the agents (createTool with zod schemas) and the guardrail processors.
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { sleep } from './models.mjs';
import { forecastFor, weatherFor } from './weather.mjs';

export const getWeather = createTool({
  id: 'getWeather',
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), temperatureC: z.number(), conditions: z.string(), humidity: z.number() }),
  execute: async ({ city }) => weatherFor(city),
});

export const getStockPrice = createTool({
  id: 'getStockPrice',
  description: 'Latest stock price for a ticker symbol',
  inputSchema: z.object({ symbol: z.string() }),
  execute: async ({ symbol }) => {
    throw new Error(`Stock service unavailable for ${symbol}: upstream timeout after 5000ms`);
  },
});

export const getForecast = createTool({
  id: 'getForecast',
  description: 'Multi-day forecast for a city; streams progress while it works',
  inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(7) }),
  execute: async ({ city, days }, context) => {
    for (let day = 1; day <= days; day++) {
      await context?.writer?.write({ type: 'forecast-progress', city, day, of: days });
    }
    return forecastFor(city, days);
  },
});

export const deleteRecord = createTool({
  id: 'deleteRecord',
  description: 'Permanently delete a record by id',
  inputSchema: z.object({ id: z.string() }),
  outputSchema: z.object({ deleted: z.boolean(), id: z.string() }),
  requireApproval: true,
  execute: async ({ id }) => ({ deleted: true, id }),
});

export const askUser = createTool({
  id: 'askUser',
  description: 'Ask the user a question and wait for the answer',
  inputSchema: z.object({ question: z.string() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ answer: z.string() }),
  outputSchema: z.object({ answer: z.string() }),
  execute: async ({ question }, context) => {
    const { resumeData, suspend } = context?.agent ?? {};
    if (!resumeData) return suspend({ question });
    return { answer: resumeData.answer };
  },
});

export const researchTopic = createTool({
  id: 'researchTopic',
  description: 'Long-running research job; runs as a background task',
  inputSchema: z.object({ topic: z.string() }),
  outputSchema: z.object({ topic: z.string(), findings: z.array(z.string()) }),
  background: { enabled: true, defaultDisposition: 'deferred' },
  execute: async ({ topic }, context) => {
    for (let step = 1; step <= 3; step++) {
      await sleep(20, context?.abortSignal);
      await context?.writer?.write({ type: 'research-progress', topic, step, of: 3 });
    }
    return { topic, findings: [1, 2, 3].map(i => `${topic} finding ${i}`) };
  },
});

// ---- guardrails (processors) ------------------------------------------------------------

const messageText = message =>
  (message.content?.parts ?? [])
    .filter(p => p.type === 'text')
    .map(p => p.text)
    .join('');

/** Input guardrail: blocks prompts asking for passwords (a `tripwire` chunk, nothing else). */
export const blockPasswords = {
  id: 'block-passwords',
  processInput({ messages, abort }) {
    if (messages.some(m => m.role === 'user' && /password/i.test(messageText(m)))) {
      abort('Input blocked: requests for passwords are not allowed', { metadata: { rule: 'no-passwords', severity: 'high' } });
    }
    return messages;
  },
};

/** Output guardrail: ends the stream with `tripwire` once the answer reveals a secret. */
export const blockSecrets = {
  id: 'block-secrets',
  processOutputStream({ part, state, abort }) {
    if (part.type === 'text-delta') {
      state.text = (state.text ?? '') + part.payload.text;
      if (state.text.includes('SECRET')) {
        abort('Output blocked: response contained a secret', { metadata: { rule: 'no-secrets' } });
      }
    }
    return part;
  },
};
