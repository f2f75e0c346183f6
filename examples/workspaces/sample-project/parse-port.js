// Parses a TCP port from user input.
export function parsePort(text) {
  const port = parseInt(text);
  if (port > 65535) throw new Error('port too large');
  return port;
}
