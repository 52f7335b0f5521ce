import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { User } from '../../shared/schemas/user';
import { api } from '../lib/api';
import { setSignedInUser } from '../lib/device-session';

const CACHE_KEY = 'gigs-session-user';
/** A logout made offline: the server has not ended the session yet; it is told at the next start. */
const LOGOUT_PENDING_KEY = 'gigs-logout-pending';

/** Records who is signed in for the service worker; a failure is said in the console (the session goes on). */
const recordSignedInUser = (userId: string | null) =>
  setSignedInUser(userId).catch((err: unknown) =>
    console.warn('This device could not record who is signed in, for its notifications:', err),
  );

export type SignupInput = {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  termsAccepted: boolean;
};

type SessionValue = {
  /** The signed-in user, undefined while the first check runs, null when signed out. */
  user: User | null | undefined;
  /** The server said this account is an operator (OPERATOR_EMAILS): the nav links the disputes page. */
  operator: boolean;
  /** Checks the credentials and opens a server session; the page then calls establish() when it moves on. */
  login(email: string, password: string): Promise<User>;
  signup(input: SignupInput): Promise<User>;
  /** Makes the signed-in user known to the app (after the success message and its timed redirect). */
  establish(user: User): void;
  /**
   * Ends the session here and on the server (told later when offline). `beforeServer` runs first
   * (the device's push subscription ends), `beforeSignOut` last, before the app shows the user
   * signed out (the signed-in area deletes the user's data there). Every other tab signs out at once.
   */
  logout(steps?: { beforeServer?: () => Promise<void>; beforeSignOut?: () => Promise<void> }): Promise<void>;
  /** Signs out here only (the data provider closes the database). */
  signOutLocally(): void;
  /**
   * Set by the signed-in area while it is open: what to do when the check at start finds that the
   * server ended the session of the user it is open for (app/session-ended.ts). Unset, that signs
   * out without deleting anything.
   */
  onEnded: { current: (() => void) | null };
};

const SessionContext = createContext<SessionValue | null>(null);

function readCacheOf(raw: string | null): User | null {
  try {
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    return null;
  }
}

function readCache(): User | null {
  try {
    return readCacheOf(localStorage.getItem(CACHE_KEY));
  } catch {
    return null;
  }
}

function flag(key: string, on: boolean) {
  try {
    if (on) localStorage.setItem(key, '1');
    else localStorage.removeItem(key);
  } catch {
    // Storage unavailable.
  }
}

function flagged(key: string): boolean {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

function writeCache(user: User | null) {
  try {
    if (user) localStorage.setItem(CACHE_KEY, JSON.stringify(user));
    else localStorage.removeItem(CACHE_KEY);
  } catch {
    // Private mode or full storage: the session then lasts for this page only.
  }
}

type MeAnswer = { user: User | null; operator?: boolean };

const askWhoIsSignedIn = () => api<MeAnswer>('GET', '/api/auth/me');

/** The session check at start, when main.tsx began it; the provider takes it once. */
let earlyCheck: Promise<MeAnswer> | undefined;

/**
 * Asks the server who is signed in, before the first page's code has loaded (main.tsx), so that
 * the round trip runs beside those downloads instead of after them: on a new device the data layer
 * waits for this answer (decision 008). Not after a logout made offline, which the server is told
 * of first.
 */
export function beginSessionCheck(): void {
  if (earlyCheck || flagged(LOGOUT_PENDING_KEY)) return;
  earlyCheck = askWhoIsSignedIn();
  earlyCheck.catch(() => undefined); // awaited by the provider; offline is handled there
}

function takeSessionCheck(): Promise<MeAnswer> {
  const check = earlyCheck ?? askWhoIsSignedIn();
  earlyCheck = undefined;
  return check;
}

/**
 * Who is signed in. The last known user is cached so the installed app opens offline; the server
 * is asked at start, and a 401 signs out cleanly while a network failure keeps the cached user.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(() => readCache() ?? undefined);
  const [operator, setOperator] = useState(false);
  const onEnded = useRef<(() => void) | null>(null);

  const set = useCallback((u: User | null) => {
    writeCache(u);
    // Where the service worker reads it: pushes for anyone else are not shown here.
    void recordSignedInUser(u?.id ?? null);
    setUser(u);
  }, []);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      if (flagged(LOGOUT_PENDING_KEY)) {
        // Logged out offline: the session is ended on the server first, and never resumed here.
        try {
          await api('POST', '/api/auth/logout');
          flag(LOGOUT_PENDING_KEY, false);
        } catch {
          // Still offline: signed out here all the same; told again at the next start.
        }
        if (!cancelled) set(null);
        return;
      }
      try {
        const { user: fresh, operator: isOperator } = await takeSessionCheck();
        if (cancelled) return;
        if (!fresh && onEnded.current) onEnded.current();
        else set(fresh);
        setOperator(isOperator === true);
      } catch {
        // Offline: keep the cached user, if any.
        if (!cancelled) setUser((current) => current ?? null);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [set]);

  // Another tab signed in or out: this one follows (signing out closes its data, so a logout there
  // can delete it).
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== CACHE_KEY && e.key !== null) return;
      setUser(readCacheOf(e.key === null ? null : e.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const value = useMemo<SessionValue>(
    () => ({
      user,
      operator: Boolean(user) && operator,
      async login(email, password) {
        const { user: u, operator: isOperator } = await api<{ user: User; operator?: boolean }>(
          'POST',
          '/api/auth/login',
          { email, password },
        );
        // A new session: whatever logout was pending is done (the login ended the old session).
        flag(LOGOUT_PENDING_KEY, false);
        writeCache(u);
        setOperator(isOperator === true);
        return u;
      },
      async signup(input) {
        const { user: u } = await api<{ user: User }>('POST', '/api/auth/signup', input);
        flag(LOGOUT_PENDING_KEY, false);
        writeCache(u);
        return u;
      },
      async logout(steps = {}) {
        // The other tabs sign out now (a storage event): they close their data before it is deleted.
        writeCache(null);
        await steps.beforeServer?.().catch(() => undefined);
        try {
          await api('POST', '/api/auth/logout');
          flag(LOGOUT_PENDING_KEY, false);
        } catch {
          // Offline (or the server is unreachable): the session is ended there at the next start.
          flag(LOGOUT_PENDING_KEY, true);
        }
        await recordSignedInUser(null);
        try {
          await steps.beforeSignOut?.();
        } finally {
          set(null);
        }
      },
      establish(u) {
        set(u);
      },
      signOutLocally() {
        set(null);
      },
      onEnded,
    }),
    [user, operator, set],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession() outside <SessionProvider>');
  return value;
}
