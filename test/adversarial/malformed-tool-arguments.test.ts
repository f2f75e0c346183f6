// Finding: a whole tool call whose arguments are not a JSON object ends the run
// (ZB_PROVIDER_FAILED "a stream zotbox cannot read") instead of being reported as a
// tool call refused for its input, which the model reads and corrects. Chat
// Completions does send such calls: OpenAI's function-calling guide says the model
// "does not always generate valid JSON"; local models write Python dicts or encode
// the object as a string, and the SDK passes the arguments on as text. The call
// finished (finish_reason tool_calls), so refusing it is not guessing at a cut-off
// call; failing the run is neither what the SDK does nor what docs/events.md says
// of calls refused for their input.
import test from 'ava';
import { endOf, openaiChunk, openaiText, runAgainst } from './harness.js';

for (const [label, args] of [
  ['a Python dict', "{'path': 'notes.md'}"],
  ['an object encoded as a JSON string', JSON.stringify(JSON.stringify({ path: 'notes.md' }))],
  ['JSON with a trailing comma', '{"path": "notes.md",}'],
] as const) {
  test(`openai: finished tool call arguments that are ${label} are reported and refused, and the run goes on`, async (t) => {
    const { events, requests } = await runAgainst(t, 'openai', (n, res) => {
      if (n > 0) return openaiText(res, 'Sorry, fixed.');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(openaiChunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: args } }] }));
      res.end(`${openaiChunk({}, 'tool_calls')}data: [DONE]\n\n`);
    });
    t.true(events.some((e) => e.type === 'tool.call' && e.tool === 'read'));
    t.true(events.some((e) => e.type === 'gate.decision' && e.tool === 'read' && !e.allowed));
    t.is(requests.length, 2, 'the model was told and asked again');
    t.like(endOf(events), { status: 'completed', final_text: 'Sorry, fixed.' });
  });
}

test('openai: a finished tool call with a name longer than 64 characters is reported and refused for its name, and the run goes on', async (t) => {
  const name = `repo_browser_${'open_file_'.repeat(6)}`;
  const { events } = await runAgainst(t, 'openai', (n, res) => {
    if (n > 0) return openaiText(res, 'Sorry, fixed.');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(openaiChunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '{}' } }] }));
    res.end(`${openaiChunk({}, 'tool_calls')}data: [DONE]\n\n`);
  });
  t.true(name.length > 64);
  t.true(events.some((e) => e.type === 'tool.call'));
  t.like(endOf(events), { status: 'completed', final_text: 'Sorry, fixed.' });
});
