/**
 * The sandbox's sites: templates times data variants (`shop-01` ... `shop-08`), the split, and each site's
 * runtime (info, data snapshot, router, tasks), built lazily on first use and cached.
 * @module
 */
import type { Split } from 'miniweb-taskgen';
import { buildSnapshot, SANDBOX_TODAY } from './database';
import { Router } from './router';
import { TEMPLATES } from './sites/index';
import { buildTasks, type SiteTasks } from './tasks';
import type { Handler, SiteInfo, SiteTemplate } from './template';

/** Options of a {@link SiteCatalog}. */
export interface CatalogOptions {
  /** The templates; default every bundled template. */
  readonly templates?: readonly SiteTemplate[];
  /** Data variants per template. Default 8. */
  readonly variants?: number;
  /** Variants held out as test sites. Default `[8]` (the last). */
  readonly testVariants?: readonly number[];
}

/** A site ready to serve: its info, template, data snapshot and router. */
export interface SiteRuntime {
  /** The site's name, title, paths and today. */
  readonly info: SiteInfo;
  /** The template the site is made from. */
  readonly template: SiteTemplate;
  /** The seeded database, serialized; each session opens its own copy of it. */
  readonly snapshot: Buffer;
  /** The template's routes. */
  readonly router: Router<Handler>;
}

const SITE_NAME = /^([a-z][a-z0-9]*)-(\d{2})$/;

/** The sites of a set of templates and their split; builds each site's data on first use. */
export class SiteCatalog {
  /** Data variants per template: sites `<id>-01` to `<id>-<variants>`. */
  readonly variants: number;
  private readonly templates = new Map<string, SiteTemplate>();
  private readonly testVariants: ReadonlySet<number>;
  private readonly routers = new Map<string, Router<Handler>>();
  private readonly runtimes = new Map<string, SiteRuntime>();
  private readonly taskSets = new Map<string, SiteTasks>();

  constructor(options: CatalogOptions = {}) {
    for (const t of options.templates ?? TEMPLATES) {
      if (!/^[a-z][a-z0-9]*$/.test(t.id)) throw new Error(`template id ${JSON.stringify(t.id)} must be lower-case letters and digits`);
      if (this.templates.has(t.id)) throw new Error(`two templates with id ${t.id}`);
      this.templates.set(t.id, t);
    }
    this.variants = options.variants ?? 8;
    this.testVariants = new Set(options.testVariants ?? [this.variants]);
  }

  /** Every site name, template by template (registration order), variants in order. */
  sites(): string[] {
    const out: string[] = [];
    for (const id of this.templates.keys()) {
      for (let v = 1; v <= this.variants; v++) out.push(`${id}-${String(v).padStart(2, '0')}`);
    }
    return out;
  }

  /** Training and held-out sites. */
  split(): Split {
    const train: string[] = [];
    const test: string[] = [];
    for (const site of this.sites()) (this.testVariants.has(this.parse(site)?.variant ?? 0) ? test : train).push(site);
    return { train, test };
  }

  /** The templates, in registration order. */
  templateList(): SiteTemplate[] {
    return [...this.templates.values()];
  }

  /** The template and variant a site name stands for, if it is one of ours. */
  parse(site: string): { template: SiteTemplate; variant: number } | undefined {
    const m = SITE_NAME.exec(site);
    if (!m) return undefined;
    const template = this.templates.get(m[1] as string);
    const variant = Number(m[2]);
    if (!template || variant < 1 || variant > this.variants) return undefined;
    return { template, variant };
  }

  /** A site's runtime, built on first use; `undefined` for a name that is not a site. */
  site(name: string): SiteRuntime | undefined {
    const cached = this.runtimes.get(name);
    if (cached) return cached;
    const parsed = this.parse(name);
    if (!parsed) return undefined;
    const { template, variant } = parsed;
    const snap = buildSnapshot(template, { name, variant });
    const info: SiteInfo = {
      name,
      template: template.id,
      variant,
      title: snap.seed.title,
      base: `/sites/${name}`,
      home: `/sites/${name}/`,
      today: SANDBOX_TODAY,
    };
    const runtime: SiteRuntime = { info, template, snapshot: snap.data, router: this.router(template) };
    this.runtimes.set(name, runtime);
    return runtime;
  }

  /** A site's human tasks and task bank, generated on first use. */
  tasks(name: string): SiteTasks | undefined {
    const cached = this.taskSets.get(name);
    if (cached) return cached;
    const runtime = this.site(name);
    if (!runtime) return undefined;
    const tasks = buildTasks(runtime);
    this.taskSets.set(name, tasks);
    return tasks;
  }

  private router(template: SiteTemplate): Router<Handler> {
    let router = this.routers.get(template.id);
    if (!router) {
      router = new Router<Handler>();
      template.routes(router);
      this.routers.set(template.id, router);
    }
    return router;
  }
}

let shared: SiteCatalog | undefined;

/** The catalog of every bundled template with the default variants, shared by the sandbox's helpers. */
export function defaultCatalog(): SiteCatalog {
  shared ??= new SiteCatalog();
  return shared;
}
