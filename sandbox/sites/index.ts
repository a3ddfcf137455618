/**
 * The bundled site templates, in the order their sites are listed. To add a template, add its import and its
 * entry here (one line each; see sandbox/TEMPLATES.md).
 * @module
 */
import type { SiteTemplate } from '../template';
import { bank } from './bank/index';
import { calendar } from './calendar/index';
import { forum } from './forum/index';
import { mail } from './mail/index';
import { recipes } from './recipes/index';
import { shop } from './shop/index';
import { tracker } from './tracker/index';
import { travel } from './travel/index';

/** Every bundled template. */
export const TEMPLATES: readonly SiteTemplate[] = [
  shop,
  mail,
  calendar,
  forum,
  travel,
  tracker,
  bank,
  recipes,
];
