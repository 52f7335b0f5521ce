import type { Page } from 'playwright-core';

/**
 * Times `count` steps in the page, each from its start to the next frame drawn (a frame, then a
 * turn of the event loop after it, so the frame's work is counted): what a user feels between a
 * click or a keystroke and the screen answering it. `step` is the source of an in-page function of
 * the step's index, `setup` statements run once before the first (declaring what `step` uses).
 * Source strings, not functions: tsx's name helpers (__name) do not exist in the page.
 */
export function timedSteps(page: Page, count: number, step: string, setup = ''): Promise<number[]> {
  return page.evaluate(`(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    ${setup}
    const step = ${step};
    const times = [];
    for (let i = 0; i < ${count}; i += 1) {
      const t0 = performance.now();
      step(i);
      await frame();
      times.push(performance.now() - t0);
    }
    return times;
  })()`) as Promise<number[]>;
}
