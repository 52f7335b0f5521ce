import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { RX_SCHEMA_SOURCES, RX_SCHEMAS_FILE, rxSchemasModule } from '../client/data/rx-schemas-source';

/**
 * Writes client/data/rx-schemas.generated.ts: the RxDB collection schemas made from the shared zod
 * schemas (`toRxSchema`), as plain JSON, so the device's data layer opens its database without
 * loading zod. `npm run generate:rx-schemas` after changing an entity schema; a unit test
 * (client/data/rx-schemas.test.ts) fails while the file is out of date.
 */
const file = path.resolve(RX_SCHEMAS_FILE);
const options = (await prettier.resolveConfig(file)) ?? {};
const text = await prettier.format(rxSchemasModule(RX_SCHEMA_SOURCES), { ...options, filepath: file });
fs.writeFileSync(file, text);
console.log(`wrote ${RX_SCHEMAS_FILE}`);
