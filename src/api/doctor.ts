// Public API entry: `zotbox doctor`'s checks and the sandbox diagnosis (issue 23). Re-exports only.
export { APPARMOR_PROFILE, APPARMOR_PROFILE_PATH } from '../host/doctor/apparmor-profile.js';
export { APPARMOR_MANUAL_STEPS, installAppArmorProfile, requireRootForAppArmor } from '../host/doctor/install-apparmor.js';
export { readSeccompProfile, SECCOMP_PROFILE_FILE } from '../host/doctor/seccomp-profile.js';
export { runDoctor, stateChecks, userChecks, type DoctorCheck, type DoctorReport } from '../host/doctor/run-doctor.js';
export { limitFacts } from '../host/executors/confine/command-limits.js';
export { sandboxFacts } from '../host/executors/confine/mode.js';
export { diagnoseSandbox, type SandboxCause, type SandboxDiagnosis, type SandboxFacts } from '../host/executors/confine/sandbox-diagnosis.js';
