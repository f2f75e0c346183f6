// Public API entry: OS confinement modes (--confine) and bubblewrap detection.
// Re-exports only.
export { describeConfinement, detectBubblewrap, parseConfineMode, resolveConfinement, type ConfineMode, type Confinement } from '../host/executors/confine/mode.js';
export { resolveProgramDirectories, searchPathWith, type ProgramDirectory } from '../host/executors/program-directories.js';
