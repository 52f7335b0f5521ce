import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deviceKeys } from '../../data/device-storage';
import { PREVIEW_WAIT_MS, previewGate } from './board-preview';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  };
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

/** The board's copy of `userId` as the board writes it (data/board-copy.ts), with `ids` gigs. */
function keepCopy(userId: string, ids: string[]) {
  const gigs = ids.map((id) => ({ id, title: `Gig ${id}` }));
  store.set(deviceKeys(userId).boardCopy, JSON.stringify({ v: 1, gigs, applied: [], ratings: [] }));
}

/** Milliseconds until `p` settles. */
async function timeOf(p: Promise<void>): Promise<number> {
  const t = performance.now();
  await p;
  return performance.now() - t;
}

describe('previewGate: when the data opens on a reload of the board', () => {
  it('without a copy (or an empty one) there is nothing to draw first: no gate, the data opens at once', () => {
    expect(previewGate('u1')).toBeNull();
    keepCopy('u1', []);
    expect(previewGate('u1')).toBeNull();
  });

  it('with a copy, the data opens once the cards are painted', async () => {
    keepCopy('u2', ['g1', 'g2']);
    const gate = previewGate('u2')!;
    setTimeout(gate.painted, 20);
    expect(await timeOf(gate.opened)).toBeLessThan(PREVIEW_WAIT_MS / 2);
  });

  it('with a copy never painted (a tab in the background), the data opens after PREVIEW_WAIT_MS', async () => {
    keepCopy('u3', ['g1']);
    expect(await timeOf(previewGate('u3')!.opened)).toBeGreaterThanOrEqual(PREVIEW_WAIT_MS - 5);
  });
});
