/**
 * The PostgreSQL driver, `pg` (pure JavaScript; an optional peer of the published package, the
 * version agentdef is tested with below), loaded only when a store is opened on a `postgres://`
 * connection string. It is looked for from agentdef's own folder (in a compiled host, the folders
 * above its entry file), then from the working folder (the workspace); a missing one is a typed
 * answer naming what to install, never a throw.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Pg from 'pg';

export type PgModule = typeof Pg;

/** The npm package and version agentdef's PostgreSQL stores are tested with. */
export const POSTGRES_DRIVER_PACKAGE = 'pg';
export const POSTGRES_DRIVER_VERSION = '8.23.1';

/** What to install when `pg` cannot be loaded: one sentence, for every store's message. */
export const MISSING_PG_ADVICE = `install the npm package ${POSTGRES_DRIVER_PACKAGE} (npm install ${POSTGRES_DRIVER_PACKAGE}@${POSTGRES_DRIVER_VERSION}, where agentdef is installed or in the workspace; an HB3 image: build it with --build-arg TASK_STORE=postgres)`;

let loaded: PgModule | null | undefined;

/** `require(name)` through a variable, so bundlers leave it to run time; undefined when missing. */
function loadFrom(load: NodeJS.Require): PgModule | undefined {
  try {
    const module = load(POSTGRES_DRIVER_PACKAGE) as PgModule & { default?: PgModule };
    const pg = typeof module.Pool === 'function' ? module : module.default;
    return pg !== undefined && typeof pg.Pool === 'function' ? pg : undefined;
  } catch {
    return undefined;
  }
}

/** The `pg` module, or what to install. */
export function loadPg(): { ok: true; pg: PgModule } | { ok: false; message: string } {
  if (loaded === undefined) {
    const places: NodeJS.Require[] = [require];
    try {
      places.push(createRequire(join(process.cwd(), 'agentdef-postgres.js')));
    } catch {
      // no working folder: the first place only
    }
    loaded = null;
    for (const place of places) {
      const pg = loadFrom(place);
      if (pg !== undefined) {
        loaded = pg;
        break;
      }
    }
  }
  return loaded === null
    ? { ok: false, message: `the PostgreSQL driver is missing: ${MISSING_PG_ADVICE}` }
    : { ok: true, pg: loaded };
}
