import { describe, expect, it } from 'vitest';
import { OPEN_URL_MESSAGE } from '../../shared/push-links';
import { pushPayload } from '../../shared/push-payload';
import { handleNotificationClick, handlePush, type AppWindow, type PushDeps } from './push-handlers';

const payload = pushPayload({
  id: 'n1abc2',
  userId: 'u1abc2',
  type: 'new_message',
  message: 'Bea: can you start Monday?',
  senderId: 's1abc2',
  conversationId: 's1abc2_u1abc2',
  createdAt: 1_700_000_000_000,
});

function device(signedIn: string | null, pushUser: string | null = null) {
  const shown: { title: string; options: Parameters<PushDeps['showNotification']>[1] }[] = [];
  const device = { subscribed: true, dropped: [] as string[] };
  const deps: PushDeps = {
    showNotification: async (title, options) => {
      shown.push({ title, options });
    },
    signedInUser: async () => signedIn,
    pushUser: async () => pushUser,
    unsubscribe: async () => {
      device.subscribed = false;
    },
    dropped: (reason) => device.dropped.push(reason),
  };
  return { shown, deps, device };
}

describe('the service worker’s push handler', () => {
  it('shows the notifications page’s text, tagged by conversation, with its click target', async () => {
    const { shown, deps } = device('u1abc2');
    await handlePush(JSON.stringify(payload), deps);
    expect(shown).toEqual([
      {
        title: 'Creative Gigs',
        options: expect.objectContaining({
          body: 'Bea: can you start Monday?',
          tag: 'conversation-s1abc2_u1abc2',
          renotify: true,
          timestamp: 1_700_000_000_000,
          data: { url: '/exchange/s1abc2', notificationId: 'n1abc2', userId: 'u1abc2' },
        }),
      },
    ]);
  });

  it('keeps the device subscribed when it shows a push for the user signed in', async () => {
    const { deps, device: d } = device('u1abc2');
    await handlePush(JSON.stringify(payload), deps);
    expect(d.subscribed).toBe(true);
    expect(d.dropped).toEqual([]);
  });

  it.each([
    ['nobody is signed in on this device (a logout made offline)', null, 'nobody is signed in on this device'],
    ['another user is signed in on this device', 'other1', 'it is for another user than the one signed in here'],
  ])('shows nothing and ends the device’s push subscription when %s, and says why', async (_label, signedIn, why) => {
    const { shown, deps, device: d } = device(signedIn);
    expect(await handlePush(JSON.stringify(payload), deps)).toBeNull();
    expect(shown).toEqual([]);
    expect(d.subscribed).toBe(false);
    expect(d.dropped).toEqual([why]);
  });

  it('ends the subscription when another user is signed in and notifications were last turned on for someone else', async () => {
    for (const owner of [null, 'u1abc2', 'third1']) {
      const { deps, device: d } = device('other1', owner);
      await handlePush(JSON.stringify(payload), deps);
      expect(d.subscribed).toBe(false);
      expect(d.dropped).toEqual(['it is for another user than the one signed in here']);
    }
  });

  it('keeps the subscription of the user signed in, who turned notifications on here, when a push sent to the previous user arrives', async () => {
    const { shown, deps, device: d } = device('other1', 'other1');
    expect(await handlePush(JSON.stringify(payload), deps)).toBeNull();
    expect(shown).toEqual([]);
    expect(d.subscribed).toBe(true);
    expect(d.dropped).toEqual([
      'it was sent to this device’s previous user, before the one signed in here turned notifications on',
    ]);
  });

  it('ends the subscription when nobody is signed in, whoever turned notifications on last', async () => {
    const { deps, device: d } = device(null, 'u1abc2');
    await handlePush(JSON.stringify(payload), deps);
    expect(d.subscribed).toBe(false);
  });

  it('ends the subscription when the device cannot tell whose notifications it carries', async () => {
    const { deps, device: d } = device('other1');
    deps.pushUser = () => Promise.reject(new Error('IndexedDB unavailable'));
    await handlePush(JSON.stringify(payload), deps);
    expect(d.subscribed).toBe(false);
  });

  it('shows nothing even when ending the subscription fails', async () => {
    const { shown, deps } = device(null);
    deps.unsubscribe = () => Promise.reject(new Error('no push service'));
    expect(await handlePush(JSON.stringify(payload), deps)).toBeNull();
    expect(shown).toEqual([]);
  });

  it('shows nothing but keeps the subscription when the device cannot tell who is signed in', async () => {
    const { shown, deps, device: d } = device('u1abc2');
    deps.signedInUser = () => Promise.reject(new Error('IndexedDB unavailable'));
    expect(await handlePush(JSON.stringify(payload), deps)).toBeNull();
    expect(shown).toEqual([]);
    expect(d.subscribed).toBe(true);
    expect(d.dropped).toEqual(['this device could not tell who is signed in (Error: IndexedDB unavailable)']);
  });

  it('shows nothing for a push that is not ours, and keeps the subscription', async () => {
    const { shown, deps, device: d } = device('u1abc2');
    for (const text of [null, '', 'hi', JSON.stringify({ ...payload, url: 'https://evil.example' })])
      await handlePush(text, deps);
    expect(shown).toEqual([]);
    expect(d.subscribed).toBe(true);
  });
});

function window(url: string, focused = false) {
  const w = {
    url,
    focused,
    focusCalls: 0,
    messages: [] as unknown[],
    focus: async () => {
      w.focusCalls += 1;
    },
    postMessage: (m: unknown) => w.messages.push(m),
  };
  return w satisfies AppWindow;
}

describe('the service worker’s notification click handler', () => {
  it('focuses an open window of the app and has it open the URL', async () => {
    const other = window('http://app/landing');
    const focused = window('http://app/notifications', true);
    const opened: string[] = [];
    const result = await handleNotificationClick(
      { url: '/basket?view=seller' },
      { windows: async () => [other, focused], openWindow: async (u) => opened.push(u) },
    );
    expect(result).toBe('focused');
    expect(focused.focusCalls).toBe(1);
    expect(focused.messages).toEqual([{ type: OPEN_URL_MESSAGE, url: '/basket?view=seller' }]);
    expect(other.messages).toEqual([]);
    expect(opened).toEqual([]);
  });

  it('still sends the window to the URL when the browser refuses to focus it', async () => {
    const w = window('http://app/landing');
    w.focus = () => Promise.reject(new Error('Not allowed to focus a window.'));
    await handleNotificationClick({ url: '/applications' }, { windows: async () => [w], openWindow: async () => null });
    expect(w.messages).toEqual([{ type: OPEN_URL_MESSAGE, url: '/applications' }]);
  });

  it('opens a new window at the URL when the app is not open', async () => {
    const opened: string[] = [];
    const result = await handleNotificationClick(
      { url: '/exchange/s1abc2' },
      { windows: async () => [], openWindow: async (u) => opened.push(u) },
    );
    expect(result).toBe('opened');
    expect(opened).toEqual(['/exchange/s1abc2']);
  });

  it('never opens anything but a page of the app', async () => {
    const opened: string[] = [];
    for (const data of [{ url: 'https://evil.example' }, { url: '//evil.example' }, null, 'x'])
      await handleNotificationClick(data, { windows: async () => [], openWindow: async (u) => opened.push(u) });
    expect(opened).toEqual(['/notifications', '/notifications', '/notifications', '/notifications']);
  });
});
