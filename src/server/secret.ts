import { inspect } from 'node:util';

/**
 * Holds the API key so that no accidental `console.log(config)`, `JSON.stringify`, template string
 * or pino serialisation can print it. Only the upstream client calls `reveal()`.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[redacted]';
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return '[redacted]';
  }
}
