// `zotbox doctor`: prints each check (✓ or ✘), and for a failed one its cause and
// the fix to paste. Exit 0 when every check passes, 1 otherwise.
// `--print-apparmor` prints the AppArmor profile; `--fix-apparmor` installs it (root).
import { APPARMOR_PROFILE, APPARMOR_PROFILE_PATH, installAppArmorProfile, limitFacts, requireRootForAppArmor, runDoctor, sandboxFacts, type DoctorReport } from '../api/doctor.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';

function text(report: DoctorReport): string {
  const lines = report.checks.flatMap((check) => [
    `${check.ok ? '✓' : '✘'} ${check.name}: ${field(check.detail)}`,
    ...(check.cause === undefined ? [] : [`  cause: ${check.cause}`]),
    ...(check.fix === undefined ? [] : [`  fix: ${field(check.fix)}`]),
  ]);
  lines.push(report.ok ? 'zotbox can run agents here, commands confined.' : 'Fix what is marked ✘, then run zotbox doctor again.');
  return `${lines.join('\n')}\n`;
}

export const runDoctorCommand: CommandHandler = async (parsed, io: CliIo) => {
  const { values } = parsed;
  if (values['print-apparmor'] === true) {
    writeTerminalText(io.stdout, APPARMOR_PROFILE);
    return 0;
  }
  if (values['fix-apparmor'] === true) {
    requireRootForAppArmor();
    writeTerminalText(io.stdout, `writing ${APPARMOR_PROFILE_PATH}:\n${APPARMOR_PROFILE}and loading it with apparmor_parser -r ${APPARMOR_PROFILE_PATH}\n`);
    installAppArmorProfile();
    writeTerminalText(io.stdout, `done: /usr/bin/bwrap may now create user namespaces.\n`);
  }
  const report = runDoctor(sandboxFacts(undefined, io.env), process.version, limitFacts());
  if (values['json'] === true) {
    writeTerminalText(
      io.stdout,
      `${JSON.stringify({ ok: report.ok, checks: report.checks.map((check) => ({ name: check.name, ok: check.ok, detail: check.detail, cause: check.cause ?? null, fix: check.fix ?? null })) }, null, 2)}\n`,
    );
  } else {
    writeTerminalText(io.stdout, text(report));
  }
  return report.ok ? 0 : 1;
};
