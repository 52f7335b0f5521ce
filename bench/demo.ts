import fs from 'node:fs/promises';
import path from 'node:path';
import { COUNTRIES, NICHES } from '../shared/constants';
import { generateDataDir, openDataDirStore, parseSize, type DemoAccount } from './data/generate';

/**
 * `npm run demo [-- --force] [-- --gigs=300]`: fills a fresh DATA_DIR (default ./data) with a
 * demo marketplace (gigs in every niche and country, applications at every stage, offers,
 * payments, chats and notifications) and a few accounts anyone can sign in to. The README lists
 * them; keep the two in step.
 */
export const DEMO_PASSWORD = 'CreativeGigs1';

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    name: 'Amara Okafor',
    email: 'amara@example.com',
    password: DEMO_PASSWORD,
    location: 'NG',
    niche: 'visual_art',
    subcategory: 'Illustration',
  },
  {
    name: 'Jordan Lee',
    email: 'jordan@example.com',
    password: DEMO_PASSWORD,
    location: 'US',
    niche: 'music_and_sound',
    subcategory: 'Production',
  },
  {
    name: 'Priya Shah',
    email: 'priya@example.com',
    password: DEMO_PASSWORD,
    location: 'GB',
    niche: 'writing',
    subcategory: 'Copywriting',
  },
  {
    name: 'Sam Tremblay',
    email: 'sam@example.com',
    password: DEMO_PASSWORD,
    location: 'CA',
    niche: 'media',
    subcategory: 'Photography',
  },
  {
    name: 'Léa Martin',
    email: 'lea@example.com',
    password: DEMO_PASSWORD,
    location: 'FR',
    niche: 'fashion',
    subcategory: 'Styling',
  },
];

const DEFAULT_GIGS = 300;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--force' && !a.startsWith('--gigs='));
  if (unknown.length > 0) {
    console.error(
      `Unknown argument ${unknown.join(' ')}. Usage: npm run demo [-- --force] [-- --gigs=${DEFAULT_GIGS}]`,
    );
    return 2;
  }
  const force = args.includes('--force');
  const gigs = parseSize(args.find((a) => a.startsWith('--gigs='))?.slice('--gigs='.length) ?? String(DEFAULT_GIGS));
  // Gig i is in niche i mod 8 and country ⌊i / 8⌋ mod 5: one round covers every pair.
  const round = NICHES.length * COUNTRIES.length;
  if (gigs < round) {
    console.error(`--gigs must be at least ${round}, so every niche has gigs in every country.`);
    return 2;
  }
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const entries = await fs.readdir(dataDir).catch(() => [] as string[]);
  if (entries.length > 0) {
    if (!force) {
      console.error(
        `${dataDir} already holds data (${entries.length} entries). The demo only fills an empty data folder.`,
      );
      console.error(
        'Stop the server, then run `npm run demo -- --force` to delete that data and replace it with the demo, or set DATA_DIR to another folder.',
      );
      return 1;
    }
    console.log(`--force: deleting the data in ${dataDir}`);
    for (const entry of entries) await fs.rm(path.join(dataDir, entry), { recursive: true, force: true });
  }
  console.log(`Generating a demo marketplace of ${gigs} gigs in ${dataDir}…`);
  const started = performance.now();
  const generated = await generateDataDir(dataDir, { gigs, demoAccounts: DEMO_ACCOUNTS });
  const seconds = (performance.now() - started) / 1000;
  const c = generated.counts;
  console.log(
    `Done in ${seconds.toFixed(1)} s: ${c.users} users, ${c.gigs} gigs, ${c.applications} applications, ${c.notifications} notifications, ${c.conversations} conversations with ${c.chatMessages} messages.`,
  );

  // What each demo account finds when it signs in.
  const store = await openDataDirStore(dataDir);
  const rows: string[][] = [['Email', 'Password', 'Name', 'Country', 'Niche', 'Gigs posted', 'Applications', 'Chats']];
  try {
    const users = [...store.all('users')];
    const gigsAll = [...store.all('gigs')];
    const applications = [...store.all('applications')];
    const conversations = [...store.all('conversations')];
    for (const account of DEMO_ACCOUNTS) {
      const user = users.find((u) => u.email === account.email);
      if (!user) throw new Error(`demo account ${account.email} was not written`);
      rows.push([
        account.email,
        account.password,
        account.name,
        COUNTRIES.find((k) => k.code === account.location)!.name,
        `${NICHES.find((n) => n.id === account.niche)!.name} (${account.subcategory})`,
        String(gigsAll.filter((g) => g.createdBy === user.id).length),
        `${applications.filter((a) => a.applicantId === user.id).length} sent, ${applications.filter((a) => a.creatorId === user.id).length} received`,
        String(conversations.filter((k) => (k.participants as string[]).includes(user.id)).length),
      ]);
    }
  } finally {
    await store.close();
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log('\nDemo accounts (all other generated users cannot sign in):\n');
  for (const r of rows) console.log('  ' + r.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  console.log(
    `\nStart the app with \`npm start\`${process.env.DATA_DIR ? ` and DATA_DIR=${process.env.DATA_DIR}` : ''} and sign in at http://localhost:${process.env.PORT ?? 8080}/login.`,
  );
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main();
}
