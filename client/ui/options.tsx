import { COUNTRIES, NICHES } from '../../shared/constants';

/** The five countries as `<option>`s, valued by country code. */
export function CountryOptions() {
  return (
    <>
      {COUNTRIES.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </>
  );
}

/** The eight niches as `<option>`s, valued by id (profiles) or by display name (gig categories). */
export function NicheOptions({ valueBy }: { valueBy: 'id' | 'name' }) {
  return (
    <>
      {NICHES.map((n) => (
        <option key={n.id} value={n[valueBy]}>
          {n.name}
        </option>
      ))}
    </>
  );
}

/** A niche's subcategories as `<option>`s (none until a niche is chosen). */
export function SubcategoryOptions({ niche }: { niche: { subcategories: readonly string[] } | undefined }) {
  return (
    <>
      {niche?.subcategories.map((s) => (
        <option key={s} value={s}>
          {s}
        </option>
      ))}
    </>
  );
}
