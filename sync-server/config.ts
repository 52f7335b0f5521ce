import path from 'node:path';
import { z } from 'zod';
import { DAY_MS, DEFAULT_AUTO_RELEASE_DAYS } from '../shared/constants';
import type { WorkSettings } from '../shared/work-machine';
import { PLATFORM_COUNTRIES, type PlatformCountry } from './payments/payout-countries';

/**
 * Server configuration, read once from the environment and validated.
 * Every default makes `npm start` work on a fresh machine; the README lists every variable.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** When set, the store is this PostgreSQL database instead of DATA_DIR; any number of instances may share it. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  /** Connections each instance keeps to the database. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  DIST_DIR: z.string().min(1).default('./dist'),
  /** The public origin users reach the app on; used for the same-origin check and payment URLs. */
  PUBLIC_ORIGIN: z.string().url().optional(),
  /** Set when served over HTTPS: makes the session cookie Secure. */
  COOKIE_SECURE: z.enum(['true', 'false']).default('false'),
  /** log2 of the scrypt cost N. OWASP: 17. Tests lower it to stay fast; production never should. */
  SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(17),
  /** Milliseconds between background snapshots of the store. */
  SNAPSHOT_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** Journal lines after which a snapshot is taken early. */
  SNAPSHOT_EVERY_COMMITS: z.coerce.number().int().min(1).default(5_000),
  /** Turn rate limits off only for benchmarks. */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  COMMUNITY_CHAT_URL: z.string().url().default('https://chat.whatsapp.com/'),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** The Connect webhook endpoint's own secret: events about connected accounts (decision 007). */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Where the platform's Stripe account is: decides each payout account's service agreement (decision 007). */
  STRIPE_PLATFORM_COUNTRY: z
    .enum(PLATFORM_COUNTRIES, {
      error: `must be one of ${PLATFORM_COUNTRIES.join(', ')} (a country where Stripe offers self-serve cross-border payouts)`,
    })
    .default('CA'),
  /** Where the Stripe SDK sends its requests, e.g. http://127.0.0.1:12111 in tests. */
  STRIPE_API_BASE: z.string().url().optional(),
  LOG_LEVEL: z.enum(['silent', 'error', 'info']).default('info'),
  /** Milliseconds a chat room with nobody in it stays loaded before it is compacted and dropped. */
  CHAT_ROOM_IDLE_MS: z.coerce.number().int().min(0).default(60_000),
  /** How often the server looks for work a stored date made due (sync-server/timers/). */
  TIMER_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Web push's VAPID key pair (base64url); both or neither: unset, one is made at first start and kept in the store. */
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  /** Who push services may contact about this server's pushes: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: address or an https: URL')
    .optional(),
  /** The push services the server may send to (it POSTs to each subscription's endpoint). */
  PUSH_SERVICE_ORIGINS: z.string().min(1).optional(),
  /** Days delivered work waits for the buyer's answer before it is paid out automatically (decision 031). */
  AUTO_RELEASE_DAYS: z.coerce.number().int().min(1).max(365).default(DEFAULT_AUTO_RELEASE_DAYS),
  /** Comma-separated emails of the accounts that may resolve disputes at /operator/disputes. */
  OPERATOR_EMAILS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .max(254)
          .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'each entry must be an email address'),
      ),
    ),
});

export type Config = {
  port: number;
  host: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  distDir: string;
  publicOrigin: string | undefined;
  cookieSecure: boolean;
  scryptLogN: number;
  snapshotIntervalMs: number;
  snapshotEveryCommits: number;
  rateLimits: boolean;
  communityChatUrl: string;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeConnectWebhookSecret: string | undefined;
  stripePlatformCountry: PlatformCountry;
  stripeApiBase: string | undefined;
  logLevel: 'silent' | 'error' | 'info';
  chatRoomIdleMs: number;
  timerIntervalMs: number;
  /** Set in the environment, or undefined: the store's own pair is used (push/vapid.ts). */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /** Origins (`https://fcm.googleapis.com`) or wildcard hosts (`https://*.push.apple.com`) of push services. */
  pushServiceOrigins: readonly string[];
  autoReleaseDays: number;
  /** Lower-cased. */
  operatorEmails: readonly string[];
};

/** The browsers' push services: Chrome and Edge (FCM), Firefox, Safari, Windows. */
export const DEFAULT_PUSH_SERVICE_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://*.push.services.mozilla.com',
  'https://*.push.apple.com',
  'https://*.notify.windows.com',
] as const;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.VAPID_PUBLIC_KEY === undefined) !== (e.VAPID_PRIVATE_KEY === undefined))
    throw new Error('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both or neither');
  const pushServiceOrigins = e.PUSH_SERVICE_ORIGINS
    ? e.PUSH_SERVICE_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
    : [...DEFAULT_PUSH_SERVICE_ORIGINS];
  const badOrigin = pushServiceOrigins.find((o) => !/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(o));
  if (badOrigin !== undefined)
    throw new Error(
      `Invalid configuration:\n  PUSH_SERVICE_ORIGINS: ${badOrigin} is not an origin (https://host or https://*.domain)`,
    );
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    distDir: path.resolve(e.DIST_DIR),
    publicOrigin: e.PUBLIC_ORIGIN,
    cookieSecure: e.COOKIE_SECURE === 'true',
    scryptLogN: e.SCRYPT_LOG_N,
    snapshotIntervalMs: e.SNAPSHOT_INTERVAL_MS,
    snapshotEveryCommits: e.SNAPSHOT_EVERY_COMMITS,
    rateLimits: e.RATE_LIMITS === 'on',
    communityChatUrl: e.COMMUNITY_CHAT_URL,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripeConnectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET,
    stripePlatformCountry: e.STRIPE_PLATFORM_COUNTRY,
    stripeApiBase: e.STRIPE_API_BASE,
    logLevel: e.LOG_LEVEL,
    chatRoomIdleMs: e.CHAT_ROOM_IDLE_MS,
    timerIntervalMs: e.TIMER_INTERVAL_MS,
    vapidKeys:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    // Push services ask for a way to reach the sender; the public origin is one when it is https.
    vapidSubject:
      e.VAPID_SUBJECT ??
      (e.PUBLIC_ORIGIN?.startsWith('https://') ? e.PUBLIC_ORIGIN : 'mailto:webpush@creative-gigs.invalid'),
    pushServiceOrigins,
    autoReleaseDays: e.AUTO_RELEASE_DAYS,
    operatorEmails: e.OPERATOR_EMAILS,
  };
}

/** The application machine's settings from the configuration: how long delivered work waits (AUTO_RELEASE_DAYS). */
export function workSettings(config: Pick<Config, 'autoReleaseDays'>): WorkSettings {
  return { autoReleaseMs: config.autoReleaseDays * DAY_MS };
}
