// Public API entry: the gate's decision functions (paths, shell lines, scopes),
// pure of any run. Re-exports only; decideShellCommand brings the bash rules and
// argument tables with it.
export { decidePathAccess, type PathDecision, type PathTool } from '../policy/path-decision.js';
export { decideShellCommand, type ExecutionPlan, type PlannedStep, type ShellContext, type ShellDecision } from '../policy/shell-decision.js';
export { parseShellCommand, type ShellAst } from '../policy/shell-parse.js';
export { compileScopes, type CompiledScopes, type ScopeContext } from '../policy/scopes.js';
