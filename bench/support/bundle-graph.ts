import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROUTES } from '../../shared/routes';

/**
 * What each route of the built client makes the browser download, read from the built files
 * alone (no Vite manifest: `build.manifest` is off in vite.config.ts).
 *
 * - The entry: the `<script type="module">`, `<link rel="modulepreload">` and stylesheets of
 *   `index.html`.
 * - The static graph: every `import … from "./x.js"` / `export … from "./x.js"` of a loaded chunk.
 * - The routes: the `lazy(() => import('…'))` pages of client/app/app.tsx and of the signed-in area
 *   (client/app/signed-in/signed-in-area.tsx), matched to their chunks by file name
 *   (`<module basename>-<8-character hash>.js`).
 * - Dynamic imports that are not route pages are counted as loaded by every chunk that holds
 *   them: today they all run on mount (the service worker registration, and the signed-in
 *   area's database, replication and Dexie storage), so this is exact; were one to become
 *   conditional it would be over-counted, never missed.
 * - Sizes are gzip at zlib's default level (6), in bytes; 1 kB = 1,000 bytes.
 */

export type Library = 'rxdb' | 'dexie' | 'yjs';
export const LIBRARIES: Library[] = ['rxdb', 'dexie', 'yjs'];

/**
 * Text only each library's own minified code carries (its error classes and messages), not the
 * names app code uses to call it (`getRxStorageDexie` survives minification in the app's chunk).
 * tests/integration/bundle-budget.test.ts checks these against the bundler's module lists.
 */
const LIBRARY_MARKERS: Record<Library, RegExp> = {
  rxdb: /\bRxDB\b|rxdbreplication|\.rxdb\b/,
  dexie: /DexieError|MissingAPIError|DatabaseClosedError/,
  yjs: /\[yjs\]|\$YJS\$|Yjs was already imported/,
};

/** The library a bundled module path belongs to, if any (`…/node_modules/rxdb/…` → rxdb). */
export function libraryOfModule(id: string): Library | undefined {
  // The innermost package: rxdb's own copy of Dexie lives in node_modules/rxdb/node_modules/dexie.
  const pkg = [...id.matchAll(/[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/g)].at(-1)?.[1];
  if (!pkg) return undefined;
  if (pkg === 'rxdb') return 'rxdb';
  if (pkg === 'dexie') return 'dexie';
  if (pkg === 'yjs' || pkg === 'y-websocket' || pkg === 'y-indexeddb' || pkg === 'y-protocols') return 'yjs';
  return undefined;
}

export type DynamicImport = { file: string; css: string[] };

export type Chunk = {
  /** Path inside the build folder, e.g. `assets/index-Dqrw6cyF.js`. */
  file: string;
  raw: number;
  gzip: number;
  imports: string[];
  dynamicImports: DynamicImport[];
  libraries: Library[];
};

export type Bundle = {
  dir: string;
  entry: { scripts: string[]; css: string[] };
  chunks: Map<string, Chunk>;
  /** Sizes of the CSS files (raw and gzip). */
  css: Map<string, { raw: number; gzip: number }>;
};

const gzipSize = (buf: Buffer) => zlib.gzipSync(buf).length;

/** Static imports and re-exports of other chunks: `import{a as b}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`. */
const STATIC_IMPORT = /(?:^|[;\s})])(?:import|export)\s*(?:[^"'`();=]*?\bfrom\s*)?["'`]\.\/([^"'`]+\.js)["'`]/g;
/** `import(\`./x.js\`)`, optionally followed by Vite's preload list `__vite__mapDeps([0,1])`. */
const DYNAMIC_IMPORT =
  /\bimport\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)(?:\.then\([^()]*\))?(?:\s*,\s*__vite__mapDeps\(\[([\d,\s]*)\]\))?/g;
/** Vite's table of preload dependencies at the top of a chunk that has dynamic imports. */
const MAP_DEPS = /m\.f=(\[[^\]]*\])/;

/** Reads and parses a build folder (the default build goes to dist/). */
export function readBundle(dir: string, options: { modulesOf?: (file: string) => string[] | undefined } = {}): Bundle {
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
  const local = (href: string) => href.replace(/^\//, '');
  const scripts: string[] = [];
  const css: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    if (tag.startsWith('<script') && attr(tag, 'type') === 'module' && attr(tag, 'src'))
      scripts.push(local(attr(tag, 'src')!));
    const rel = attr(tag, 'rel');
    if (rel === 'modulepreload' && attr(tag, 'href')) scripts.push(local(attr(tag, 'href')!));
    if (rel === 'stylesheet' && attr(tag, 'href')) css.push(local(attr(tag, 'href')!));
  }
  if (scripts.length === 0) throw new Error(`${dir}/index.html loads no module script: is it a built client?`);

  const assets = path.join(dir, 'assets');
  const chunks = new Map<string, Chunk>();
  const cssSizes = new Map<string, { raw: number; gzip: number }>();
  for (const name of fs.readdirSync(assets).sort()) {
    const buf = fs.readFileSync(path.join(assets, name));
    const file = `assets/${name}`;
    if (name.endsWith('.css')) cssSizes.set(file, { raw: buf.length, gzip: gzipSize(buf) });
    if (!name.endsWith('.js')) continue;
    const code = buf.toString('utf8');
    const exists = (target: string) => fs.existsSync(path.join(assets, target));
    const imports = new Set<string>();
    for (const m of code.matchAll(STATIC_IMPORT)) {
      if (!exists(m[1]!)) throw new Error(`${file} imports ./${m[1]}, which is not in the build`);
      imports.add(`assets/${m[1]}`);
    }
    const depTable = MAP_DEPS.exec(code)?.[1];
    const deps = depTable ? (JSON.parse(depTable) as string[]) : [];
    const dynamic = new Map<string, Set<string>>();
    for (const m of code.matchAll(DYNAMIC_IMPORT)) {
      if (!exists(m[1]!)) throw new Error(`${file} imports ./${m[1]} dynamically, which is not in the build`);
      const target = `assets/${m[1]}`;
      const cssDeps = dynamic.get(target) ?? new Set<string>();
      for (const i of (m[2] ?? '').split(',').filter(Boolean)) {
        const dep = deps[Number(i)];
        if (dep?.endsWith('.css')) cssDeps.add(dep);
      }
      dynamic.set(target, cssDeps);
    }
    const modules = options.modulesOf?.(file);
    const libraries = modules
      ? LIBRARIES.filter((lib) => modules.some((id) => libraryOfModule(id) === lib))
      : LIBRARIES.filter((lib) => LIBRARY_MARKERS[lib].test(code));
    chunks.set(file, {
      file,
      raw: buf.length,
      gzip: gzipSize(buf),
      imports: [...imports],
      dynamicImports: [...dynamic].map(([f, c]) => ({ file: f, css: [...c] })),
      libraries,
    });
  }
  for (const s of scripts) if (!chunks.has(s)) throw new Error(`index.html loads ${s}, which is not in ${assets}`);
  return { dir, entry: { scripts, css }, chunks, css: cssSizes };
}

export type Route = {
  path: string;
  area: 'public' | 'signed-in';
  /** The lazily loaded modules the route renders, as written in the client (e.g. `../features/waitlist/waitlist-page`). */
  pages: string[];
};

/**
 * The module of each entry of a screen table (`name: screen(() => import('…'))`) in `file`, by name.
 */
function screenTable(file: string): Map<string, string> {
  const source = fs.readFileSync(file, 'utf8');
  const modules = new Map<string, string>();
  for (const m of source.matchAll(/^\s*(\w+)\s*:\s*screen\(\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)\s*\)/gm))
    modules.set(m[1]!, m[2]!);
  if (modules.size === 0) throw new Error(`found no screen table in ${file}`);
  return modules;
}

const SIGNED_IN_AREA = './signed-in/signed-in-area';

/**
 * Every route of the client, from the one route table (shared/routes.ts) and the client's screen
 * tables: a public route loads its page; a signed-in one loads the signed-in area, then its screen.
 */
export function clientRoutes(root = process.cwd()): Route[] {
  const appFile = path.join(root, 'client/app/app.tsx');
  const publicScreens = screenTable(appFile);
  const signedInScreens = screenTable(path.join(root, 'client/app/signed-in/screens.ts'));
  if (!fs.readFileSync(appFile, 'utf8').includes(`import('${SIGNED_IN_AREA}')`)) {
    throw new Error(`client/app/app.tsx does not load ${SIGNED_IN_AREA} lazily`);
  }
  return ROUTES.map((r): Route => {
    const table = r.area === 'public' ? publicScreens : signedInScreens;
    const module = table.get(r.screen);
    if (!module) throw new Error(`route ${r.path}: no screen "${r.screen}" in its screen table`);
    return { path: r.path, area: r.area, pages: r.area === 'public' ? [module] : [SIGNED_IN_AREA, module] };
  });
}

/** The chunk built for a lazily imported module: `assets/<basename>-<8-character hash>.js`. */
export function chunkOfModule(bundle: Bundle, module: string): string {
  const base = path.basename(module).replace(/\.[jt]sx?$/, '');
  const pattern = new RegExp(`^assets/${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[\\w-]{8}\\.js$`);
  const found = [...bundle.chunks.keys()].filter((f) => pattern.test(f));
  if (found.length !== 1)
    throw new Error(`expected one chunk for ${module}, found ${found.length}: ${found.join(', ')}`);
  return found[0]!;
}

export type RouteLoad = {
  route: Route;
  files: string[];
  raw: number;
  gzip: number;
  jsGzip: number;
  cssGzip: number;
  libraries: Library[];
};

/** Everything the browser downloads to show `route`: the entry, the route's pages and their graphs. */
export function routeLoad(bundle: Bundle, route: Route, allRoutes: Route[]): RouteLoad {
  const pageChunks = new Set(allRoutes.flatMap((r) => r.pages.map((p) => chunkOfModule(bundle, p))));
  const css = new Set(bundle.entry.css);
  const js = new Set<string>();
  const visit = (file: string) => {
    if (js.has(file)) return;
    js.add(file);
    const chunk = bundle.chunks.get(file);
    if (!chunk) throw new Error(`no chunk ${file}`);
    for (const i of chunk.imports) visit(i);
    for (const d of chunk.dynamicImports) {
      if (pageChunks.has(d.file)) continue;
      for (const c of d.css) css.add(c);
      visit(d.file);
    }
  };
  for (const s of bundle.entry.scripts) visit(s);
  for (const page of route.pages) {
    const file = chunkOfModule(bundle, page);
    for (const chunk of bundle.chunks.values())
      for (const d of chunk.dynamicImports) if (d.file === file) for (const c of d.css) css.add(c);
    visit(file);
  }
  const chunks = [...js].map((f) => bundle.chunks.get(f)!);
  const cssSizes = [...css].map((f) => {
    const size = bundle.css.get(f);
    if (!size) throw new Error(`no stylesheet ${f}`);
    return size;
  });
  const jsGzip = chunks.reduce((s, c) => s + c.gzip, 0);
  const cssGzip = cssSizes.reduce((s, c) => s + c.gzip, 0);
  return {
    route,
    files: [...js, ...css].sort(),
    raw: chunks.reduce((s, c) => s + c.raw, 0) + cssSizes.reduce((s, c) => s + c.raw, 0),
    gzip: jsGzip + cssGzip,
    jsGzip,
    cssGzip,
    libraries: LIBRARIES.filter((lib) => chunks.some((c) => c.libraries.includes(lib))),
  };
}

/** Budgets of issue 8: the public pages load no RxDB, Dexie or Yjs; `/` and the signed-in shell stay small. */
export const BUDGETS = {
  home: { path: '/', maxGzip: 100_000 },
  signedInShell: { path: '/landing', maxGzip: 300_000 },
  /**
   * Files a signed-in first visit downloads (scripts and stylesheets): each is a request, and over
   * HTTP/1.1's six connections most wait for another's round trip (scripts/chunk-groups.ts).
   */
  signedInFiles: 30,
} as const;
