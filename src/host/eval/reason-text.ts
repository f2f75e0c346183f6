// How a verdict's reason quotes text it saw (a final answer, a file): one JSON
// string, cut at 200 characters, so a reason stays one readable line.

export function quote(text: string): string {
  const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return JSON.stringify(shown);
}
