/**
 * How hard a shared secret (DASHBOARD_TOKEN) is to guess, in bits, counted the way a guesser
 * would try: what it is built from (runs such as `abcd` or `9876`, repeats of an earlier part,
 * keyboard rows, common words, also with 0/1/3/4/5/7/@/$ for letters) costs only the few bits
 * of choosing that pattern; only characters that follow no pattern cost their full alphabet.
 * A deliberately rough model (like zxcvbn's, much smaller): it exists to refuse tokens a person
 * made up, never a random one (`openssl rand -base64 32` scores about 280 bits).
 */

const KEYBOARD_ROWS = [
  '1234567890',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'qazwsxedcrfvtgbyhnujmikolp',
];

/** Words people put in made-up tokens (lower case, at least 4 letters). */
const WORDS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'dashboard',
  'global',
  'risk',
  'admin',
  'administrator',
  'root',
  'user',
  'guest',
  'login',
  'letmein',
  'welcome',
  'hello',
  'default',
  'changeme',
  'change',
  'test',
  'testing',
  'demo',
  'example',
  'sample',
  'qwerty',
  'monkey',
  'dragon',
  'master',
  'shadow',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'superman',
  'batman',
  'trustno',
  'iloveyou',
  'love',
  'freedom',
  'whatever',
  'access',
  'secure',
  'security',
  'private',
  'server',
  'super',
  'correct',
  'horse',
  'battery',
  'staple',
  'company',
  'please',
  'open',
  'sesame',
  'key',
  'code',
  'api',
  'bearer',
  'auth',
].filter((w) => w.length >= 3);

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '!': 'i',
};

/** Bits per character that follows no pattern: log2 of the alphabet the token draws from. */
function alphabetBits(token: string): number {
  let size = 0;
  if (/[a-z]/.test(token)) size += 26;
  if (/[A-Z]/.test(token)) size += 26;
  if (/[0-9]/.test(token)) size += 10;
  if (/[^a-zA-Z0-9]/.test(token)) size += 33;
  return Math.log2(Math.max(size, 2));
}

/** Length of the run at `i` whose characters step by one constant amount (-3 … 3). */
function runLength(codes: number[], i: number): number {
  if (i + 1 >= codes.length) return 1;
  const step = (codes[i + 1] ?? 0) - (codes[i] ?? 0);
  if (Math.abs(step) > 3) return 1;
  let end = i + 1;
  while (end + 1 < codes.length && (codes[end + 1] ?? 0) - (codes[end] ?? 0) === step) end += 1;
  return end - i + 1;
}

/** Longest stretch at `i` that already appeared earlier in the token. */
function repeatLength(token: string, i: number): number {
  let best = 0;
  for (let length = 3; i + length <= token.length; length += 1) {
    if (token.slice(0, i + length - 1).includes(token.slice(i, i + length))) best = length;
    else break;
  }
  return best;
}

/** Longest piece of a keyboard row (either direction) at `i`, case-insensitive. */
function keyboardLength(lower: string, i: number): number {
  let best = 0;
  for (const row of KEYBOARD_ROWS) {
    for (const line of [row, [...row].reverse().join('')]) {
      for (let length = 4; i + length <= lower.length; length += 1) {
        if (line.includes(lower.slice(i, i + length))) best = Math.max(best, length);
        else break;
      }
    }
  }
  return best;
}

/** Longest common word at `i`, letters read through the usual digit and symbol swaps. */
function wordLength(plain: string, i: number): number {
  let best = 0;
  for (const word of WORDS) {
    if (word.length > best && plain.startsWith(word, i)) best = word.length;
  }
  return best;
}

export function guessingBits(token: string): number {
  const chars = [...token];
  const codes = chars.map((c) => c.codePointAt(0) ?? 0);
  const text = chars.join('');
  const lower = text.toLowerCase();
  const plain = [...lower].map((c) => LEET[c] ?? c).join('');
  const free = alphabetBits(token);
  let bits = 0;
  let i = 0;
  while (i < chars.length) {
    const candidates: Array<[length: number, cost: number]> = [
      // A run: its first character, its step and its length.
      [runLength(codes, i), free + 3 + Math.log2(chars.length)],
      // A repeat: where the earlier copy starts and how long it is.
      [repeatLength(text, i), 2 * Math.log2(chars.length + 1)],
      // A keyboard row: which row, where on it, which direction.
      [keyboardLength(lower, i), Math.log2(KEYBOARD_ROWS.length * 2 * 26)],
      // A word: which one, and its capitals.
      [wordLength(plain, i), Math.log2(WORDS.length) + 2],
    ];
    let step: [number, number] = [1, free];
    for (const [length, cost] of candidates) {
      // A pattern counts only where it is cheaper than its characters typed at random.
      if (length >= 3 && cost < length * free && length > step[0]) step = [length, cost];
    }
    bits += step[1];
    i += step[0];
  }
  return bits;
}
