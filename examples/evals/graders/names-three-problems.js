// Grader for code-reviewer.yaml: the review of parse-port.js must read the file and
// name its three problems (trailing garbage or NaN accepted, ports below 1, no radix),
// each as a numbered finding with a severity. The score is the share of problems named.
// A grader is an ES module with no imports: it sees only the result it is given.

const PROBLEMS = [
  { name: 'input that is not a number', pattern: /NaN|"80abc"|not a port/ },
  { name: 'ports below 1', pattern: /below 1|port < 1|negative/ },
  { name: 'parseInt without a radix', pattern: /radix/ },
];

export function grade(result) {
  const readIt = result.events.some((event) => event.type === 'tool.call' && event.tool === 'read' && event.input.path === 'parse-port.js');
  if (!readIt) return { pass: false, score: 0, reason: 'the review never read parse-port.js' };
  const findings = result.final_text.split('\n').filter((line) => /^\d+\. (major|minor|critical):/.test(line));
  const named = PROBLEMS.filter((problem) => problem.pattern.test(result.final_text));
  const missing = PROBLEMS.filter((problem) => !named.includes(problem)).map((problem) => problem.name);
  const score = named.length / PROBLEMS.length;
  if (findings.length !== PROBLEMS.length) return { pass: false, score, reason: `expected ${PROBLEMS.length} numbered findings with a severity, found ${findings.length}` };
  if (missing.length > 0) return { pass: false, score, reason: `the review does not name: ${missing.join(', ')}` };
  return { pass: true, score, reason: `three findings with severities, naming ${named.map((problem) => problem.name).join(', ')}` };
}
