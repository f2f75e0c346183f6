// Public API entry: `zotbox check`, the decision the gate would make for one tool
// call of an agent. Re-exports only; the bash gate itself loads only for a bash check.
export { CHECK_TOOLS, checkPermission, type CheckOptions, type CheckResult, type CheckTool } from '../host/run/check-permission.js';
