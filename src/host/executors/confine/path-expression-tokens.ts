// The tokens of a short path expression in Python, Perl or Ruby (one search-path argument), for the closed grammars of
// the search-path readers. A character outside them (an escape in a string, an operator they do not know) makes the
// whole expression untokenizable: undefined, never a partial reading. Pure.

export type Token =
  | { readonly kind: 'string'; readonly prefix: string; readonly quote: string; readonly body: string }
  | { readonly kind: 'name'; readonly text: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'punct'; readonly text: string };

const TOKEN =
  /(?<space>\s+)|(?<comment>#(?!\{).*)|(?<prefix>[rRuUbBfF]{0,2})(?<quote>["'])(?<body>(?:(?!\k<quote>)[^\\\n])*)\k<quote>|(?<name>(?:\$|@|\$:)?[A-Za-z_]\w*[?!]?|\$:)|(?<number>\d+)|(?<punct><<|::|->|\*\*|[()[\],./+:=*{}-])/uy;

/** The tokens of `text`, a comment ending them; undefined where a character is none of them. */
export function pathTokens(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const match = TOKEN.exec(text);
    if (match === null) return undefined;
    const group = match.groups!;
    if (group.comment !== undefined) break;
    if (group.quote !== undefined) tokens.push({ kind: 'string', prefix: group.prefix ?? '', quote: group.quote, body: group.body! });
    else if (group.name !== undefined) tokens.push({ kind: 'name', text: group.name });
    else if (group.number !== undefined) tokens.push({ kind: 'number', text: group.number });
    else if (group.punct !== undefined) tokens.push({ kind: 'punct', text: group.punct });
  }
  return tokens;
}

/** A cursor over tokens: what the recursive-descent readers step through. */
export class TokenCursor {
  at = 0;
  constructor(readonly tokens: readonly Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }

  /** Steps over punctuation `text` if it is next. */
  take(text: string): boolean {
    const token = this.peek();
    if (token === undefined || token.kind === 'string' || token.text !== text) return false;
    this.at++;
    return true;
  }

  /** The next token if it is a name, stepped over. */
  name(): string | undefined {
    const token = this.peek();
    if (token?.kind !== 'name') return undefined;
    this.at++;
    return token.text;
  }

  done(): boolean {
    return this.at >= this.tokens.length;
  }
}
