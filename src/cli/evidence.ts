/**
 * The `--evidence` flags every command that runs episodes shares (attempt, env, pipeline, doctor): which record of an
 * episode's requests and data changes is used, and MiniWeb's database and payment codes.
 * @module
 */
import { Option, type Command } from 'commander';
import { browserEvidence } from '../attempt/evidence';
import type { EvidenceProvider } from '../attempt/types';
import { miniwebEvidence } from '../miniweb/evidence';

/** Where an episode's evidence comes from. */
export type EvidenceKind = 'auto' | 'browser' | 'sandbox' | 'miniweb';

/** The flags of {@link evidenceOptions}. */
export interface EvidenceFlags {
  evidence: EvidenceKind;
  miniwebDb?: string;
  miniwebCodes: 'on' | 'off';
}

/** Adds `--evidence`, `--miniweb-db` and `--miniweb-codes` to a command. */
export function evidenceOptions(command: Command, auto: string): Command {
  return command
    .addOption(
      new Option('--evidence <kind>', "the request log and data changes: MiniWeb's own record, the sandbox's, or the browser's requests (no data changes)")
        .choices(['auto', 'browser', 'sandbox', 'miniweb'])
        .default('auto', auto),
    )
    .addOption(new Option('--miniweb-db <file>', "MiniWeb's SQLite file, read only: its data changes (--evidence miniweb)").env('MINIWEB_DB'))
    .addOption(
      new Option('--miniweb-codes <on|off>', 'payments with a code: on, as the sites are (/verify-payment and the mail on email are open to the episode); off, sessions set up without codes (annotator credentials in env MINIWEB_ANNOTATOR=user:password)')
        .choices(['on', 'off'])
        .default('on'),
    );
}

/** The kind `--evidence auto` means: the sandbox's record for the sandbox, MiniWeb's where its database is given, else the browser's. */
export function evidenceKindOf(flags: EvidenceFlags, sandbox: boolean): Exclude<EvidenceKind, 'auto'> {
  if (flags.evidence !== 'auto') return flags.evidence;
  if (sandbox) return 'sandbox';
  return flags.miniwebDb ? 'miniweb' : 'browser';
}

/** MiniWeb's evidence at `baseUrl` from the flags; an error naming the missing flag. */
export function miniwebEvidenceOf(flags: EvidenceFlags, baseUrl: string | undefined): EvidenceProvider {
  if (!baseUrl) throw new Error('--evidence miniweb needs --base-url URL (the MiniWeb server)');
  if (!flags.miniwebDb) throw new Error("--evidence miniweb needs --miniweb-db FILE (or env MINIWEB_DB): MiniWeb's SQLite file, for the data changes");
  return miniwebEvidence({ url: baseUrl, database: flags.miniwebDb, codes: flags.miniwebCodes });
}

/** The browser's record, or MiniWeb's; the sandbox's comes from the sandbox (the caller's). */
export function nonSandboxEvidence(kind: 'browser' | 'miniweb', flags: EvidenceFlags, baseUrl: string | undefined): EvidenceProvider {
  return kind === 'browser' ? browserEvidence() : miniwebEvidenceOf(flags, baseUrl);
}
