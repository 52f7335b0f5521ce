import type { ReplicatedName, SyncProblem } from '../../../client/data/collections';

/**
 * Who the device is signed in as and where the app is: `baseUrl`, or, behind one address with
 * several instances, any of `spread` for each request (sending `origin`, the address users reach).
 */
export type DeviceIdentity = {
  userId: string;
  baseUrl: string;
  cookie: string;
  spread?: readonly string[];
  origin?: string;
};

/** What the main thread asks a device's worker (device-worker.ts) to do. */
export type DeviceCommand =
  | { type: 'open'; identity: DeviceIdentity }
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'online'; online: boolean }
  | { type: 'snapshot' }
  | { type: 'dispose' }
  | { type: 'createGig'; values: Record<string, unknown> }
  | { type: 'apply'; gigId: string; rate: number }
  | { type: 'offer'; applicationId: string; finalBudget: number }
  | { type: 'accept'; applicationId: string }
  | { type: 'decline'; applicationId: string }
  | { type: 'withdraw'; applicationId: string }
  | { type: 'deleteGig'; gigId: string }
  | { type: 'editGig'; gigId: string; title: string }
  | { type: 'profile'; field: 'bio' | 'name' | 'location'; value: string };

/** Everything a device holds locally, as its database hands it out. */
export type DeviceSnapshot = {
  docs: Record<ReplicatedName, Record<string, unknown>[]>;
  syncproblems: SyncProblem[];
  /** Local changes still waiting to go out. */
  outbox: number;
  unauthorized: boolean;
};
