import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { devicePushState, enableDevicePush, forgetDevicePush } from './web-push';

// The Settings screen's check of this device (docs/decisions/030-installed-app.md, "Revised"): a
// browser subscription made for another VAPID key than the server's shows as not subscribed.

const api = vi.hoisted(() => vi.fn());
vi.mock('./api', () => ({ api }));
const setPushUser = vi.hoisted(() => vi.fn(async (_userId: string | null) => undefined));
const pushUser = vi.hoisted(() => vi.fn(async (): Promise<string | null> => null));
vi.mock('./push-user', () => ({ setPushUser, pushUser }));

const key = (fill: number) => {
  const bytes = new Uint8Array(65).fill(fill);
  bytes[0] = 4;
  return bytes;
};
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function deviceWith(subscription: { endpoint: string; applicationServerKey: Uint8Array } | null) {
  const browser = subscription && {
    endpoint: subscription.endpoint,
    options: { userVisibleOnly: true, applicationServerKey: subscription.applicationServerKey.slice().buffer },
  };
  const registration = { pushManager: { getSubscription: async () => browser } };
  vi.stubGlobal('navigator', { serviceWorker: { ready: Promise.resolve(registration) } });
}

const serverKey = key(7);
const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';

beforeEach(() => {
  api.mockImplementation(async (_method: string, path: string) => {
    if (path === '/api/push/key') return { publicKey: base64url(serverKey) };
    if (path.startsWith('/api/push/subscription?')) return { subscribed: true, types: ['new_message'] };
    throw new Error(`unexpected ${path}`);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  api.mockReset();
  setPushUser.mockClear();
  pushUser.mockReset();
  pushUser.mockResolvedValue(null);
});

describe('whether notifications are on for this device', () => {
  it('asks the server when the browser’s subscription was made with the server’s key', async () => {
    deviceWith({ endpoint, applicationServerKey: serverKey });
    expect(await devicePushState()).toEqual({ subscribed: true, types: ['new_message'] });
  });

  it('says not subscribed when the browser’s subscription was made with another key (the server’s keys changed)', async () => {
    deviceWith({ endpoint, applicationServerKey: key(9) });
    expect(await devicePushState()).toEqual({ subscribed: false, types: [] });
    expect(api.mock.calls.map(([, path]) => path)).not.toContainEqual(
      expect.stringContaining('/api/push/subscription'),
    );
  });

  it('says not subscribed when the browser has no subscription', async () => {
    deviceWith(null);
    expect(await devicePushState()).toEqual({ subscribed: false, types: [] });
  });
});

describe('signing out of this device', () => {
  it('ends the subscription and closes what is shown even when the device storage does not answer', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    try {
      setPushUser.mockReturnValueOnce(new Promise<undefined>(() => undefined));
      const unsubscribe = vi.fn(async () => true);
      const close = vi.fn();
      const registration = {
        pushManager: { getSubscription: async () => ({ unsubscribe }) },
        getNotifications: async () => [{ close }],
      };
      vi.stubGlobal('navigator', { serviceWorker: { getRegistration: async () => registration } });
      vi.stubGlobal('window', { PushManager: class {}, Notification: class {} });
      let finished = false;
      const signingOut = forgetDevicePush().then(() => (finished = true));
      await vi.advanceTimersByTimeAsync(2_999);
      expect(finished).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await signingOut;
      expect(setPushUser).toHaveBeenCalledWith(null);
      expect(unsubscribe).toHaveBeenCalledOnce();
      expect(close).toHaveBeenCalledOnce();
      expect(warn).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });
});

describe('turning notifications on for this device', () => {
  /** A device whose browser already subscribed with the server's key, and notifications allowed. */
  function allowedDevice() {
    const subscription = {
      endpoint,
      options: { userVisibleOnly: true, applicationServerKey: serverKey.slice().buffer },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } }),
    };
    const registration = { pushManager: { getSubscription: async () => subscription } };
    vi.stubGlobal('navigator', { serviceWorker: { ready: Promise.resolve(registration) } });
    vi.stubGlobal('Notification', { permission: 'granted' });
  }
  /** What happened, in order: the device's record written, the server asked. */
  const steps: string[] = [];
  beforeEach(() => {
    steps.length = 0;
    setPushUser.mockImplementation(async (userId) => void steps.push(`record ${userId}`));
  });

  it('records the user before asking the server, so a push for the previous user arriving meanwhile cannot end it', async () => {
    allowedDevice();
    api.mockImplementation(async (_method: string, path: string) => {
      if (path === '/api/push/key') return { publicKey: base64url(serverKey) };
      steps.push(`server ${path}`);
      return { subscribed: true, types: ['new_message'] };
    });
    expect(await enableDevicePush('u-ada', ['new_message'])).toEqual({ subscribed: true, types: ['new_message'] });
    expect(steps).toEqual(['record u-ada', 'server /api/push/subscribe']);
  });

  it('puts the record back as it was when the server does not take the subscription', async () => {
    allowedDevice();
    pushUser.mockResolvedValue('u-ada');
    api.mockImplementation(async (_method: string, path: string) => {
      if (path === '/api/push/key') return { publicKey: base64url(serverKey) };
      steps.push(`server ${path}`);
      throw new Error('You are offline.');
    });
    await expect(enableDevicePush('u-ben', ['new_message'])).rejects.toThrow('You are offline.');
    expect(steps).toEqual(['record u-ben', 'server /api/push/subscribe', 'record u-ada']);
  });
});
