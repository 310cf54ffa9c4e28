// The one Mastra instance: all agents and workflows, in-memory storage (needed for tool
// approval / suspend-resume snapshots and workflow runs; it also holds traces, scores, datasets
// and experiments), tracing to that storage and the scorers of scorers.mjs.
import { Mastra } from '@mastra/core/mastra';
import { ConsoleLogger } from '@mastra/core/logger';
import { InMemoryStore } from '@mastra/core/storage';
import { MastraStorageExporter, Observability } from '@mastra/observability';
import { agents } from './agents.mjs';
import { featureAgents } from './features.mjs';
import { scorers } from './scorers.mjs';
import { approvalFlow, slowCount, weatherReport } from './workflows.mjs';

export const mastra = new Mastra({
  agents: { ...agents, ...featureAgents },
  scorers,
  workflows: { weatherReport, approvalFlow, slowCount },
  storage: new InMemoryStore({ id: 'mastra-test-server' }),
  // Traces are written to storage in batches: a 0.5 s wait (not 5 s) makes a run's trace readable
  // at /api/observability/traces/:traceId about half a second after it ends.
  observability: new Observability({
    configs: {
      default: {
        serviceName: 'mastra-test-server',
        exporters: [new MastraStorageExporter({ maxBatchWaitMs: 500 })],
      },
    },
  }),
  backgroundTasks: { enabled: true },
  // warn/error go to stderr; stdout only carries the READY line.
  logger: new ConsoleLogger({ name: 'mastra-test-server', level: process.env.MASTRA_LOG_LEVEL ?? 'warn' }),
});
