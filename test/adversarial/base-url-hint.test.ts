// Finding: a base URL pasted with the endpoint path already on it (the most common
// slip: OPENAI_BASE_URL=http://127.0.0.1:11434/v1/chat/completions, or an
// Anthropic base ending in /v1/messages) gets a 404 whose hint is wrong: for
// OpenAI it says "try http://127.0.0.1:11434/v1/chat/completions/v1"; for
// Anthropic it does not say to drop /v1/messages. Promise: 404s suggest the fix.
import test from 'ava';
import { baseUrlHint } from '../../src/host/providers/base-url-hint.js';

test('openai: a base URL ending in /chat/completions is told to drop it, not to append /v1', (t) => {
  const hint = baseUrlHint('openai', 'http://127.0.0.1:11434/v1/chat/completions');
  t.notRegex(hint, /chat\/completions\/v1/, hint);
  t.regex(hint, /try http:\/\/127\.0\.0\.1:11434\/v1(?![\w/])/, hint);
});

test('anthropic: a base URL ending in /v1/messages is told to drop it', (t) => {
  const hint = baseUrlHint('anthropic', 'https://gateway.example/v1/messages');
  t.regex(hint, /try https:\/\/gateway\.example(?![\w/])/, hint);
});
