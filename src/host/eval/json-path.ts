// The JSON path subset file_json takes: `$`, then `.key`, `["key"]` or `[index]`
// steps (the suite schema checks the syntax). Own properties only: a step never
// reaches a prototype ("$.constructor" finds nothing).

export type JsonPathLookup = { readonly found: true; readonly value: unknown } | { readonly found: false };

export function jsonPathValue(document: unknown, jsonPath: string): JsonPathLookup {
  let value = document;
  for (const step of jsonPathSteps(jsonPath)) {
    if (typeof step === 'number') {
      if (!Array.isArray(value) || step >= value.length) return { found: false };
      value = value[step] as unknown;
    } else {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, step)) return { found: false };
      value = (value as Record<string, unknown>)[step];
    }
  }
  return { found: true, value };
}

/** The steps of a path the schema accepted: keys as strings, indexes as numbers. */
export function jsonPathSteps(jsonPath: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const step = /\.([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  step.lastIndex = 1; // after the "$"
  for (let match = step.exec(jsonPath); match !== null; match = step.exec(jsonPath)) {
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else steps.push(JSON.parse(match[3] ?? '""') as string);
  }
  return steps;
}
