// Grader for repo-maintainer.yaml: the answer must cite every FILE:LINE that the
// agent's own grep printed, and no other, so it reports what the command found,
// not what it guessed. It reads grep's output from the run's tool.result event.
// A grader is an ES module with no imports: it sees only the result it is given.

// No \b before src: in the summary, grep's lines are JSON text, so each follows a literal \n.
const LOCATION = /src\/[\w./-]+:\d+/g;

export function grade(result) {
  const grepCall = result.events.find((event) => event.type === 'tool.call' && event.tool === 'bash' && /^grep\b/.test(event.input.command));
  if (grepCall === undefined) return { pass: false, reason: 'the agent never ran grep' };
  const output = result.events.find((event) => event.type === 'tool.result' && event.id === grepCall.id);
  if (output === undefined || !output.ok) return { pass: false, reason: `grep (call ${grepCall.id}) did not succeed` };
  const found = new Set(output.summary.match(LOCATION) ?? []);
  const cited = new Set(result.final_text.match(LOCATION) ?? []);
  const missed = [...found].filter((location) => !cited.has(location));
  const invented = [...cited].filter((location) => !found.has(location));
  if (found.size === 0) return { pass: false, reason: 'grep found no FILE:LINE to cite' };
  if (missed.length > 0) return { pass: false, score: (found.size - missed.length) / found.size, reason: `the answer leaves out ${missed.join(', ')}` };
  if (invented.length > 0) return { pass: false, score: 0.5, reason: `the answer cites ${invented.join(', ')}, which grep did not print` };
  return { pass: true, score: 1, reason: `the answer cites all ${found.size} places grep printed: ${[...found].sort().join(', ')}` };
}
