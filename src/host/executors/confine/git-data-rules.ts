// The closed list of what git writes into a git directory as data (issue 21 §2),
// and the grammars of the files git reads back. Pure, no I/O. A path inside a git
// directory that no rule here names is not data: if a command creates or changes
// it, the aftercare undoes it. Sequencer state (rebase-merge/, rebase-apply/,
// sequencer/) is parsed whole: only plain todo commands with object ids or
// labels, git's built-in merge strategies and closed option sets; an `exec`
// line, a strategy such as "../evil" or a gpg program option never passes.
// rerere's records (rr-cache/, MERGE_RR) are not data: git replays a recorded
// resolution into the worktree, at any path, on the user's next merge that meets
// the same conflict, so what an agent records there is refused (isRerereRecord).

/** How a file's content is judged. `config` files are judged by git-config-rules.ts instead. */
export type GitDataRule =
  | 'opaque' // objects, packs, the index, logs, patches: git reads them as data whatever they hold
  | 'text' // message files: text for the user's editor, never run
  | 'config'
  | 'ref'
  | 'oid'
  | 'oids'
  | 'line'
  | 'empty'
  | 'flag'
  | 'number'
  | 'todo'
  | 'strategy'
  | 'strategy-options'
  | 'author-script'
  | 'sequencer-options'
  | 'fetch-head'
  | 'packed-refs'
  | 'ref-name'
  | 'ref-names'
  | 'rewritten-list'
  | 'fixups'
  | 'update-refs'
  | 'bisect-terms'
  | 'quoted-cr'
  | 'commondir'
  | 'bisect-start';

/** git's built-in merge strategies (git merge -s, git rebase -s); any other name runs a program git-merge-NAME. */
export const BUILTIN_STRATEGIES: readonly string[] = ['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree'];

/** Options of the built-in strategies (-X); those with a value take one of a closed form. */
const STRATEGY_OPTION =
  /^(ours|theirs|subtree|patience|histogram|minimal|ignore-space-change|ignore-all-space|ignore-space-at-eol|ignore-cr-at-eol|renormalize|no-renormalize|no-renames|find-renames|(find-renames|rename-threshold)=\d{1,3}%?|diff-algorithm=(patience|minimal|histogram|myers|default))$/u;

const OID = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/u;
const SHORT_OID = /^[0-9a-f]{4,64}$/u;
/** A ref name as check_refname_format accepts it, read more narrowly: no control or special characters, no "..". */
const REF_NAME = /^refs\/(?:[^\s~^:?*[\\\u0000-\u001f\u007f]+)$/u;
/**
 * A label, or a word git resolves as a revision only when the line runs (reset, merge parents): the characters of a
 * ref name's components, never reflog (`@{`), peeling, search or path syntax (`^ ~ : ?`), `..`, a lone `@`, or a
 * leading dash or dot. Whether such a word resolves safely is decided with the repository (git-sequencer-state.ts).
 */
const LABEL = /^(?![-.])(?!@$)(?!.*(?:\.\.|@\{|\/\/|\/\.|\.lock$|[./]$))[^\s#~^:?*[\\\u0000-\u001f\u007f]+$/u;

const TOP_FILES: ReadonlyMap<string, GitDataRule> = new Map([
  ['HEAD', 'ref'],
  ['ORIG_HEAD', 'oid'],
  ['AUTO_MERGE', 'oid'],
  ['CHERRY_PICK_HEAD', 'oid'],
  ['REVERT_HEAD', 'oid'],
  ['REBASE_HEAD', 'oid'],
  ['MERGE_AUTOSTASH', 'oid'],
  ['BISECT_HEAD', 'oid'],
  ['BISECT_EXPECTED_REV', 'oid'],
  ['MERGE_HEAD', 'oids'],
  ['shallow', 'oids'],
  ['FETCH_HEAD', 'fetch-head'],
  ['BISECT_START', 'bisect-start'],
  ['BISECT_TERMS', 'bisect-terms'],
  ['BISECT_ANCESTORS_OK', 'empty'],
  ['BISECT_LOG', 'text'],
  ['BISECT_NAMES', 'text'],
  ['BISECT_RUN', 'text'],
  ['COMMIT_EDITMSG', 'text'],
  ['MERGE_MSG', 'text'],
  ['MERGE_MODE', 'text'],
  ['SQUASH_MSG', 'text'],
  ['TAG_EDITMSG', 'text'],
  ['NOTES_EDITMSG', 'text'],
  ['EDIT_DESCRIPTION', 'text'],
  ['description', 'text'],
  ['gc.pid', 'text'],
  ['gc.log', 'text'],
  ['index', 'opaque'],
  ['packed-refs', 'packed-refs'],
  ['config', 'config'],
  ['config.worktree', 'config'],
]);

const REBASE_MERGE_FILES: ReadonlyMap<string, GitDataRule> = new Map([
  ['git-rebase-todo', 'todo'],
  ['git-rebase-todo.backup', 'todo'],
  ['done', 'todo'],
  ['strategy', 'strategy'],
  ['strategy_opts', 'strategy-options'],
  ['author-script', 'author-script'],
  ['head-name', 'ref-name'],
  ['onto', 'oid'],
  ['orig-head', 'oid'],
  ['stopped-sha', 'oid'],
  ['amend', 'oid'],
  ['autostash', 'oid'],
  ['squash-onto', 'oid'],
  ['rewritten-pending', 'oids'],
  ['rewritten-list', 'rewritten-list'],
  ['current-fixups', 'fixups'],
  ['refs-to-delete', 'ref-names'],
  ['update-refs', 'update-refs'],
  ['msgnum', 'number'],
  ['end', 'number'],
  ['message', 'text'],
  ['message-squash', 'text'],
  ['message-fixup', 'text'],
  ['patch', 'opaque'],
  ['dropped', 'oids'],
  ['allow_rerere_autoupdate', 'line'],
  ...[
    'interactive',
    'quiet',
    'verbose',
    'signoff',
    'ignore_date',
    'cdate_is_adate',
    'drop_redundant_commits',
    'keep_redundant_commits',
    'reschedule-failed-exec',
    'no-reschedule-failed-exec',
    'root',
  ].map((name) => [name, 'empty'] as const),
]);

const REBASE_APPLY_FILES: ReadonlyMap<string, GitDataRule> = new Map([
  ['abort-safety', 'oid'],
  ['onto', 'oid'],
  ['orig-head', 'oid'],
  ['original-commit', 'oid'],
  ['head-name', 'ref-name'],
  ['author-script', 'author-script'],
  ['apply-opt', 'empty'], // options for git apply: git rebase --apply and git am -3 leave it empty
  ['final-commit', 'text'],
  ['msg', 'text'],
  ['msg-clean', 'text'],
  ['info', 'text'],
  ['patch', 'opaque'],
  ['patch-merge-index', 'opaque'],
  ['next', 'number'],
  ['last', 'number'],
  ['quoted-cr', 'quoted-cr'],
  ['rewritten', 'rewritten-list'], // what git rebase --apply has rewritten so far, for post-rewrite and notes
  ...['keep', 'messageid', 'quiet', 'sign', 'threeway', 'utf8', 'rerere-autoupdate'].map((name) => [name, 'flag'] as const),
  ...['applying', 'rebasing', 'scissors', 'dirtyindex'].map((name) => [name, 'empty'] as const),
]);

const SEQUENCER_FILES: ReadonlyMap<string, GitDataRule> = new Map([
  ['todo', 'todo'],
  ['head', 'oid'],
  ['abort-safety', 'oid'],
  ['opts', 'sequencer-options'],
]);

/** Directories git makes in a git directory in ordinary work (refs/ and logs/ at any depth). */
const DIRECTORY = /^(objects(\/([0-9a-f]{2}|pack|info|info\/commit-graphs))?|refs(\/.+)?|logs(\/refs(\/.+)?)?|hooks|info|branches|rebase-merge|rebase-apply|sequencer)$/u;

const OBJECT_FILE =
  /^objects\/([0-9a-f]{2}\/([0-9a-f]{38}|[0-9a-f]{62}|tmp_obj_[A-Za-z0-9]+)|pack\/(pack-[0-9a-f]{40,64}\.(pack|idx|rev|keep|bitmap|promisor|mtimes)|multi-pack-index|tmp_(pack|idx|rev|bitmap|mtimes)_[A-Za-z0-9]+)|info\/(commit-graph|commit-graphs\/(commit-graph-chain|graph-[0-9a-f]{40,64}\.graph)))$/u;

/** rerere's records: refused as a class, with a reason of their own (git-directory-state.ts). */
export function isRerereRecord(relative: string): boolean {
  return /^(worktrees\/[^/]+\/)?(rr-cache|MERGE_RR)(\/|$)/u.test(relative);
}

/** The rule for a regular file at `relative` (slash-separated, inside the git directory), or undefined: not data. */
export function gitDataRule(relative: string): GitDataRule | undefined {
  if (relative.startsWith('worktrees/')) return worktreeRule(relative.split('/').slice(2).join('/'));
  const top = TOP_FILES.get(relative);
  if (top !== undefined) return top;
  if (/^sharedindex\.[0-9a-f]{40,64}$/u.test(relative)) return 'opaque';
  // A lock git left behind (a command killed mid-write) is never read as the file it locks.
  if (relative.endsWith('.lock')) {
    const locked = relative.slice(0, -'.lock'.length);
    const rule = locked === 'index' || locked === 'HEAD' || locked === 'packed-refs' || locked.startsWith('refs/') ? gitDataRule(locked) : undefined;
    return rule === undefined ? undefined : 'opaque';
  }
  if (OBJECT_FILE.test(relative) || relative === 'objects/info/packs') return 'opaque';
  if (relative.startsWith('refs/')) return 'ref';
  if (relative === 'logs/HEAD' || relative.startsWith('logs/refs/')) return 'opaque';
  if (/^hooks\/[^/]+\.sample$/u.test(relative)) return 'opaque'; // git never runs a sample
  if (relative === 'info/exclude' || relative === 'info/refs' || relative === 'objects/info/packs') return 'text';
  const [directory, name, ...rest] = relative.split('/');
  if (name === undefined || rest.length > 0) return undefined;
  if (directory === 'rebase-merge') return REBASE_MERGE_FILES.get(name);
  if (directory === 'rebase-apply') return /^\d{4,}$/u.test(name) ? 'opaque' : REBASE_APPLY_FILES.get(name);
  if (directory === 'sequencer') return SEQUENCER_FILES.get(name);
  return undefined;
}

/**
 * worktrees/NAME/ is the git directory of a worktree the user added: what git writes there as the worktree works
 * (its HEAD, index, logs, per-worktree refs, sequencer state) is data; its commondir only "../..". A new
 * worktrees/NAME directory is not data: `git worktree add` is refused (its gitfile would point git elsewhere).
 */
function worktreeRule(rest: string): GitDataRule | undefined {
  if (rest === 'commondir') return 'commondir';
  if (rest === 'gitdir') return 'line';
  if (rest === 'locked') return 'text';
  if (rest === '' || /^(objects|hooks|info|worktrees|modules)(\/|$)/u.test(rest) || ['packed-refs', 'config', 'description', 'shallow'].includes(rest)) return undefined;
  return gitDataRule(rest);
}

/** True when git makes a directory at `relative` in ordinary work (in a worktree's git directory, only below it). */
export function isGitDataDirectory(relative: string): boolean {
  if (relative.split('/').some((part) => part === '.' || part === '..' || part === '')) return false;
  if (relative === 'worktrees') return true;
  if (relative.startsWith('worktrees/')) {
    const rest = relative.split('/').slice(2).join('/');
    return rest !== '' && !/^(objects|hooks|info|worktrees|modules)(\/|$)/u.test(rest) && DIRECTORY.test(rest);
  }
  return DIRECTORY.test(relative);
}

/** The lines of a text file without the final newline's empty line. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function isRefName(name: string): boolean {
  return REF_NAME.test(name) && !name.includes('..') && !name.includes('//') && !name.endsWith('/') && !name.endsWith('.lock');
}

/** A ref git later writes a commit into (a symbolic ref's target, head-name, update-ref): never a replace ref, which makes git read another object in place of one. */
function isRefTarget(name: string): boolean {
  return isRefName(name) && !name.startsWith('refs/replace/');
}

/** A todo line of the plain commands; undefined when accepted, else why not. */
function checkTodoLine(raw: string): string | undefined {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) return undefined;
  const [command = '', ...words] = line.split(/[ \t]+/u);
  const comment = words.findIndex((word) => word.startsWith('#'));
  const rest = () => (comment === -1 ? words : words.slice(0, comment));
  switch (command) {
    case 'pick':
    case 'p':
    case 'reword':
    case 'r':
    case 'edit':
    case 'e':
    case 'squash':
    case 's':
    case 'drop':
    case 'd':
      return SHORT_OID.test(words[0] ?? '') ? undefined : `${command} needs an object id`;
    case 'fixup':
    case 'f': {
      const at = words[0] === '-C' || words[0] === '-c' ? 1 : 0;
      return SHORT_OID.test(words[at] ?? '') ? undefined : 'fixup needs an object id';
    }
    case 'label':
    case 'l':
      return words.length === 1 && LABEL.test(words[0]!) ? undefined : 'label needs one label';
    case 'reset':
    case 't':
      return line === `${command} [new root]` || (rest().length === 1 && LABEL.test(words[0]!)) ? undefined : 'reset needs one label';
    case 'merge':
    case 'm': {
      // merge [-C <commit> | -c <commit>] <label>... [# oneline]: -c opens the user's own editor, which the agent does not choose.
      const args = rest();
      const from = args[0] === '-C' || args[0] === '-c' ? 2 : 0;
      if (from === 2 && !SHORT_OID.test(args[1] ?? '')) return 'merge -C needs an object id';
      const parents = args.slice(from);
      return parents.length > 0 && parents.every((p) => LABEL.test(p) && !p.startsWith('-')) ? undefined : 'merge needs labels or object ids';
    }
    case 'update-ref':
    case 'u':
      return words.length === 1 && isRefTarget(words[0]!) ? undefined : 'update-ref needs one ref name outside refs/replace/';
    case 'break':
    case 'b':
    case 'noop':
      return words.length === 0 ? undefined : `${command} takes no argument`;
    case 'exec':
    case 'x':
      return 'an exec line runs a command when the user continues';
    default:
      return `"${command.slice(0, 40)}" is not a todo command zotbox accepts`;
  }
}

/** The sequencer's options file (config syntax): only [options] with keys git writes, and plain values. */
function checkSequencerOptions(text: string): string | undefined {
  const booleans = ['no-commit', 'edit', 'allow-empty', 'allow-empty-message', 'allow-ff', 'allow-rerere-auto', 'drop-redundant-commits', 'keep-redundant-commits', 'record-origin', 'signoff'];
  let inOptions = false;
  for (const raw of linesOf(text)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('[')) {
      if (line !== '[options]') return `the section ${line.slice(0, 40)}`;
      inOptions = true;
      continue;
    }
    const entry = /^([a-z-]+) = ([A-Za-z0-9=%-]+)$/u.exec(line);
    if (!inOptions || entry === null) return `the line ${JSON.stringify(line.slice(0, 60))}`;
    const [, key = '', value = ''] = entry;
    const ok = booleans.includes(key)
      ? value === 'true' || value === 'false'
      : key === 'mainline'
        ? /^\d{1,3}$/u.test(value)
        : key === 'strategy'
          ? BUILTIN_STRATEGIES.includes(value)
          : key === 'strategy-option'
            ? STRATEGY_OPTION.test(value)
            : key === 'default-msg-cleanup'
              ? /^(strip|whitespace|verbatim|scissors|default)$/u.test(value)
              : false;
    if (!ok) return `options.${key} = ${value.slice(0, 40)}`;
  }
  return undefined;
}

/** GIT_AUTHOR_NAME/EMAIL/DATE, each single-quoted as git's sq_quote writes it. */
function checkAuthorScript(text: string): string | undefined {
  for (const line of linesOf(text)) {
    if (!/^GIT_AUTHOR_(NAME|EMAIL|DATE)='([^']|'\\'')*'$/u.test(line)) return `the line ${JSON.stringify(line.slice(0, 60))}`;
  }
  return undefined;
}

const everyLine = (text: string, test: (line: string) => boolean) => linesOf(text).every(test);

/**
 * Checks a file's text against its rule: undefined when git would read it only
 * as data, else a short reason. `config` is not judged here (git-config-rules.ts).
 */
export function checkGitData(rule: GitDataRule, text: string): string | undefined {
  if (rule === 'opaque' || rule === 'config') return undefined;
  if (rule !== 'text' && /[\u0000\r]/u.test(text)) return 'it holds a NUL or carriage return';
  const verdict = ((): boolean | string => {
    switch (rule) {
      case 'text':
        return true;
      case 'ref':
        return /^ref: /u.test(text) ? linesOf(text).length === 1 && isRefTarget(linesOf(text)[0]!.slice(5)) : linesOf(text).length === 1 && OID.test(linesOf(text)[0]!);
      case 'oid':
        return linesOf(text).length === 1 && OID.test(linesOf(text)[0]!);
      case 'oids':
        return everyLine(text, (line) => OID.test(line));
      case 'line':
        return linesOf(text).length <= 1 && !/[\u0001-\u001f\u007f]/u.test(text.replace(/\n$/u, ''));
      case 'empty':
        return text.trim() === '';
      case 'flag':
        return /^[tfb]?\n?$/u.test(text); // empty too: git rebase -q --apply leaves rebase-apply/quiet empty
      case 'number':
        return /^\d{1,9}\n?$/u.test(text);
      case 'quoted-cr':
        return /^(|warn|nowarn|strip)\n?$/u.test(text);
      case 'commondir':
        return /^\.\.\/\.\.\n?$/u.test(text);
      case 'todo': {
        for (const line of linesOf(text)) {
          const why = checkTodoLine(line);
          if (why !== undefined) return `${why}: ${JSON.stringify(line.slice(0, 80))}`;
        }
        return true;
      }
      case 'strategy':
        return linesOf(text).length === 1 && BUILTIN_STRATEGIES.includes(linesOf(text)[0]!.trim())
          ? true
          : `the strategy ${JSON.stringify(text.slice(0, 40))} is not one of git's built-in ones (${BUILTIN_STRATEGIES.join(', ')})`;
      case 'strategy-options':
        return text
          .trim()
          .split(/\s+/u)
          .filter((word) => word !== '')
          .every((word) => word.startsWith('--') && STRATEGY_OPTION.test(word.slice(2).replace(/^'(.*)'$/u, '$1')));
      case 'author-script':
        return checkAuthorScript(text) ?? true;
      case 'sequencer-options':
        return checkSequencerOptions(text) ?? true;
      case 'fetch-head':
        return everyLine(text, (line) => /^[0-9a-f]{40,64}\t(not-for-merge)?\t[^\u0000-\u0008\u000a-\u001f]*$/u.test(line));
      case 'packed-refs':
        return everyLine(text, (line) => /^# pack-refs with:[ a-z-]*$/u.test(line) || /^\^[0-9a-f]{40,64}$/u.test(line) || (/^[0-9a-f]{40,64} /u.test(line) && isRefName(line.replace(/^\S+ /u, ''))));
      case 'ref-name':
        return linesOf(text).length === 1 && (isRefTarget(linesOf(text)[0]!) || linesOf(text)[0] === 'detached HEAD');
      case 'ref-names':
        return everyLine(text, isRefName);
      case 'rewritten-list':
        return everyLine(text, (line) => /^[0-9a-f]{40,64} [0-9a-f]{40,64}$/u.test(line));
      case 'fixups':
        return everyLine(text, (line) => /^(fixup|squash) [0-9a-f]{4,64}$/u.test(line));
      case 'update-refs': {
        const lines = linesOf(text);
        return lines.length % 3 === 0 && lines.every((line, i) => (i % 3 === 0 ? isRefTarget(line) : OID.test(line)));
      }
      case 'bisect-start': {
        // What `git bisect reset` checks out: git writes an object id, or the short name of the branch it started on.
        const [start = '', ...more] = linesOf(text);
        return more.length === 0 && (start === '' || OID.test(start) || (isRefName(`refs/heads/${start}`) && LABEL.test(start)));
      }
      case 'bisect-terms':
        return linesOf(text).length === 2 && everyLine(text, (line) => /^[A-Za-z][A-Za-z0-9_-]{0,40}$/u.test(line));
    }
  })();
  return verdict === true ? undefined : typeof verdict === 'string' ? verdict : `it is not what git writes there (${rule})`;
}
