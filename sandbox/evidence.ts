/**
 * The sandbox's evidence provider: each episode gets a fresh server session (its own copy of the site's data),
 * and the server's own record of it: the request log, the data changes and the tables' rows.
 * @module
 */
import { assertPlainName, type Consequence, type EvidenceProvider, type EvidenceSession, type SessionEvidence } from 'miniweb-taskgen';
import { createSession, getJson } from './admin-client';

/** Options of {@link sandboxEvidence}. */
export interface SandboxEvidenceOptions {
  /** The sandbox's URL, `http://127.0.0.1:8000`. */
  readonly url: string;
  /** The fetch to use. Default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
}

/** An {@link EvidenceProvider} over the sandbox's `/_admin/` endpoints. */
export function sandboxEvidence(options: SandboxEvidenceOptions): EvidenceProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const root = options.url.replace(/\/+$/, '');
  return {
    async open({ site, baseUrl }): Promise<EvidenceSession> {
      assertPlainName(site, 'site');
      const created = await createSession(root, doFetch);
      const admin = `${root}/_admin/sessions/${created.id}`;
      return {
        cookies: [{ name: created.cookie.name, value: created.cookie.value, url: (baseUrl || root).replace(/\/+$/, '') }],
        async collect(): Promise<SessionEvidence> {
          const got = await getJson<SessionEvidence>(doFetch, admin);
          return { log: got.log, changes: got.changes };
        },
        async state(table: string) {
          assertPlainName(table, 'table');
          return getJson<Record<string, unknown>[]>(doFetch, `${admin}/state/${site}/${table}`);
        },
        async startRows() {
          return getJson<Record<string, Record<string, unknown>[]>>(doFetch, `${admin}/state/${site}`);
        },
        async consequences() {
          return getJson<Consequence[]>(doFetch, `${root}/_admin/sites/${site}/consequences`);
        },
        async close() {
          await doFetch(admin, { method: 'DELETE' }).then((r) => r.body?.cancel());
        },
      };
    },
  };
}
