import { printReport, type Row } from './report';
import { benchServerPush } from './server-push';

// `npm run bench`: each benchmark returns rows; one report is printed and written as JSON.
const rows: Row[] = [];
const only = process.argv[2];
if (!only || only === 'push') rows.push(...(await benchServerPush()));
printReport('Creative Gigs benchmarks', rows);
