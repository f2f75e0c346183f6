// What a pool process runs (process-main.ts): the agent task, served over its pipes.
import { serveProcess } from './process-main.js';
import runAgentTask from './pool-task.js';

serveProcess(runAgentTask);
