import { LOCATION_TYPES } from './constants';
import { OPENINGS, openingsOf } from './hiring';
import type { Gig } from './schemas/gig';
import { currencyFor, type GigFormValues } from './validation/gig';

/**
 * The part of a gig its creator writes through the form (openings aside: they have their own
 * rules), and the one mapping between it and the form's strings. The client's create and edit
 * writes and the server's gig policy all go through here.
 */
export const GIG_CONTENT_KEYS = [
  'title',
  'description',
  'category',
  'locationType',
  'country',
  'city',
  'budget',
  'isPassionDriven',
  'currency',
  'skills',
  'projectDeadline',
  'projectDate',
] as const satisfies readonly (keyof Gig)[];

export type GigContent = Pick<
  Gig,
  'title' | 'description' | 'category' | 'locationType' | 'budget' | 'isPassionDriven' | 'currency' | 'skills'
> &
  Partial<Pick<Gig, 'country' | 'city' | 'projectDeadline' | 'projectDate'>>;

/**
 * A validated, normalised form as the gig stores it: the budget empty when passion driven, the
 * currency following the country (CAD when remote), and only the fields the location type carries.
 */
export function gigContent(form: GigFormValues): GigContent {
  return {
    title: form.title,
    description: form.description,
    category: form.category,
    locationType: form.locationType as Gig['locationType'],
    ...(form.country ? { country: form.country as Gig['country'] } : {}),
    ...(form.city ? { city: form.city } : {}),
    budget: form.isPassionDriven ? '' : form.budget,
    isPassionDriven: form.isPassionDriven,
    currency: currencyFor(form) as Gig['currency'],
    skills: form.skills,
    ...(form.locationType === 'remote' ? { projectDeadline: form.projectDeadline } : {}),
    ...(form.locationType !== 'remote' && form.projectDate ? { projectDate: form.projectDate } : {}),
  };
}

/** A stored gig back into the form's strings (for editing). */
export function formFromGig(gig: Gig): GigFormValues {
  return {
    title: gig.title,
    description: gig.description,
    category: gig.category,
    locationType: gig.locationType,
    country: gig.country ?? '',
    city: gig.city ?? '',
    budget: gig.budget,
    isPassionDriven: gig.isPassionDriven,
    currency: gig.currency,
    skills: gig.skills,
    projectDeadline: gig.projectDeadline ?? '',
    projectDate: gig.projectDate ?? '',
    openings: String(openingsOf(gig)),
  };
}

/**
 * Any record claiming to be a gig (a pushed document, a refused write kept on the device) as the
 * form's strings: what is not a string reads as empty, an unknown location type as none, absent
 * openings as the default. Judging the result is validateGigForm's job.
 */
export function gigFormFromRecord(record: Readonly<Record<string, unknown>>): GigFormValues {
  const locationType = LOCATION_TYPES.find((t) => t === record.locationType) ?? '';
  return {
    title: textField(record, 'title'),
    description: textField(record, 'description'),
    category: textField(record, 'category'),
    locationType,
    country: textField(record, 'country'),
    city: textField(record, 'city'),
    budget: textField(record, 'budget'),
    isPassionDriven: record.isPassionDriven === true,
    currency: textField(record, 'currency'),
    skills: textField(record, 'skills'),
    projectDeadline: textField(record, 'projectDeadline'),
    projectDate: textField(record, 'projectDate'),
    openings: String(record.openings ?? OPENINGS.default),
  };
}

/** A text field of a record, or '' when it is not text. */
function textField(record: Readonly<Record<string, unknown>>, key: string): string {
  const value = record[key];
  return typeof value === 'string' ? value : '';
}

/** Whether two gigs' contents are the same, field by field (an absent field equals an absent one). */
export function sameGigContent(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return GIG_CONTENT_KEYS.every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
}

/** The content fields a gig holds, and none of the others. */
export function contentOf(gig: GigContent): GigContent {
  const content: GigContent = {
    title: gig.title,
    description: gig.description,
    category: gig.category,
    locationType: gig.locationType,
    budget: gig.budget,
    isPassionDriven: gig.isPassionDriven,
    currency: gig.currency,
    skills: gig.skills,
  };
  if (gig.country !== undefined) content.country = gig.country;
  if (gig.city !== undefined) content.city = gig.city;
  if (gig.projectDeadline !== undefined) content.projectDeadline = gig.projectDeadline;
  if (gig.projectDate !== undefined) content.projectDate = gig.projectDate;
  return content;
}
