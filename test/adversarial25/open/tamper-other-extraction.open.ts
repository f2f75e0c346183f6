// Finding: the private extraction of an agent's package (issue 25) lives in the
// process's temp directory, and nothing keeps the agents' scopes out of it. An agent
// whose scopes contain that directory (a declared "/tmp", or TMPDIR under a scope)
// reads any other run's package there and rewrites its scripts; the other run's
// commands at /zotbox then run the attacker's code with the victim's rights (here:
// a file in the victim's workspace, which the attacker cannot reach), while the
// read tool still serves the consented bytes.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { agentDir, replayFile, results, runAgent, world } from './world.js';

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
