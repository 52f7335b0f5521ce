import { indexedDB as fakeIndexedDB } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSignedInUser, signedInUser } from './device-session';
import { pushUser, setPushUser } from './push-user';

/**
 * An IndexedDB whose opens complete when the test says: `open` hands back a request whose events
 * are forwarded from the real (fake-indexeddb) open once it is released.
 */
function heldOpens() {
  const held: (() => void)[] = [];
  let holding = false;
  const factory = {
    open(name: string, version?: number) {
      const request: Record<string, unknown> & { result?: unknown; error?: unknown } = {};
      const go = () => {
        const real = fakeIndexedDB.open(name, version);
        for (const event of ['onupgradeneeded', 'onsuccess', 'onerror'] as const) {
          real[event] = () => {
            request.result = real.readyState === 'done' && !real.error ? real.result : undefined;
            request.error = real.readyState === 'done' ? real.error : null;
            (request[event] as (() => void) | undefined)?.();
          };
        }
      };
      if (holding) held.push(go);
      else go();
      return request;
    },
  };
  return {
    factory,
    hold: () => (holding = true),
    /** Later opens go at once; those held stay held. */
    stopHolding: () => (holding = false),
    /** Lets the held opens go, the last asked first. */
    releaseInReverse: () => {
      holding = false;
      for (const go of held.splice(0).reverse()) go();
    },
  };
}

describe('the device’s signed-in user', () => {
  let opens: ReturnType<typeof heldOpens>;
  beforeEach(() => {
    opens = heldOpens();
    vi.stubGlobal('indexedDB', opens.factory);
  });
  afterEach(async () => {
    opens.releaseInReverse();
    await setSignedInUser(null);
    await setPushUser(null);
    vi.unstubAllGlobals();
  });

  it('is who signed in last, and nobody after a logout', async () => {
    await setSignedInUser('u-1');
    expect(await signedInUser()).toBe('u-1');
    await setSignedInUser('u-2');
    expect(await signedInUser()).toBe('u-2');
    await setSignedInUser(null);
    expect(await signedInUser()).toBeNull();
  });

  it('lands a logout after a login still opening the database, so the record names nobody', async () => {
    opens.hold();
    const login = setSignedInUser('u-1');
    const logout = setSignedInUser(null);
    // The logout's connection would open first.
    opens.releaseInReverse();
    await Promise.all([login, logout]);
    expect(await signedInUser()).toBeNull();
  });

  it('does not let a login whose storage has not answered hold the logout, or land after it', async () => {
    opens.hold();
    const login = setSignedInUser('u-1'); // its open has not completed
    opens.stopHolding();
    await setSignedInUser(null);
    expect(await signedInUser()).toBeNull();
    opens.releaseInReverse(); // the login's open completes at last
    await login;
    expect(await signedInUser()).toBeNull();
  });

  it('goes on writing after a write that failed', async () => {
    vi.stubGlobal('indexedDB', {
      open: () => {
        const request: Record<string, unknown> = { error: new Error('storage is full') };
        queueMicrotask(() => (request.onerror as () => void)());
        return request;
      },
    });
    await expect(setSignedInUser('u-1')).rejects.toThrow('storage is full');
    vi.stubGlobal('indexedDB', opens.factory);
    await setSignedInUser('u-2');
    expect(await signedInUser()).toBe('u-2');
  });

  it('keeps whose notifications the push subscription carries apart from who is signed in', async () => {
    expect(await pushUser()).toBeNull();
    await setSignedInUser('u-1');
    await setPushUser('u-1');
    await setSignedInUser('u-2');
    expect(await pushUser()).toBe('u-1');
    await setPushUser('u-2');
    expect(await pushUser()).toBe('u-2');
    expect(await signedInUser()).toBe('u-2');
    await setPushUser(null);
    expect(await pushUser()).toBeNull();
    expect(await signedInUser()).toBe('u-2');
  });
});
