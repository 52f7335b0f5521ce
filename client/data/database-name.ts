/**
 * The database name is per user: two accounts on one device never share data. The version marks
 * a schema change (v2: the gig's local sort key; v3: the application's emails became optional,
 * decision 003); nothing was released before it, so no migration is kept. Apart from database.ts
 * so what finds and deletes a user's data on the device does not load RxDB.
 */
export function databaseName(userId: string): string {
  return `gigs-v3-${userId.toLowerCase()}`;
}
