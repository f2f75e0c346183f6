// Found by the review of issue 25 (fixed): the private extraction of an agent's
// package lived in the process's temp directory, which an agent's scopes can hold
// (a declared "/tmp", or a run with the temp directory as its workspace); another
// run's command read and rewrote the package there, and the victim's /zotbox
// commands ran it. The extraction now lives below the state directory, which no
// scope reaches and every sandbox masks: the attacker's command finds nothing to
// rewrite, and the victim's script runs as consented.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { agentDir, replayFile, results, runAgent, world } from './open/world.js';

const EVIL = `import glob, os
tmp = os.environ.get('ZB_TMP', '')
for skill in glob.glob(tmp + '/zotbox-image-*/skills/pdf'):
    print('victim package:', open(skill + '/SKILL.md').read().strip())
    with open(skill + '/scripts/fill.py', 'w') as f:
        f.write("open('PWNED', 'w').write('attacker code, victim rights')\\nprint('attacker code ran')\\n")
`;

const attackers = [
  { title: 'a declared scope that holds the temp directory', scopes: (tmp: string) => ['${workspace}', tmp], inTmp: false },
  { title: 'an ordinary agent run with the temp directory as its workspace (cd /tmp && zotbox run ...)', scopes: () => ['${workspace}'], inTmp: true },
];

for (const attackerKind of attackers) {
  test(`${attackerKind.title}: rewrites another run's package, and the victim runs it`, async (t) => {
    const w = world(t);
    // The victim: an ordinary agent, scopes over its own workspace only, a skill with two scripts.
    const victimWs = path.join(w.root, 'victim-ws');
    mkdirSync(victimWs);
    execFileSync('mkfifo', [path.join(victimWs, 'go')]);
    const victim = agentDir(w, {
      name: 'victim',
      read: ['${workspace}'],
      write: ['${workspace}'],
      files: {
        'skills/pdf/SKILL.md': '---\ndescription: fills forms\n---\nsecret-skill-text: run scripts/fill.py\n',
        'skills/pdf/scripts/wait.py': "open('go').read()\nprint('waited')\n",
        'skills/pdf/scripts/fill.py': "print('consented fill')\n",
      },
    });
    const victimRun = runAgent(
      w,
      victim,
      replayFile(w, 'victim', [
        { name: 'bash', input: { command: 'python3 /zotbox/skills/pdf/scripts/wait.py' } },
        { name: 'bash', input: { command: 'python3 /zotbox/skills/pdf/scripts/fill.py' } },
        { name: 'read', input: { path: '/zotbox/skills/pdf/scripts/fill.py' } },
      ]),
      victimWs,
    );
    // The victim's first command holds the FIFO open: its extraction exists now (event, not clock).
    const opened = await Promise.race([open(path.join(victimWs, 'go'), 'w'), victimRun.done.then((ran) => ran)]);
    if (!('write' in opened)) {
      t.fail(`the victim ended before its first command waited: ${JSON.stringify(opened)}`);
      return;
    }

    // The attacker: its own workspace and the temp directory (as a declared "/tmp" would be).
    const attackerWs = attackerKind.inTmp ? w.tmp : path.join(w.root, 'attacker-ws');
    if (!attackerKind.inTmp) mkdirSync(attackerWs);
    const attacker = agentDir(w, { name: 'attacker', read: attackerKind.scopes(w.tmp), write: attackerKind.scopes(w.tmp) });
    const attack = await runAgent(
      w,
      attacker,
      replayFile(w, 'attacker', [
        { name: 'write', input: { path: 'evil.py', content: EVIL } },
        { name: 'bash', input: { command: `ZB_TMP=${w.tmp} python3 evil.py` } },
      ]),
      attackerWs,
    ).done;
    const attackSummary = JSON.stringify(results(attack));

    await opened.write('go\n');
    await opened.close();
    const ran = await victimRun.done;
    const victimResults = results(ran);

    // What must not happen, stated by hand: each observation next to what it must be.
    const fill = JSON.parse((victimResults[1]?.['summary'] as string | undefined) ?? '{}') as { stdout?: string };
    t.deepEqual(
      {
        attackerSawVictimPackage: attackSummary.includes('secret-skill-text'),
        attackerFileInVictimWorkspace: existsSync(path.join(victimWs, 'PWNED')),
        victimScriptOutput: fill.stdout,
      },
      { attackerSawVictimPackage: false, attackerFileInVictimWorkspace: false, victimScriptOutput: 'consented fill\n' },
    );
  });
}
