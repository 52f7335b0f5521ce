import { describe, expect, it } from 'vitest';
import * as generated from './rx-schemas.generated';
import { RX_SCHEMA_SOURCES } from './rx-schemas-source';

describe('the RxDB schemas the device opens its database with', () => {
  it('are exactly the ones the shared zod schemas make (run `npm run generate:rx-schemas` after changing one)', () => {
    expect(Object.keys(generated).sort()).toEqual(Object.keys(RX_SCHEMA_SOURCES).sort());
    for (const [name, source] of Object.entries(RX_SCHEMA_SOURCES))
      expect(generated[name as keyof typeof generated], name).toStrictEqual(JSON.parse(JSON.stringify(source)));
  });
});
