// A JavaScript program's loads whose name it computes: `require(`./rules/${name}`)`, `require(__dirname + "/rules/" +
// name)`, `require(dir + "/x")`, `import(name)`. Where the name starts with a folder written out (the file's own,
// through `./`, `../` or `__dirname`), that folder is what it may load from, whole; a name computed from its start
// (a variable, `process.cwd()`, a call) may be any file (closed world: unresolved). Pure, no I/O.
import { argumentAt, type Literal } from './inline-program-runs.js';
import { javascriptTokens, stringValue, type TokenOptions } from './javascript-tokens.js';
import { computedObjectKeys } from './node-computed-keys.js';
import { REQUIRE_ALIAS, runnerValueUses } from './node-runner-values.js';

/** The folders computed loads reach into (relative to the file's own folder) and the loads zotbox cannot place, by line. */
export interface ComputedLoads {
  readonly folders: readonly { readonly folder: string; readonly line: number }[];
  /** `why` where the text cannot be read (javascript-tokens.ts): then `call` is where. */
  readonly unknown: readonly { readonly call: string; readonly line: number; readonly why?: string }[];
}

/**
 * The calls that load or run a file by the name they are given: require(…), require.resolve(…), import(…), a method
 * require (`module.require`, `r.main.require`), child_process's fork(…), a Worker (`new Worker(x)`, `new (…Worker)(x)`),
 * and a name bound to require or to createRequire(…) (`const r = require;`, `const req = createRequire(import.meta.url);`).
 */
function loadCalls(code: string): RegExp {
  const aliases = requireAliases(code);
  return new RegExp(
    String.raw`(?<![\w$])(?:require(?:\s*\.\s*resolve)?|import|fork|Worker\s*\)?|createRequire\s*\([^()]*(?:\([^()]*\)[^()]*)*\)${aliases.map((alias) => `|${alias}`).join('')})\s*\(`,
    'gu',
  );
}

/** The names bound to require or to what createRequire(…) returns, escaped for a pattern. */
function requireAliases(code: string): string[] {
  return [...code.matchAll(REQUIRE_ALIAS)].map((match) => match[1]!.replace(/\$/gu, '\\$'));
}

/**
 * What runs code by a name or a text the program computes, outside those calls: require or a module's loader used as
 * a value (`Reflect.apply(require, …)`, `require.call`, `module.constructor._load`, `Module._load`,
 * `require.extensions`, an object's `require:` key excepted), createRequire's require kept where zotbox does not follow it, eval, Function, node:vm,
 * process.dlopen. Read on the code with comments and string contents blanked.
 */
const RUNS_COMPUTED = new RegExp(
  [
    // require used as anything but a call, `.resolve(`, `.main`, `.cache`, `typeof require`, a declaration, a key.
    String.raw`(?<![\w$]|\btypeof\s|\b(?:const|let|var)\s+)require\b(?!\s*(?:\(|:\s*[\[{"'\x60]|\.\s*(?:resolve|main|cache)\b))`,
    // A loader or a runner renamed as it is taken (`const { fork: launch } = …`, `{ Worker: W }`).
    String.raw`\b(?:fork|Worker|createRequire|eval|Function|runInThisContext|runInNewContext|runInContext|compileFunction|register)\s*:\s*[A-Za-z_$]`,
    String.raw`\b_load\b|\b_compile\b|\bmodule\s*\.\s*constructor\b|\bModule\s*\.\s*(?:prototype|_\w+)|\bnew\s+Module\b`,
    // eval and the Function constructors used at all (called, kept, passed), not only in a call's spelling, and as any
    // object's member too (`globalThis.Function`, `global.eval`, `G.Function` of a sloppy function's `this`); a type
    // test (`instanceof Function`) excepted.
    String.raw`(?<![\w$])(?<!\binstanceof\s+)(?:eval|(?:Async|AsyncGenerator|Generator)?Function)(?![\w$])|\bnode:vm\b|\b(?:runInThisContext|runInNewContext|runInContext|compileFunction|SourceTextModule)\b|\bdlopen\b`,
    // A member taken from what a call returns (`require("node:vm")[k]`, `….find(…)[1](file)`): the key may be
    // "constructor" (any function's Function) or a loader's name (a destructuring's computed key, `const { [k]: f } =
    // x`, in any pattern: node-computed-keys.ts). (A computed member called, `x[k](…)`, is a member read by a computed key: computedKeyReads refuses it; a
    // scan for its `](` from every `[` was quadratic on a long line.)
    String.raw`\b(?:require|import)\s*\([^()]*\)\s*\[|\)\s*\[[^\]\n]*\]\s*\(`,
    // Loaders no list above names: a builtin module by name, a native binding.
    String.raw`\bgetBuiltinModule\b|\bprocess\s*\.\s*(?:binding|_linkedBinding)\b`,
    // The global and module objects kept as a value (`const g = globalThis`, `(globalThis)[k]`, `Object.values(module)`),
    // or indexed by any key; Reflect's and Object's reflection on members.
    String.raw`(?<![\w$.]|\btypeof\s+|[!=]==?\s*)(?:globalThis|global|module)(?![\w$])(?!\s*(?:\.\s*[A-Za-z_$]|:(?!:)|[!=]==?))`,
    // (Reflect but its harmless members: node-runner-values.ts; a descriptor's reader by any name: RAW_RUNS.)
    // node:module's register (a loader hook for every later import).
    String.raw`\bmodule\s*\.\s*register\s*\(`,
    // The module object's members but its data and its require (closed world: `module.load(file)`, Module.prototype's
    // loader, runs a file by the name it is given; so may any member no list names).
    String.raw`(?<![\w$.])module\s*\.\s*(?!(?:exports|id|filename|path|loaded|paths|require)(?![\w$]))[A-Za-z_$]`,
    // A function's caller and its arguments as members (`f.caller.arguments`: node's wrapper's, require at [1]).
    String.raw`\.\s*(?:caller|callee|arguments)(?![\w$])|[{,]\s*(?:caller|callee|arguments)\s*:|\b(?:prepareStackTrace|getFunction|getThis)\b`,
    // The module cache's Module objects (`Object.values(require.cache)[0].load(file)`), but a cache entry deleted.
    String.raw`(?<!\bdelete\s+)\brequire\s*\.\s*cache\b`,
    // A `with` statement makes a bare name a member of any object (`with (f) constructor(code)`).
    String.raw`(?<![\w$.])with\s*\(`,
  ].join('|'),
  'gu',
);
/**
 * Where a binding's initializer ends: at `;`, or at a line's end only where the next line does not go on with the
 * expression (ASI: no operator, `.`, `,`, `(`, `[`, template, `?`, `:`, `in`, `instanceof` or `as` first). A line that
 * goes on makes the match fail: the binding is then no literal's and no own folder's (closed world).
 */
const STATEMENT_END = String.raw`(?:;|$(?!\s*(?:[-+*/%&|^.,(\[\x60?:=<>]|(?:in|instanceof|as)(?![\w$]))))`;
/** The file's own folder as node spells it. */
const OWN_FOLDER = String.raw`\b__dirname\b|\bimport\s*\.\s*meta\s*\.\s*dirname\b|\bpath\s*\.\s*dirname\s*\(\s*__filename\s*\)`;
/** A name bound once, for good, to the file's own folder (`const here = __dirname;`). */
const BOUND = new RegExp(String.raw`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:path\s*\.\s*(?:join|resolve)\s*\(\s*)?(?:${OWN_FOLDER})\s*\)?\s*${STATEMENT_END}`, 'gmu');

/** What a name written out may be built from besides literals: the file's own folder (by a name bound to it too) and path's joins. */
function ownParts(code: string): { readonly parts: RegExp; readonly folder: RegExp } {
  const bound = [...code.matchAll(BOUND)].filter((match) => bindings(code, match[1]!) === 1 && usesInScope(code, match[1]!, match.index)).map((match) => match[1]!);
  const folder = [OWN_FOLDER, ...bound.map((name) => String.raw`(?<![\w$.])${name.replace(/\$/gu, '\\$')}(?![\w$])`)].join('|');
  // Calls whose result their literals decide, which zotbox reads where they stand (node-module-resolution.ts, URLs).
  const literalCalls = String.raw`\bnew\s+URL\b|\bimport\s*\.\s*meta\s*\.\s*(?:resolve|url)\b|\brequire\s*\.\s*resolve\b|\b(?:url\s*\.\s*)?(?:fileURLToPath|pathToFileURL)\b`;
  return { parts: new RegExp(String.raw`\bpath\s*\.\s*(?:posix\s*\.\s*)?(?:join|resolve)\b|${literalCalls}|${folder}|[+,()\s]`, 'gu'), folder: new RegExp(folder, 'u') };
}
const LITERAL = '\u0001';

/** The computed loads of `code` (JavaScript, its escapes spelled out; TypeScript where a runner reads it so), read on its tokens (javascript-tokens.ts). */
export function nodeComputedLoads(code: string, options: TokenOptions = {}): ComputedLoads {
  // Comments, strings, regexes and template text blanked: a word there is no call, and a call is found past a comment.
  const tokens = javascriptTokens(code, options);
  // Each literal judged by its value, its escapes spelled out (`"constru\x63tor"`, `"node:t\x65st"`: review s08e).
  const literals = tokens.literals.map((literal) => (literal.expands ? literal : { ...literal, text: stringValue(literal.text) }));
  // Optional chaining read as plain member access and calls (`eval?.(x)`, `module?.[k]`), each offset kept.
  const blanked = plainChaining(tokens.blanked);
  const folders: { folder: string; line: number }[] = [];
  const unknown: { call: string; line: number; why?: string }[] = [];
  const own = ownParts(blanked);
  const lineOf = (index: number) => code.slice(0, index).split('\n').length - 1;
  // Where node's reading of a `/` or of `<!--` cannot be told from the text, any code after it may be hidden.
  for (const { at, why } of tokens.ambiguous) unknown.push({ call: code.slice(at, at + 40).split('\n')[0]!, line: lineOf(at), why });
  // (A `module` the program declares is not told from node's: a declaration in one function exempts none at the top.)
  for (const match of blanked.matchAll(RUNS_COMPUTED)) {
    unknown.push({ call: code.slice(match.index, match.index + 60).split('\n')[0]!, line: lineOf(match.index) });
  }
  // node:module's register(), however the module is reached: a loader hook for every later import.
  if (takesModuleModule(blanked, literals))
    for (const match of blanked.matchAll(/(?<![\w$])register\s*\(/gu))
      if (code[match.index - 1] === '.' || !/\bfunction\s+register\s*\(/u.test(blanked)) unknown.push({ call: code.slice(match.index, match.index + 60).split('\n')[0]!, line: lineOf(match.index) });
  // `constructor` but a class's (or an object's) own method, a type test (`v.constructor === Array`, `.constructor.name`).
  for (const match of blanked.matchAll(/(?<![\w$])constructor(?![\w$])/gu))
    if (!ownOrTypeTest(blanked, match.index)) unknown.push({ call: code.slice(match.index, match.index + 60).split('\n')[0]!, line: lineOf(match.index) });
  // A member read by a key the program computes, unless the key is a literal, a name bound once to literals, or a
  // number (a loop's counter, an array callback's index, `.length` arithmetic): the key may be "constructor", a loader's
  // name or "__proto__", whatever the value is read from and wherever it goes (review s94q: it cannot be followed).
  for (const at of computedKeyReads(blanked, literals)) unknown.push({ call: code.slice(at, at + 60).split('\n')[0]!, line: lineOf(at) });
  // …and a computed key in an object literal or pattern, whatever encloses it (`const [{ [k]: F }] = [run]`): a
  // pattern's reads the member (review s08e).
  let numbers: Set<string> | undefined;
  for (const at of computedObjectKeys(blanked, (open, close) => safeKey(blanked, literals, open, close, (numbers ??= numericNames(blanked))), options.typescript === true))
    unknown.push({ call: code.slice(at, at + 60).split('\n')[0]!, line: lineOf(at) });
  // A loader, a runner, Reflect or the process object kept as a value (node-runner-values.ts); a createRequire alias's
  // members but resolve among them (its cache and main are the module objects: review s06c).
  for (const at of runnerValueUses(blanked, literals)) unknown.push({ call: code.slice(at, at + 60).split('\n')[0]!, line: lineOf(at) });
  // A literal whose escapes spell what RAW_RUNS or RUNNER_KEY read (`"constru\x63tor"`, `"\x65val("`): the raw
  // reading sees its text, node its value.
  for (const literal of literals)
    if (literal.text !== code.slice(literal.start + 1, literal.end - 1) && (RUNNER_KEY.test(literal.text) || new RegExp(RAW_RUNS.source, 'u').test(`"${literal.text}"`)))
      unknown.push({ call: code.slice(literal.start, literal.start + 60).split('\n')[0]!, line: lineOf(literal.start) });
  // node:module taken but for createRequire, builtinModules and isBuiltin (`Object.entries(require("node:module"))`
  // finds _load by value).
  for (const literal of literals)
    if (/^(?:node:)?module$/u.test(literal.text) && takenModule(blanked, literal) && !onlyResolvers(blanked, literal))
      unknown.push({ call: code.slice(literal.start - 1, literal.start + 40).split('\n')[0]!, line: lineOf(literal.start) });
  // node:vm, node:repl and node:wasi taken at all: each runs text or a file as code by its members; node:cluster runs
  // the file its settings name (`setupPrimary({ exec })`) in each worker it forks; node:test's run() each of its files.
  for (const literal of literals)
    if (takenModule(blanked, literal) && (/^(?:node:)?(?:vm|repl|wasi|cluster)$/u.test(literal.text) || (/^(?:node:)?test$/u.test(literal.text) && !withoutRun(blanked, literal))))
      unknown.push({ call: code.slice(literal.start - 1, literal.start + 40).split('\n')[0]!, line: lineOf(literal.start) });
  // A module's member taken by a computed key (`const m = require("node:module"); m[k]`, `import * as m …`): the key
  // may name a loader or a runner.
  for (const at of moduleMembers(blanked)) unknown.push({ call: code.slice(at, at + 60).split('\n')[0]!, line: lineOf(at) });
  // A member of a function value taken by a computed key (`(() => 0)[k]`, `check[k]` of `function check`): the key may
  // be "constructor", the Function constructor.
  for (const at of functionMembers(blanked)) unknown.push({ call: code.slice(at, at + 60).split('\n')[0]!, line: lineOf(at) });
  // A name self the program binds (`const self = {…}`, a parameter) is no global.
  if (bindings(blanked, 'self') === 0)
    for (const match of blanked.matchAll(/(?<![\w$.])self\s*\[|(?<![\w$.]|\btypeof\s+)self(?![\w$])(?!\s*(?:\.|:(?!:)))/gu))
      unknown.push({ call: code.slice(match.index, match.index + 60).split('\n')[0]!, line: lineOf(match.index) });
  // A CommonJS file's top-level `arguments` is node's wrapper's (exports, require, module, __filename, __dirname):
  // `arguments[1]` is require by another name, spread or not. A function's own (not an arrow's) is its caller's values.
  for (const match of blanked.matchAll(/(?<![\w$])(?<![^.]\.)arguments(?![\w$])(?!\s*\.\s*length\b)/gu))
    if (!insideFunction(blanked, match.index)) unknown.push({ call: code.slice(match.index, match.index + 60).split('\n')[0]!, line: lineOf(match.index) });
  // An identifier written with escapes (`\u0072equire`) names what the lists below look for under another spelling.
  for (const match of blanked.matchAll(/\\u[{0-9A-Fa-f]/gu)) unknown.push({ call: code.slice(match.index, match.index + 60).split('\n')[0]!, line: lineOf(match.index) });
  const seen = new Map<number, boolean>();
  for (const match of blanked.matchAll(loadCalls(blanked))) {
    const from = match.index + match[0].length;
    const argument = argumentAt(blanked, from, true, literals);
    const inside = literals.filter((literal) => literal.start >= from && literal.end <= from + argument.length);
    const shape = shapeOf(blanked, from, from + argument.length, inside);
    // Only literals that expand nothing, joined to the file's own folder: read as the program's literal names already.
    const written = !inside.some((literal) => literal.expands) && shape.replaceAll(LITERAL, '').replace(own.parts, '') === '';
    seen.set(match.index, written);
    if (written) continue;
    // A loop's variable over a list of literals, or a name bound once to one: the literals are read as names already.
    if (literalBound(blanked, argument.trim(), literals)) continue;
    const line = lineOf(match.index);
    const folder = leadingFolder(blanked, from, inside[0], own, shape);
    if (folder !== undefined) folders.push({ folder, line });
    else unknown.push({ call: code.slice(match.index, from + argument.length + 1).slice(0, 60), line });
  }
  // A second reading, of the raw text: what it shows that the tokens hid, or showed as written out, counts too.
  unknown.push(...rawShapes(plainChaining(code), seen, own, lineOf));
  return { folders, unknown };
}

/** Code-running shapes read on the raw text, comments and strings included (RAW_RUNS); see rawShapes. */
const RAW_RUNS = new RegExp(
  [
    String.raw`\beval\s*(?:\(|\)|\.\s*(?:call|apply|bind)\b)`,
    String.raw`\b(?:Async|AsyncGenerator|Generator)?Function\s*\(`,
    // A constructor reached from a value (`(() => {}).constructor`), not a class's own `constructor(…)` nor `.constructor.name`.
    String.raw`\b_load\b|\b_compile\b|\bdlopen\b|\bReflect\s*\.\s*(?:construct|apply|get)\b`,
    // A constructor reached from a value or taken (`(() => {}).constructor`, `{ constructor: F }`), not a type test
    // (`.constructor.name`, `v.constructor === Array`); a class's own `constructor(…)` has no dot.
    String.raw`(?<![!=]==?\s*[\w$.]*)\.\s*constructor\b(?!\s*(?:\.\s*name\b|[!=]==?|&&|\?(?![.?])))|[{,]\s*constructor\s*[,}:]`,
    // …and one compared that goes on past `.constructor` (`0 === run.constructor(text)()`): not a whole operand.
    String.raw`\.\s*constructor\b(?=\s*(?:[(\[\x60]|\?\.|\.(?!\s*name\b)))`,
    // node:module's runMain, the inspector's Runtime.evaluate, a loader or global reached by a computed key
    // (`module[k]`, `globalThis[k]`), and options that make a later node preload a file (NODE_OPTIONS, execArgv) or
    // look elsewhere for modules (module.paths).
    // execArgv only where it is set or handed on (`execArgv:`, `= …`, `.push(`), not read; runMain only as a member or
    // taken (`Module.runMain`, `{ runMain }`), not a function of the program's own.
    String.raw`\.\s*runMain\b|[{,]\s*runMain\s*[,}:]|["'\x60](?:node:)?inspector(?:/promises)?["'\x60]|\b(?:module|globalThis|global|require|process)\s*\[|\bNODE_OPTIONS\b|\bexecArgv\s*(?::|=(?!=)|\.\s*(?:push|unshift|splice)\b)|\bmodule\s*\.\s*paths\b`,
    // A loader's name as a string (`module["require"]`, `Reflect.get(module, "require")`) or renamed on import.
    String.raw`["'\x60](?:require|eval|Function|fork|Worker|createRequire|_load|_compile|register|runInThisContext|runInNewContext|runInContext|compileFunction)["'\x60]`,
    // Code as a URL's text: a `data:` URL of a script or a module (`import("data:text/javascript,…")`), an object URL.
    String.raw`["'\x60]\s*data:\s*(?:text|application)\/|\bcreateObjectURL\b`,
    // "constructor" as a string but compared (`key === "constructor"`) or listed among keys a guard skips.
    // A quoted "constructor" as a key (in a pattern it is read: `{ name: a, "constructor": F } = run`) refuses after `,`
    // too; a descriptor's reader under any name (`{ getOwnPropertyDescriptor: d } = Object`).
    String.raw`(?<![!=]==?\s*|[\[,]\s*)["'\x60]constructor["'\x60](?!\s*[!=]==?)|(?<=[\w$)\]]\s*\[\s*)["'\x60]constructor["'\x60]|["'\x60]constructor["'\x60]\s*:|\bgetOwnPropertyDescriptors?\b`,
    String.raw`\b(?:require|eval|fork|Worker|createRequire|Function|runInThisContext|compileFunction)\s+as\s+[A-Za-z_$]`,
    // child_process's runners as a quoted key (`{ "execFileSync": x } = cp`: node-runner-values.ts reads them unquoted).
    String.raw`[{,]\s*["'\x60](?:exec|execSync|execFile|execFileSync|spawn|spawnSync|execa\w*)["'\x60]\s*:`,
    // require kept as a value where code would keep it (`(0, require)`, `= require;`, `[require]`, `require.call`).
    String.raw`(?:[(,=\[:?]\s*)require\s*[,;)\]]|\brequire\s*\.\s*(?!resolve\b|main\b|cache\b)[A-Za-z_$]`,
  ].join('|'),
  'gu',
);

/**
 * What the raw text shows that the tokens did not: a code-running shape anywhere (a comment's or a string's mention
 * counts: zotbox cannot be sure it is one), and a load call whose argument is not written out where the tokens saw no
 * call there or saw one written out.
 */
function rawShapes(code: string, seen: ReadonlyMap<number, boolean>, own: ReturnType<typeof ownParts>, lineOf: (index: number) => number): { call: string; line: number }[] {
  const found: { call: string; line: number }[] = [];
  const at = (index: number) => ({ call: code.slice(index, index + 60).split('\n')[0]!, line: lineOf(index) });
  for (const match of code.matchAll(RAW_RUNS)) found.push(at(match.index));
  for (const match of code.matchAll(loadCalls(code))) {
    if (seen.get(match.index) === false) continue;
    const argument = argumentAt(code, match.index + match[0].length, true, []);
    // A string with escapes is still one literal (`"./\\154int.js"`): its name is read with the escapes spelled out.
    const plain = argument.replace(/(["'])(?:\\(?:\r\n|[\s\S])|(?!\1)[^\\\n])*\1|`[^`$\\]*`/gu, '').replace(own.parts, '') === '';
    if (!plain) found.push(at(match.index));
  }
  return found;
}

/**
 * How often `name` is bound in `blanked` code: declared (`const`, `let`, `var`, a loop's `for (x of …)`), assigned in
 * any operator (`=`, `+=`, `??=`, `++`), a parameter (a function's, an arrow's, a `catch`'s), or taken in a
 * destructuring or shorthand (`{ name }`, `[name]`, `{ k: name }`).
 */
function bindings(blanked: string, name: string): number {
  const word = name.replace(/\$/gu, '\\$');
  const at = String.raw`(?<![\w$.])${word}(?![\w$])`;
  const patterns = [
    String.raw`\b(?:const|let|var)\s+${word}(?![\w$])`,
    String.raw`(?<!\b(?:const|let|var)\s+)${at}\s*(?:(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?![=>])|\+\+|--)|(?:\+\+|--)\s*${word}(?![\w$])`,
    // A loop's head, `for await` too (review s15i).
    String.raw`\bfor\s*(?:await\s*)?\(\s*${word}\s+(?:of|in)\b`,
    // A parenthesized target (`(key) = k`, `((i)) += 1`): node peels the parentheses (review s15i).
    String.raw`${at}\s*(?:\)\s*)+(?:(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?![=>])|\+\+|--)`,
    String.raw`\bcatch\s*\(\s*${word}(?![\w$])`,
    String.raw`${at}\s*=>`,
    // Not a member read (`o[name]`): a `[` after a value reads, it binds nothing.
    // (A `[` after a declaration's keyword opens a pattern: `const [key] = [k]`, review s08e.)
    // A parenthesized target in a pattern too (`[(key)] = [k]`, `({ a: (key) } = o)`: review s15i).
    String.raw`(?:[{,:]|(?:(?<![\w$)\]]\s*)|(?<=\b(?:const|let|var)\s*))\[)\s*(?:\(\s*)*(?:\.\.\.)?${word}\s*(?:\)\s*)*(?=[,}\]]|=(?![=>]))`,
  ];
  return patterns.reduce((count, pattern) => count + [...blanked.matchAll(new RegExp(pattern, 'gu'))].length, 0) + parameterBindings(blanked, name);
}

/**
 * How often `name` is a parameter: of a function, an arrow or a method (a call followed by a block, `if (x) {`, counts
 * too: more, never less), its list read with its brackets balanced, so a default that calls (`(o = f(), i) =>`) hides
 * none (review s06c); a destructured parameter naming it counts.
 */
function parameterBindings(blanked: string, name: string, controlHeadsOnly = false): number {
  const word = new RegExp(String.raw`(?<![\w$.])${name.replace(/\$/gu, '\\$')}(?![\w$])`, 'u');
  let count = 0;
  for (let open = blanked.indexOf('('); open !== -1; open = blanked.indexOf('(', open + 1)) {
    const close = balancedClose(blanked, open);
    if (close === -1) break;
    const after = blanked.slice(close + 1, close + 200);
    const head = blanked.slice(Math.max(0, open - 60), open);
    if (!/^\s*(?::[^{};=]*)?(?:=>|\{)/u.test(after) && !/\bfunction\s*\*?\s*[\w$]*\s*$/u.test(head)) continue;
    if (controlHeadsOnly && !/(?<![\w$.])(?:for|while|if|switch)\s*$/u.test(head)) continue;
    if (parameters(blanked.slice(open + 1, close)).some((parameter) => word.test(parameter.replace(/=[\s\S]*$/u, '')))) count++;
  }
  return count;
}

/**
 * Whether every use of `name` lies where its declaration at `at` binds it: a `for (` head's loop, or the block the
 * declaration stands in (the whole file at the top). A use elsewhere is another binding's, or the global object's
 * (a sloppy function's `this.key = k`): a name bound once to a literal is trusted only in its scope (review s08e).
 * An object's key (`{ name: 1 }`) is no use.
 */
function usesInScope(blanked: string, name: string, at: number): boolean {
  const head = /\bfor\s*(?:await\s*)?\(\s*$/u.exec(blanked.slice(Math.max(0, at - 40), at));
  const forAt = blanked.startsWith('for', at) ? at : head === null ? -1 : at - (Math.min(at, 40) - head.index);
  let from = 0;
  let to = blanked.length;
  if (forAt !== -1) {
    const close = balancedClose(blanked, blanked.indexOf('(', forAt));
    if (close === -1) return false;
    const body = close + 1 + (/^\s*/u.exec(blanked.slice(close + 1))?.[0].length ?? 0);
    from = forAt;
    to = blanked[body] === '{' ? closingBrace(blanked, body) : body + (/^[^;\n]*/u.exec(blanked.slice(body))?.[0].length ?? 0);
  } else {
    const brace = enclosingBraces(blanked, at)[0];
    if (brace !== undefined) [from, to] = [brace, closingBrace(blanked, brace)];
  }
  if (from === 0 && to === blanked.length) return true;
  for (const use of blanked.matchAll(new RegExp(String.raw`(?<![\w$.#])${name.replace(/\$/gu, '\\$')}(?![\w$])`, 'gu')))
    if ((use.index < from || use.index > to) && !(/[{,]\s*$/u.test(blanked.slice(Math.max(0, use.index - 40), use.index)) && /^\s*:(?!:)/u.test(blanked.slice(use.index + use[0].length))))
      return false;
  return true;
}

/** The index of the `}` that closes the `{` at `open` (nested), or the text's end. */
function closingBrace(code: string, open: number): number {
  let depth = 0;
  for (let index = open; index < code.length; index++) {
    if (code[index] === '{') depth++;
    else if (code[index] === '}' && --depth === 0) return index;
  }
  return code.length;
}

/** A parameter list's parameters, split at its top-level commas. */
function parameters(list: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let from = 0;
  for (let index = 0; index < list.length; index++) {
    const c = list[index]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      found.push(list.slice(from, index));
      from = index + 1;
    }
  }
  return [...found, list.slice(from)];
}

/**
 * Whether `name` is bound exactly once in the whole file, and that once to plain literals: `const NAME = "lit"`, or
 * `for (const NAME of ["a", "b"])`. Read on the blanked code, each literal checked by its token.
 */
function literalBound(blanked: string, name: string, literals: readonly Literal[]): boolean {
  if (!/^[A-Za-z_$][\w$]*$/u.test(name) || bindings(blanked, name) !== 1) return false;
  const word = name.replace(/\$/gu, '\\$');
  const binding = new RegExp(String.raw`\bfor\s*\(\s*(?:const|let|var)\s+${word}\s+of\s+\[([^\]]*)\]\s*\)|\b(?:const|let|var)\s+${word}\s*=\s*([^;\n]*?)\s*${STATEMENT_END}`, 'mu').exec(blanked);
  if (binding === null || !usesInScope(blanked, name, binding.index)) return false;
  const from = binding.index + binding[0].indexOf(binding[1] ?? binding[2]!);
  const list = binding[1] ?? binding[2]!;
  const inside = literals.filter((literal) => literal.start >= from && literal.end <= from + list.length);
  // Only plain literals there, separated by commas (a lone one for a binding).
  if (inside.length === 0 || inside.some((literal) => literal.expands)) return false;
  let rest = list;
  for (const literal of inside) rest = rest.slice(0, literal.start - from) + ' '.repeat(literal.end - literal.start) + rest.slice(literal.end - from);
  return binding[1] !== undefined ? /^[\s,]*$/u.test(rest) : inside.length === 1 && rest.trim() === '';
}

/** The argument's text with each literal one mark. */
function shapeOf(code: string, from: number, to: number, inside: readonly Literal[]): string {
  let shape = '';
  let at = from;
  for (const literal of inside) {
    shape += code.slice(at, literal.start) + LITERAL;
    at = literal.end;
  }
  return shape + code.slice(at, to);
}

/**
 * The folder a computed name starts in, relative to the file's own: its first literal's text up to the last `/` before
 * anything computed, when nothing but the file's own folder comes before it and it is relative (`./`, `../`) or follows
 * `__dirname`. Undefined when the name may start anywhere.
 */
function leadingFolder(code: string, from: number, first: Literal | undefined, own: ReturnType<typeof ownParts>, shape: string): string | undefined {
  if (first === undefined) return undefined;
  // Only a concatenation (or path's join) keeps the first literal in front: `("./rules/", x)`, `"./rules/" && x`,
  // `c ? "./rules/" : x` do not.
  if (/,|&&|\|\||\?/u.test(shape) && !/^\s*path\s*\.\s*(?:posix\s*\.\s*)?(?:join|resolve)\s*\(/u.test(shape)) return undefined;
  const before = code.slice(from, first.start);
  if (before.replace(own.parts, '') !== '') return undefined;
  const fixed = first.text.split('${')[0]!;
  // A segment of path.join(__dirname, "rules", name): the whole literal is a folder.
  const segment = !first.expands && /^\s*,/u.test(code.slice(first.end));
  const folder = segment ? `${fixed.replace(/\/+$/u, '')}/` : fixed.slice(0, fixed.lastIndexOf('/') + 1);
  const afterOwn = own.folder.test(before);
  if (afterOwn ? folder === '' : !/^\.{1,2}\//u.test(folder)) return undefined;
  return afterOwn ? `./${folder.replace(/^\/+/u, '')}` : folder;
}

/** `code` with optional chaining spelled as plain access (`?.(` as `  (`, `?.[` as `  [`, `?.x` as ` .x`), offsets kept. */
function plainChaining(code: string): string {
  return code.replace(/\?\.(?!\d)(\s*[([])?/gu, (chain, bracket: string | undefined) => (bracket === undefined ? ' .' : `  ${bracket}`));
}

/** Whether the program takes node:module (`require("module")`, `import … from "node:module"`, `import("module")`). */
function takesModuleModule(blanked: string, literals: readonly Literal[]): boolean {
  return literals.some((literal) => /^(?:node:)?module$/u.test(literal.text) && takenModule(blanked, literal));
}

/** Whether `literal` is the name a load takes (`require("x")`, `import("x")`, `from "x"`, `import "x"`). */
function takenModule(blanked: string, literal: Literal): boolean {
  return /(?:\brequire|\bimport|\bfrom)\s*\(?\s*$/u.test(blanked.slice(0, literal.start));
}

/** Where a name bound to a module (`= require(…)`, `= await import(…)`, `import * as m`, `import m from`) is indexed by a computed key. */
function moduleMembers(blanked: string): number[] {
  const names = [...blanked.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?(?:require|import)\s*\(|\bimport\s+(?:\*\s*as\s+)?([A-Za-z_$][\w$]*)\s*(?:,|\bfrom\b)/gu)].map(
    (match) => (match[1] ?? match[2]!).replace(/\$/gu, '\\$'),
  );
  if (names.length === 0) return [];
  return [...blanked.matchAll(new RegExp(String.raw`(?<![\w$.])(?:${names.join('|')})\s*(?=\[)(?!${LITERAL_KEY})`, 'gu'))].map((match) => match.index);
}

/**
 * Whether `constructor` at `at` is a class's own method (`constructor(…) {` where a class member starts: after `{`, `}`,
 * `;`, a line's start, an access modifier or a decorator; its parameters balanced, a body or a TypeScript overload's
 * end after them), or a type test: `.constructor` as a whole operand (nothing after it but `.name`, a comparison or an
 * operand's end), compared (`=== Array`, `Array !== v.constructor`) or its name read.
 */
function ownOrTypeTest(blanked: string, at: number): boolean {
  const before = blanked.slice(Math.max(0, at - 200), at);
  const after = blanked.slice(at + 'constructor'.length, at + 'constructor'.length + 2000);
  // A member's start, no `.` before it across lines and comments (`run. // …⏎constructor(x)` is a member read), in a class's body.
  // A member's start: no operator before it across lines and comments (`run. // …⏎constructor(x)`, a field's
  // `static f =⏎constructor(x)` are expressions), in a class's body (reviews s04a, s06c).
  if (!/[-=+*/%&|^!~?:,.(<>[]\s*$/u.test(before) && /(?:^|[{};\n])[ \t]*(?:(?:public|private|protected)\s+|@[\w$.]+(?:\([^()\n]*\))?\s+)?$/u.test(before) && inClassBody(blanked, at)) {
    const close = /^\s*\(/u.test(after) ? balancedClose(after, after.indexOf('(')) : -1;
    if (close !== -1 && /^\s*(?:\{|;|\n|$)/u.test(after.slice(close + 1))) return true;
  }
  if (!/\.\s*$/u.test(before)) return false;
  // A type test compares `.constructor` as a whole operand: a member chain, no call around it or after it.
  if (/^\s*(?:[([\x60]|\?\.|\.(?!\s*name\b))/u.test(after)) return false;
  // Tested for truth (`v.constructor && v.constructor.name`, `v.constructor ? … : …`): `&&` and `?` hand on another value.
  return /^\s*(?:\.\s*name\b|[!=]==?|&&|\?(?![.?]))/u.test(after) || /[!=]==?\s*[\w$.]*$/u.test(before);
}

/** The index of the `)` that closes the `(` at `open` in `text`, or -1. */
function balancedClose(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && --depth === 0) return index;
  }
  return -1;
}

/** The unclosed `{` before `at` in `blanked` code, the innermost first. */
function enclosingBraces(blanked: string, at: number): number[] {
  const open: number[] = [];
  for (let index = 0; index < at; index++) {
    if (blanked[index] === '{') open.push(index);
    else if (blanked[index] === '}') open.pop();
  }
  return open.reverse();
}

/** The index of the `(` that the `)` at `close` closes in `text`, or -1. */
function balancedOpen(text: string, close: number): number {
  let depth = 0;
  for (let index = close; index >= 0; index--) {
    if (text[index] === ')') depth++;
    else if (text[index] === '(' && --depth === 0) return index;
  }
  return -1;
}

/**
 * Whether the value that ends at `end` is surely an array: an array literal, what `Object.keys`/`values`/`entries`,
 * `Array.from`/`of` or `readdirSync` return, or an array method's result on one (`Object.keys(o).filter(…)`).
 */
function arrayReceiver(blanked: string, end: number, depth = 0): boolean {
  const before = blanked.slice(0, end).trimEnd();
  if (depth > 8) return false;
  if (before.endsWith(']')) {
    let nested = 0;
    for (let index = before.length - 1; index >= 0; index--) {
      if (before[index] === ']') nested++;
      else if (before[index] === '[' && --nested === 0) return !/[\w$)\]}]\s*$/u.test(before.slice(0, index));
    }
    return false;
  }
  if (!before.endsWith(')')) return false;
  const open = balancedOpen(before, before.length - 1);
  if (open === -1) return false;
  const head = before.slice(0, open).trimEnd();
  if (/(?<![\w$.])(?:Object\s*\.\s*(?:keys|values|entries)|Array\s*\.\s*(?:from|of)|(?:fs\s*\.\s*)?readdirSync)$/u.test(head)) return true;
  const method = /\.\s*(?:map|filter|slice|concat|flat|flatMap|sort|reverse|toSorted|toReversed)$/u.exec(head);
  return method !== null && arrayReceiver(blanked, method.index, depth + 1);
}

/** Words whose `(…) {` is a statement's head, not a method's parameters. */
const BLOCK_HEADS = /(?:^|[^\w$.])(?:if|for|while|switch|catch|with)\s*$/u;

/** Whether `at` lies in the body of a function that has its own `arguments` (a `function` or a method; an arrow has none). */
function insideFunction(blanked: string, at: number): boolean {
  for (const brace of enclosingBraces(blanked, at)) {
    // A TypeScript return type between the `)` and the `{` (`f(a): string {`) is dropped.
    const before = blanked
      .slice(0, brace)
      .trimEnd()
      .replace(/\)\s*:\s*[^(){};=]+$/u, ')');
    if (before.endsWith('=>') || !before.endsWith(')')) continue;
    // A `{` on a line after the `)` may be a block of its own (ASI: `init()⏎{ … }`); a function's is not (review s06c).
    const sameLine = !/\n/u.test(blanked.slice(before.length, brace));
    const open = balancedOpen(before, before.length - 1);
    if (open === -1) return false;
    const head = before.slice(0, open).trimEnd();
    if (/\bfunction\s*\*?\s*[\w$]*$/u.test(head)) return true;
    if (BLOCK_HEADS.test(head)) continue;
    // A method (`name(…) {`, `get x() {`) in a class's or an object's body: a call followed by a block on its line is no JavaScript.
    if (sameLine && /(?:^|[^\w$.])[A-Za-z_$][\w$]*$/u.test(head)) return true;
  }
  return false;
}

/** Whether the innermost `{` around `at` opens a class body (`class X extends Y {`). */
function inClassBody(blanked: string, at: number): boolean {
  const brace = enclosingBraces(blanked, at)[0];
  if (brace === undefined) return false;
  const before = blanked.slice(Math.max(0, brace - 300), brace);
  // A class's heading (type parameters, `extends`, `implements`, braces inside its heritage), or an object literal's
  // body, where a method named constructor is only a method (review s06c).
  return /\bclass\b(?:[^{};]|\{[^{}]*\})*$/u.test(before) || /(?:[=(,:?]|\breturn)\s*$/u.test(before);
}

/** A key that is not computed: a blanked string literal or a number. */
const LITERAL_KEY = String.raw`\[\s*(?:"\s*"|'\s*'|\d+)\s*\]`;

/**
 * Where a member of a function value is taken by a computed key: after a parenthesized expression (not a call's
 * parentheses: `(() => 0)[k]`, not `split(",")[i]`), or after a name the file binds to a function.
 */
function functionMembers(blanked: string): number[] {
  const found: number[] = [];
  for (const match of blanked.matchAll(new RegExp(String.raw`\)\s*(?=\[)(?!${LITERAL_KEY})`, 'gu'))) {
    let depth = 0;
    let open = match.index;
    for (; open >= 0; open--) {
      if (blanked[open] === ')') depth++;
      else if (blanked[open] === '(' && --depth === 0) break;
    }
    if (open >= 0 && !/[\w$\])]\s*$/u.test(blanked.slice(0, open))) found.push(open);
  }
  const functions = [
    ...blanked.matchAll(/\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/gu),
  ].map((match) => (match[1] ?? match[2]!).replace(/\$/gu, '\\$'));
  if (functions.length > 0) for (const match of blanked.matchAll(new RegExp(String.raw`(?<![\w$.])(?:${functions.join('|')})\s*(?=\[)(?!${LITERAL_KEY})`, 'gu'))) found.push(match.index);
  return found;
}

/**
 * Whether node:test at `literal` is taken so its `run` is not: its members destructured without it (`{ describe, it }`),
 * or bound to a name; each name taken only called or read by one member that is neither `run` nor `test` nor `it`
 * (`test(…)`, `describe.skip(…)`): the module is its own `test`, and `test.test`, `t.it` have `run` too (review s08e).
 */
function withoutRun(blanked: string, literal: Literal): boolean {
  const before = blanked.slice(0, literal.start);
  // Each use of a name but its binding (between `from` and the literal): a call, or a member but run, test and it.
  const onlyCalled = (name: string, from: number) =>
    [...blanked.matchAll(new RegExp(String.raw`(?<![\w$.#])${name.replace(/\$/gu, '\\$')}(?![\w$])`, 'gu'))]
      .filter((use) => use.index < from || use.index >= literal.start)
      .every((use) => /^\s*(?:\(|\.\s*(?!(?:run|test|it)(?![\w$]))[A-Za-z_$])/u.test(blanked.slice(use.index + use[0].length)));
  const destructured = /(?:\b(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*require\s*\(|\bimport\s*\{([^{}]*)\}\s*from)\s*$/u.exec(before);
  if (destructured !== null) {
    const list = destructured[1] ?? destructured[2]!;
    const names = list
      .split(',')
      .map((part) => (part.split(':').at(-1) ?? '').replace(/\bas\b.*$/u, '').trim())
      .filter((name) => /^[A-Za-z_$][\w$]*$/u.test(name));
    const asNamed = [...list.matchAll(/\bas\s+([A-Za-z_$][\w$]*)/gu)].map((match) => match[1]!);
    return [...names, ...asNamed].every((name) => onlyCalled(name, destructured.index)) && !/(?<![\w$])run(?![\w$])/u.test(list);
  }
  const bound = /(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\s*\(|\bimport\s+([A-Za-z_$][\w$]*)\s*from)\s*$/u.exec(before);
  if (bound === null) return /(?:^|[;}\n])\s*(?:require\s*\(|import)\s*$/u.test(before) && /^\s*\)?\s*(?:;|$)/mu.test(blanked.slice(literal.end));
  return onlyCalled(bound[1] ?? bound[2]!, bound.index);
}

/** Whether node:module at `literal` is taken only for createRequire, builtinModules or isBuiltin. */
function onlyResolvers(blanked: string, literal: Literal): boolean {
  const resolvers = String.raw`(?:createRequire|builtinModules|isBuiltin)`;
  // A literal's start and end are its quotes'.
  const before = blanked.slice(0, literal.start);
  const after = blanked.slice(literal.end);
  if (/\brequire\s*\(\s*$/u.test(before) && new RegExp(String.raw`^\s*\)\s*\.\s*${resolvers}\b`, 'u').test(after)) return true;
  const list = String.raw`\{\s*${resolvers}(?:\s*,\s*${resolvers})*\s*,?\s*\}`;
  return new RegExp(String.raw`(?:\b(?:const|let|var)\s*${list}\s*=\s*require\s*\(|\bimport\s*${list}\s*from)\s*$`, 'u').test(before);
}

/** The words a `[` may follow that make it an array or a pattern, not a member read (`return [a]`, `of [x, y]`, `const [a, b] =`). */
const BEFORE_ARRAY =
  /(?<!\.\s*)(?<![\p{ID_Continue}$#])(?<!\u200c|\u200d)(?:return|typeof|in|case|void|else|do|throw|delete|new|instanceof|const|var)\s*$|\bfor\s*(?:await\s*)?\(\s*(?:(?:const|let|var)\s+)?(?:[A-Za-z_$][\w$]*|\[[^;()]*\]|\{[^;()]*\})\s*of\s*$|(?:^|(?<!\.\s*)[;{}\n])\s*let\s*$/u;

/**
 * The text before a `[` up to the word or character at `at` that ends its operand, from 200 characters before the
 * last one that is not space (a blanked comment's length hides no `.` before a keyword: `x.` then a long comment, then `let[k]`).
 */
function headOf(blanked: string, at: number): string {
  let start = at;
  while (start > 0 && /[\p{ID_Continue}$#]|\u200c|\u200d/u.test(blanked[start - 1]!)) start--;
  while (start > 0 && /\s/u.test(blanked[start - 1]!)) start--;
  return blanked.slice(Math.max(0, start - 200), at + 1);
}

/** How many member reads by a computed key are reported at most: one already refuses every writer. */
const MAX_FINDINGS = 16;

/** Where a member is read by a key that may be any text (see nodeComputedLoads). */
function computedKeyReads(blanked: string, literals: readonly Literal[]): number[] {
  const found: number[] = [];
  const numbers = numericNames(blanked);
  // A key judged once (a file reads `a[b]` many times), and a few findings are enough: each refuses every writer.
  const judged = new Map<string, boolean>();
  // After `}` too (`function () {}[k]`, `class {}[k]`): a block's end before an array statement refuses as well.
  // After a string, a template (a tagged one's result: review s06c) or a regular expression too, and after
  // TypeScript's non-null `!` on its operand's line (`[].map![k]`: review s08e).
  // A name ends in any letter node's identifiers take (ID_Continue: `fé[k]`), not only ASCII's (review s15i row 4).
  for (const match of blanked.matchAll(/(?:[\p{ID_Continue}$)\]}\x60'"/]|\u200c|\u200d)(?:[ \t]*!)*\s*\[/gu)) {
    if (found.length >= MAX_FINDINGS) break;
    const open = match.index + match[0].length - 1;
    if (BEFORE_ARRAY.test(headOf(blanked, match.index))) continue;
    const close = closingBracket(blanked, open);
    const key = blanked.slice(open + 1, close).trim();
    if (!judged.has(key) || /^(?:"\s*"|'\s*'|\x60\s*\x60)$/u.test(key)) judged.set(key, safeKey(blanked, literals, open, close, numbers));
    if (judged.get(key) === true) continue;
    found.push(match.index);
  }
  return found;
}

/**
 * Whether the key between `[` at `open` and `]` at `close` is no text the program computes: a literal that names no
 * runner (by its value), a number, a name bound once to such literals, or arithmetic on numbers.
 */
function safeKey(blanked: string, literals: readonly Literal[], open: number, close: number, numbers: ReadonlySet<string>): boolean {
  const key = blanked.slice(open + 1, close).trim();
  const inside = literals.filter((literal) => literal.start > open && literal.end <= close);
  if (/^(?:"\s*"|'\s*'|`\s*`)$/u.test(key) && inside.length === 1) return !inside[0]!.expands && !RUNNER_KEY.test(inside[0]!.text);
  if (/^\d+$/u.test(key)) return true;
  if (literalBound(blanked, key, literals) && !boundLiterals(blanked, key, literals).some((text) => RUNNER_KEY.test(text))) return true;
  // `.length` only where a subtraction makes it a number (`a[a.length - 1]`): an object's own `length` may be text.
  const numeric = key.replace(/[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\.\s*length\s*-\s*\d+/gu, '0').replace(/[A-Za-z_$][\w$]*/gu, (name) => (numbers.has(name) ? '0' : name));
  return /^[\s\d+\-*/%()]*$/u.test(numeric);
}

/** The index after `[` at `open` up to its `]` (nested), or the text's end. */
function closingBracket(code: string, open: number): number {
  let depth = 0;
  for (let index = open; index < code.length; index++) {
    if (code[index] === '[') depth++;
    else if (code[index] === ']' && --depth === 0) return index;
  }
  return code.length;
}

/**
 * Names that only hold numbers: one declared once to a number (`let i = 0`, a loop's counter) and otherwise only
 * stepped by numbers (`i++`, `i += 2`), and an array callback's index (`.map((x, i) => …)`) bound nowhere else. Every
 * other binding (`i = k`, `i ||= k`, `[i] = [k]`, `({ i } = o)`, `for (i of …)`, a parameter) makes it any value.
 */
function numericNames(blanked: string): Set<string> {
  const names = new Set<string>();
  const count = (pattern: string) => [...blanked.matchAll(new RegExp(pattern, 'gu'))].length;
  for (const name of new Set([...blanked.matchAll(/\b(?:let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*\d+\s*[;,)]/gu)].map((match) => match[1]!))) {
    const word = name.replace(/\$/gu, '\\$');
    const declared = count(String.raw`\b(?:let|var)\s+${word}\s*=\s*\d+\s*[;,)]`);
    const declaration = new RegExp(String.raw`\b(?:let|var)\s+${word}\s*=\s*\d+\s*[;,)]`, 'u').exec(blanked)!;
    if (!usesInScope(blanked, name, declaration.index)) continue;
    const steps = count(String.raw`(?<![\w$.])${word}\s*(?:\+\+|--|[-+]=\s*\d+(?![\w$.]))|(?:\+\+|--)\s*${word}(?![\w$])`);
    // A control header before a block (`for (…; i++) {`, `while (i < n) {`) reads to bindings() as a method's
    // parameters: those it counts so, by the same reading (`if (0 === i) {` it does not: review s15i row 7).
    const headers = parameterBindings(blanked, name, true);
    if (declared === 1 && bindings(blanked, name) === 1 + steps + headers) names.add(name);
  }
  // Only an array's (a Map's forEach hands a key, a Set's its value, any other object what it likes: review s04a).
  for (const match of blanked.matchAll(/\.\s*(?:forEach|map|filter|some|every|find|findIndex|flatMap)\s*\(\s*(?:function\s*)?\(\s*[A-Za-z_$][\w$]*\s*,\s*([A-Za-z_$][\w$]*)\s*[,)]/gu))
    if (arrayReceiver(blanked, match.index) && bindings(blanked, match[1]!) === 1) names.add(match[1]!);
  return names;
}

/** A key that reaches code or a loader from any value: a literal key or a name bound to literals must not be one. */
const RUNNER_KEY =
  /^(?:constructor|__proto__|prototype|caller|callee|arguments|require|eval|Function|_load|_compile|_resolveFilename|runInThisContext|runInNewContext|runInContext|compileFunction|register|runMain|mainModule|binding|_linkedBinding|dlopen|getBuiltinModule|createRequire|fork|Worker|exec|execSync|execFile|execFileSync|spawn|spawnSync|execa|execaSync|execaCommand|execaCommandSync|execaNode)$/u;

/** The texts of the literals `name` is bound to (literalBound says it is bound once, to literals only). */
function boundLiterals(blanked: string, name: string, literals: readonly Literal[]): string[] {
  const word = name.replace(/\$/gu, '\\$');
  const binding = new RegExp(String.raw`\bfor\s*\(\s*(?:const|let|var)\s+${word}\s+of\s+\[([^\]]*)\]\s*\)|\b(?:const|let|var)\s+${word}\s*=\s*([^;\n]*?)\s*${STATEMENT_END}`, 'mu').exec(blanked);
  if (binding === null) return [];
  const from = binding.index + binding[0].indexOf(binding[1] ?? binding[2]!);
  const to = from + (binding[1] ?? binding[2]!).length;
  return literals.filter((literal) => literal.start >= from && literal.end <= to).map((literal) => literal.text);
}
