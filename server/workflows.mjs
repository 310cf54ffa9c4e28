// Workflows: `weatherReport` (a step streams the `reporter` agent) and `approvalFlow`
// (a step suspends until resumed with {approved}).
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';
import { forecastFor } from './weather.mjs';

const forecastSchema = z.object({
  city: z.string(),
  forecast: z.array(z.object({ day: z.number(), highC: z.number(), lowC: z.number(), conditions: z.string() })),
});

const fetchForecast = createStep({
  id: 'fetch-forecast',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: forecastSchema,
  execute: async ({ inputData, writer }) => {
    await writer.write({ type: 'forecast-progress', city: inputData.city, days: 3 });
    return forecastFor(inputData.city, 3);
  },
});

const writeReport = createStep({
  id: 'write-report',
  inputSchema: forecastSchema,
  outputSchema: z.object({ city: z.string(), report: z.string() }),
  execute: async ({ inputData, mastra, writer, abortSignal }) => {
    const reporter = mastra.getAgent('reporter');
    const stream = await reporter.stream(
      `Write a one-line weather report for ${inputData.city}.\n${JSON.stringify(inputData)}`,
      { abortSignal },
    );
    await stream.fullStream.pipeTo(writer);
    return { city: inputData.city, report: await stream.text };
  },
});

export const weatherReport = createWorkflow({
  id: 'weatherReport',
  description: 'Fetches a 3-day forecast for a city and writes a short weather report.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), report: z.string() }),
})
  .then(fetchForecast)
  .then(writeReport)
  .commit();

const request = createStep({
  id: 'request',
  inputSchema: z.object({ item: z.string() }),
  outputSchema: z.object({ item: z.string(), approved: z.boolean() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ approved: z.boolean() }),
  execute: async ({ inputData, resumeData, suspend }) => {
    if (resumeData === undefined) return suspend({ question: `Approve "${inputData.item}"?` });
    return { item: inputData.item, approved: resumeData.approved };
  },
});

const finish = createStep({
  id: 'finish',
  inputSchema: z.object({ item: z.string(), approved: z.boolean() }),
  outputSchema: z.object({ item: z.string(), approved: z.boolean(), message: z.string() }),
  execute: async ({ inputData: { item, approved } }) => ({
    item,
    approved,
    message: approved ? `"${item}" was approved.` : `"${item}" was rejected.`,
  }),
});

export const approvalFlow = createWorkflow({
  id: 'approvalFlow',
  description: 'Asks a human to approve an item, then reports the decision.',
  inputSchema: z.object({ item: z.string() }),
  outputSchema: z.object({ item: z.string(), approved: z.boolean(), message: z.string() }),
})
  .then(request)
  .then(finish)
  .commit();

// A long step that reports progress every `delayMs`, stopping when the run is cancelled: the client's
// Stop must cancel the run on the server (closing a workflow's stream does not stop it).
const countSlowly = createStep({
  id: 'count-slowly',
  inputSchema: z.object({ steps: z.number().default(40), delayMs: z.number().default(100) }),
  outputSchema: z.object({ counted: z.number() }),
  execute: async ({ inputData: { steps, delayMs }, writer, abortSignal }) => {
    let counted = 0;
    for (; counted < steps && !abortSignal?.aborted; counted++) {
      await writer.write({ type: 'count-progress', counted: counted + 1, of: steps });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    return { counted };
  },
});

export const slowCount = createWorkflow({
  id: 'slowCount',
  description: 'Counts slowly, writing progress; for Stop (cancel) tests.',
  inputSchema: z.object({ steps: z.number().default(40), delayMs: z.number().default(100) }),
  outputSchema: z.object({ counted: z.number() }),
})
  .then(countSlowly)
  .commit();
