/**
 * A MiniWeb server that cannot give an episode's evidence is named before anything is spent: a database that is not
 * the server's, several worker processes splitting one session's request log, annotator credentials missing or
 * refused. Fake MiniWebs of our own (test/fakes/miniweb), no browser.
 */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { miniwebEvidence, preflight } from 'miniweb-taskgen';
import { startFakeMiniweb, type FakeMiniweb } from './fakes/miniweb/index';
import { tempDir } from './helpers/runs';

describe('checking a MiniWeb server before a run', () => {
  let one: FakeMiniweb;
  let two: FakeMiniweb;
  beforeAll(async () => {
    one = await startFakeMiniweb();
    two = await startFakeMiniweb({ workers: 2 });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });
  const sites = { baseUrl: '', sites: ['forums'] };

  it('passes a server with one request log on its own database, and leaves its probe session reset', async () => {
    const evidence = miniwebEvidence({ url: one.url, database: one.database });
    try {
      await expect(evidence.check!({ ...sites, baseUrl: one.url })).resolves.toMatch(/^MiniWeb at http:\/\/127\.0\.0\.1:\d+: one request log, \d+ collections in the database, sessions reset$/);
      const report = await preflight({ evidence: { provider: evidence, baseUrl: one.url, sites: ['forums'] } });
      expect(report.checks).toEqual([{ name: 'evidence', ok: true, detail: expect.stringMatching(/one request log/) }]);
    } finally {
      evidence.close();
    }
  });

  it('names a server whose workers split the log, with what to do', async () => {
    const evidence = miniwebEvidence({ url: two.url, database: two.database });
    try {
      const report = await preflight({ evidence: { provider: evidence, baseUrl: two.url, sites: ['forums'] } });
      expect(report.ok).toBe(false);
      expect(report.checks[0]).toMatchObject({
        name: 'evidence',
        ok: false,
        detail: expect.stringMatching(/the request log shows [0-5] of 6 requests of one session: the server runs several worker processes/),
        hint: expect.stringMatching(/one worker process/),
      });
    } finally {
      evidence.close();
    }
  });

  it('names a database that is not the one the server writes, and a file that is not MiniWeb\'s', async () => {
    const copy = path.join(await tempDir('mw-copy-'), 'copy.db');
    await copyFile(one.database, copy);
    const stale = miniwebEvidence({ url: one.url, database: copy });
    await expect(stale.check!({ ...sites, baseUrl: one.url })).rejects.toThrow(/is not in this database .*give the SQLite file this server writes/);
    stale.close();
    const missing = miniwebEvidence({ url: one.url, database: path.join(path.dirname(copy), 'none.db') });
    await expect(missing.check!({ ...sites, baseUrl: one.url })).rejects.toThrow(/cannot be opened read-only/);
  });

  it('turns payment codes off only with annotator credentials from the environment, and names a refused login', async () => {
    expect(() => miniwebEvidence({ url: one.url, database: one.database, codes: 'off', annotatorEnv: 'TASKGEN_TEST_NO_SUCH_VAR' })).toThrow(
      /codes: "off" needs MiniWeb annotator credentials as user:password in env TASKGEN_TEST_NO_SUCH_VAR/,
    );
    process.env.TASKGEN_TEST_ANNOTATOR = 'minh:wrong';
    const refused = miniwebEvidence({ url: one.url, database: one.database, codes: 'off', annotatorEnv: 'TASKGEN_TEST_ANNOTATOR' });
    await expect(refused.check!({ ...sites, baseUrl: one.url })).rejects.toThrow(/annotator login was refused/);
    refused.close();
    process.env.TASKGEN_TEST_ANNOTATOR = 'minh:miniweb';
    const off = miniwebEvidence({ url: one.url, database: one.database, codes: 'off', annotatorEnv: 'TASKGEN_TEST_ANNOTATOR' });
    await expect(off.check!({ ...sites, baseUrl: one.url })).resolves.toMatch(/payment codes off$/);
    off.close();
  });

  it('refuses bad options, naming the field', () => {
    expect(() => miniwebEvidence({ url: 'ftp://x', database: 'a.db' })).toThrow(/miniwebEvidence: url: .*not http/);
    expect(() => miniwebEvidence({ url: one.url, database: '' })).toThrow(/miniwebEvidence: database:/);
    expect(() => miniwebEvidence({ url: one.url, database: 'a.db', codes: 'maybe' as 'on' })).toThrow(/miniwebEvidence: codes:/);
  });
});
