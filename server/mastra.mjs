// The one Mastra instance: all agents and workflows, in-memory storage (needed for tool
// approval / suspend-resume snapshots and workflow runs).
import { Mastra } from '@mastra/core/mastra';
import { ConsoleLogger } from '@mastra/core/logger';
import { InMemoryStore } from '@mastra/core/storage';
import { agents } from './agents.mjs';
import { approvalFlow, slowCount, weatherReport } from './workflows.mjs';

export const mastra = new Mastra({
  agents,
  workflows: { weatherReport, approvalFlow, slowCount },
  storage: new InMemoryStore({ id: 'mastra-test-server' }),
  backgroundTasks: { enabled: true },
  // warn/error go to stderr; stdout only carries the READY line.
  logger: new ConsoleLogger({ name: 'mastra-test-server', level: process.env.MASTRA_LOG_LEVEL ?? 'warn' }),
});
