// Class: names the C library itself, and sudo, treat as unsafe to pass to a program
// whose input is not trusted, missing from the dangerous set (which takes the same
// classes: HOSTALIASES, RES_OPTIONS, LOCALDOMAIN for name resolution; ZDOTDIR and
// FPATH for zsh; TERMINFO and TERMCAP for the terminal library):
// - RESOLV_HOST_CONF and NIS_PATH are in glibc's UNSECURE_ENVVARS (unsecvars.h),
//   next to HOSTALIASES: glibc reads host.conf from the path RESOLV_HOST_CONF names
//   in every program that resolves a name.
// - TERMPATH (sudo's bad-environment table, next to TERMINFO and TERMCAP): ncurses
//   built with termcap reads terminal descriptions from the files it lists.
// - NULLCMD, READNULLCMD and TMPPREFIX (sudo's table, next to ZDOTDIR): zsh, which
//   the gate runs, runs the program NULLCMD/READNULLCMD names for a redirection with
//   no command, and makes its temporary files at TMPPREFIX.
// Each passes both ways: permissions.env.read and the agent's own assignment.
import test from 'ava';
import { decisions, replay, world } from './open/world.js';

const NAMES = ['RESOLV_HOST_CONF', 'NIS_PATH', 'TERMPATH', 'NULLCMD', 'READNULLCMD', 'TMPPREFIX'];

for (const name of NAMES) {
  test(`permissions.env.read may not name ${name}`, async (t) => {
    const w = world(t);
    const result = await replay(w, [name], { [name]: '/tmp/x' }, ['ls'], ['ls']);
    t.not(result.status, 0, `an agent reading ${name} was loaded and run`);
    t.true(result.stderr.includes('ZB_MANIFEST_ENV_REFUSED'), `the load did not refuse ${name}`);
  });

  test(`an agent may not set ${name} before a command`, async (t) => {
    const w = world(t);
    const result = await replay(w, [], {}, [`${name}=/tmp/x ls`], ['ls']);
    const [decision] = decisions(result);
    t.false(decision?.allowed ?? true, `the gate allowed ${name}=…`);
  });
}
