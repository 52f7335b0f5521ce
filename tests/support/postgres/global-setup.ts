import type { TestProject } from 'vitest/node';
import { startTestCluster } from './cluster';

/** One PostgreSQL cluster for the whole integration run; each test creates its own database in it. */
export default async function setup(project: TestProject) {
  const cluster = await startTestCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
