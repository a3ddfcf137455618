/**
 * The sandbox's evidence: the sandbox speaks MiniWeb's protocol (its `session` cookie, `/_admin/log`, its data as
 * MiniWeb's database of base tables and session overlay, `/_reset_data`), so an episode's evidence is read by the
 * library's own MiniWeb provider, the one a MiniWeb user runs; the sandbox adds only where its database file is
 * (`/_admin/database`) and what each site declares it does by itself (`/_admin/sites/<site>/consequences`).
 * @module
 */
import { miniwebEvidence, type Consequence, type EvidenceProvider } from 'miniweb-taskgen';
import { getJson } from './admin-client';

/** Options of {@link sandboxEvidence}. */
export interface SandboxEvidenceOptions {
  /** The sandbox's URL, `http://127.0.0.1:8000`. */
  readonly url: string;
  /** The fetch to use. Default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
}

/** An {@link EvidenceProvider} over the sandbox: MiniWeb's provider on the sandbox's database and routes. */
export function sandboxEvidence(options: SandboxEvidenceOptions): EvidenceProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const root = options.url.replace(/\/+$/, '');
  const declared = new Map<string, Promise<Consequence[]>>();
  const consequences = (site: string): Promise<Consequence[]> => {
    let got = declared.get(site);
    if (!got) {
      got = getJson<Consequence[]>(doFetch, `${root}/_admin/sites/${encodeURIComponent(site)}/consequences`);
      got.catch(() => declared.delete(site));
      declared.set(site, got);
    }
    return got;
  };
  let inner: Promise<EvidenceProvider> | null = null;
  const provider = (): Promise<EvidenceProvider> => {
    inner ??= getJson<{ path: string }>(doFetch, `${root}/_admin/database`).then(({ path }) =>
      miniwebEvidence({ url: root, database: path, consequences, fetch: doFetch }),
    );
    inner.catch(() => (inner = null));
    return inner;
  };
  return {
    open: async (input) => (await provider()).open(input),
    check: async (input) => (await provider()).check!(input),
  };
}
