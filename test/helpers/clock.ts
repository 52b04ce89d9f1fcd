/** A clock tests move by hand: pass `clock.now` to the demo upstream and the BFF alike. */
export class TestClock {
  constructor(public t: number = Date.UTC(2026, 10, 23, 5, 0, 0)) {}

  readonly now = (): number => this.t;

  advance(ms: number): void {
    this.t += ms;
  }

  set(at: number): void {
    this.t = at;
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
