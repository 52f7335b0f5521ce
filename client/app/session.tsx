import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { User } from '../../shared/schemas/user';
import { api, ApiError } from '../lib/api';

const CACHE_KEY = 'gigs-session-user';

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
  logout(): Promise<void>;
  /** The server said the session is gone: forget it locally (the data provider closes the database). */
  signOutLocally(): void;
};

const SessionContext = createContext<SessionValue | null>(null);

function readCache(): User | null {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    return null;
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

/**
 * Who is signed in. The last known user is cached so the installed app opens offline; the server
 * is asked at start, and a 401 signs out cleanly while a network failure keeps the cached user.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(() => readCache() ?? undefined);
  const [operator, setOperator] = useState(false);

  const set = useCallback((u: User | null) => {
    writeCache(u);
    setUser(u);
  }, []);

  useEffect(() => {
    let cancelled = false;
    api<{ user: User; operator?: boolean }>('GET', '/api/auth/session').then(
      ({ user: fresh, operator: isOperator }) => {
        if (cancelled) return;
        set(fresh);
        setOperator(isOperator === true);
      },
      (err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 401) set(null);
        else setUser((current) => current ?? null); // offline: keep the cached user, if any
      },
    );
    return () => {
      cancelled = true;
    };
  }, [set]);

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
        writeCache(u);
        setOperator(isOperator === true);
        return u;
      },
      async signup(input) {
        const { user: u } = await api<{ user: User }>('POST', '/api/auth/signup', input);
        writeCache(u);
        return u;
      },
      async logout() {
        try {
          await api('POST', '/api/auth/logout');
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
