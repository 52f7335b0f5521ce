/**
 * The one seeded pseudo-random source of the tests and benchmarks (mulberry32: tiny, fast, no
 * dependency, and the same seed gives the same sequence on every machine). A failing test run is
 * replayed with its seed; two benchmark runs with the same seed measure the same data.
 */
export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /**
   * One item of the list. An empty list gives `undefined` without drawing (callers that may pass
   * one check the result), so the sequence of draws does not depend on empty lists.
   */
  pick<T>(items: readonly T[]): T {
    return (items.length === 0 ? undefined : items[Math.floor(this.next() * items.length)]) as T;
  }

  /** `count` distinct items (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]!);
    return out;
  }

  /** Picks by weight: `[[value, weight], ...]`, one draw (`Object.entries(weights)` for a record of weights). */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [value, weight] of entries) {
      x -= weight;
      if (x < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** A word of lowercase letters, for generated text. */
  word(min = 3, max = 9): string {
    let out = '';
    const n = this.int(min, max);
    for (let i = 0; i < n; i++) out += String.fromCharCode(97 + this.int(0, 25));
    return out;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  /**
   * A child generator whose seed depends only on this one's seed and `label` (not on draws made so
   * far): one per endpoint, say, so adding one does not change the others' sequences.
   */
  fork(label: string): Rng {
    let h = this.seed ^ 0x9e3779b9;
    for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    return new Rng(h);
  }
}
