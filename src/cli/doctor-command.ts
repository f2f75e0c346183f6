// `zotbox doctor`: prints each check (✓ or ✘), and for a failed one its cause and
// the fix to paste. Exit 0 when every check passes, 1 otherwise.
// `--print-apparmor` prints the AppArmor profile; `--fix-apparmor` installs it (root);
// `--print-seccomp` prints the seccomp profile for containers.
import {
  APPARMOR_PROFILE,
  APPARMOR_PROFILE_PATH,
  installAppArmorProfile,
  limitFacts,
  readSeccompProfile,
  requireRootForAppArmor,
  runDoctor,
  sandboxFacts,
  stateChecks,
  userChecks,
  type DoctorReport,
} from '../api/doctor.js';
import { homedir } from 'node:os';
import { resolveProgramDirectories, searchPathWith } from '../api/confinement.js';
import { resolveStateDirectory } from '../api/state.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { programPathOf } from './program-path-option.js';
import { field, writeTerminalText } from './terminal-output.js';

function text(report: DoctorReport, searchPath: readonly string[]): string {
  const lines = report.checks.flatMap((check) => [
    `${check.ok ? '✓' : '✘'} ${check.name}: ${field(check.detail)}`,
    ...(check.cause === undefined ? [] : [`  cause: ${check.cause}`]),
    ...(check.fix === undefined ? [] : [`  fix: ${field(check.fix)}`]),
  ]);
  lines.push(`search path of commands: ${searchPath.map(field).join(':')}`);
  lines.push(report.ok ? 'zotbox can run agents here, commands confined.' : 'Fix what is marked ✘, then run zotbox doctor again.');
  return `${lines.join('\n')}\n`;
}

export const runDoctorCommand: CommandHandler = async (parsed, io: CliIo) => {
  const { values } = parsed;
  if (values['print-apparmor'] === true) {
    writeTerminalText(io.stdout, APPARMOR_PROFILE);
    return 0;
  }
  if (values['print-seccomp'] === true) {
    writeTerminalText(io.stdout, readSeccompProfile());
    return 0;
  }
  if (values['fix-apparmor'] === true) {
    requireRootForAppArmor();
    writeTerminalText(io.stdout, `writing ${APPARMOR_PROFILE_PATH}:\n${APPARMOR_PROFILE}and loading it with apparmor_parser -r ${APPARMOR_PROFILE_PATH}\n`);
    installAppArmorProfile();
    writeTerminalText(io.stdout, `done: /usr/bin/bwrap may now create user namespaces.\n`);
  }
  const stateDirectory = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  // Checked as for a run (a write scope is checked at run time, where the workspace is known).
  const searchPath = searchPathWith(resolveProgramDirectories(programPathOf(values, io.cwd) ?? [], { homeDirectory: homedir(), stateDirectory }));
  const report = runDoctor(sandboxFacts(undefined, io.env), process.version, limitFacts(), [...stateChecks(stateDirectory, io.env), ...userChecks(process.getuid?.())]);
  if (values['json'] === true) {
    writeTerminalText(
      io.stdout,
      `${JSON.stringify(
        {
          ok: report.ok,
          checks: report.checks.map((check) => ({ name: check.name, ok: check.ok, detail: check.detail, cause: check.cause ?? null, fix: check.fix ?? null })),
          search_path: searchPath,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    writeTerminalText(io.stdout, text(report, searchPath));
  }
  return report.ok ? 0 : 1;
};
