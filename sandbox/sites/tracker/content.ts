/** The tracker template's data variants (one product team per variant) and the words its issues are made of. @module */

/** A project of a theme: its key, name, what it is and the parts of it issues are about. */
export interface ThemeProject {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly components: readonly string[];
}

/** A team theme. */
export interface TrackerTheme {
  readonly title: string;
  readonly projects: readonly ThemeProject[];
}

/** Eight themes: variant `n` uses theme `n - 1`. */
export const THEMES: readonly TrackerTheme[] = [
  { title: 'Lighthouse Issues', projects: [
    { key: 'WEB', name: 'Website', description: 'The public marketing site and sign-up flow.', components: ['checkout page', 'login form', 'navigation bar', 'pricing page', 'blog', 'cookie banner', 'search results', 'footer'] },
    { key: 'MOB', name: 'Mobile App', description: 'The iOS and Android apps.', components: ['onboarding screens', 'push notifications', 'offline mode', 'settings screen', 'photo upload', 'home feed'] },
    { key: 'PAY', name: 'Payments API', description: 'Charges, refunds and invoices for every product.', components: ['refund endpoint', 'webhook retries', 'invoice PDF', 'card tokenizer', 'currency conversion', 'payout report'] },
    { key: 'DS', name: 'Design System', description: 'Shared components, tokens and icons.', components: ['button component', 'date picker', 'color tokens', 'modal dialog', 'icon set', 'data table'] },
  ] },
  { title: 'Gearbox Tracker', projects: [
    { key: 'ENG', name: 'Engine', description: 'Rendering, physics and audio.', components: ['shadow renderer', 'physics solver', 'audio mixer', 'asset loader', 'shader cache', 'particle system'] },
    { key: 'GP', name: 'Gameplay', description: 'Quests, combat and progression.', components: ['quest log', 'combat system', 'skill tree', 'inventory', 'save system', 'boss fight'] },
    { key: 'LCH', name: 'Launcher', description: 'The desktop launcher and patcher.', components: ['patch downloader', 'login screen', 'news panel', 'settings dialog', 'crash reporter', 'friends list'] },
    { key: 'ART', name: 'Art Pipeline', description: 'Tools that bring art into the game.', components: ['texture importer', 'model exporter', 'animation retargeter', 'level editor', 'lightmap baker', 'thumbnail generator'] },
  ] },
  { title: 'Harbor Desk', projects: [
    { key: 'FLT', name: 'Fleet Portal', description: 'Where dispatchers manage trucks and drivers.', components: ['vehicle list', 'driver schedule', 'maintenance log', 'fuel report', 'map view', 'alerts panel'] },
    { key: 'WHS', name: 'Warehouse Scanner', description: 'The handheld scanner app for pickers.', components: ['barcode reader', 'pick list', 'bin lookup', 'sync queue', 'battery warning', 'login screen'] },
    { key: 'RTE', name: 'Route Planner', description: 'Daily route optimisation.', components: ['route optimiser', 'stop editor', 'traffic feed', 'driver app export', 'time windows', 'depot settings'] },
    { key: 'BIL', name: 'Billing', description: 'Invoices and rates for shippers.', components: ['rate calculator', 'invoice export', 'credit notes', 'tax report', 'customer portal', 'payment reminders'] },
  ] },
  { title: 'Pulse Board', projects: [
    { key: 'PP', name: 'Patient Portal', description: 'Patients see records and message their care team.', components: ['message inbox', 'records page', 'sign-up wizard', 'profile page', 'document viewer', 'consent form'] },
    { key: 'SCH', name: 'Scheduling', description: 'Appointment booking for clinics.', components: ['calendar view', 'reminder emails', 'waitlist', 'room booking', 'reschedule dialog', 'holiday settings'] },
    { key: 'LAB', name: 'Lab Results', description: 'Results import and review.', components: ['HL7 importer', 'results table', 'abnormal flags', 'PDF report', 'review queue', 'trend chart'] },
    { key: 'NOT', name: 'Notifications', description: 'Email, SMS and push messages.', components: ['SMS sender', 'email templates', 'push service', 'opt-out page', 'delivery report', 'quiet hours'] },
  ] },
  { title: 'Quill Issues', projects: [
    { key: 'EDT', name: 'Editor', description: 'The article editor.', components: ['rich text toolbar', 'image embed', 'autosave', 'spell checker', 'revision history', 'word counter'] },
    { key: 'PUB', name: 'Publishing', description: 'Scheduling and publishing articles.', components: ['publish queue', 'RSS feed', 'sitemap generator', 'paywall', 'scheduled posts', 'author pages'] },
    { key: 'ANL', name: 'Analytics', description: 'Audience and engagement numbers.', components: ['traffic dashboard', 'referrer report', 'export job', 'real-time counter', 'retention chart', 'goal tracking'] },
    { key: 'NWS', name: 'Newsletter', description: 'The weekly newsletter.', components: ['subscriber list', 'email builder', 'unsubscribe link', 'A/B test', 'send scheduler', 'bounce handler'] },
  ] },
  { title: 'Terra Tracker', projects: [
    { key: 'SNS', name: 'Sensor Hub', description: 'Field sensors and their gateway.', components: ['soil moisture probe', 'gateway pairing', 'battery monitor', 'LoRa uplink', 'calibration tool', 'weather station'] },
    { key: 'DSH', name: 'Dashboard', description: 'The grower dashboard.', components: ['field map', 'yield chart', 'alert rules', 'CSV export', 'farm switcher', 'user invites'] },
    { key: 'IRR', name: 'Irrigation Control', description: 'Valves, pumps and schedules.', components: ['valve scheduler', 'pump controller', 'flow meter', 'rain delay', 'zone editor', 'manual override'] },
    { key: 'FW', name: 'Firmware', description: 'Device firmware and updates.', components: ['OTA updater', 'bootloader', 'sleep mode', 'watchdog', 'sensor driver', 'clock sync'] },
  ] },
  { title: 'Ledgerline', projects: [
    { key: 'ACC', name: 'Accounts', description: 'Current and savings accounts.', components: ['statement export', 'interest calculator', 'account opening', 'overdraft alerts', 'joint accounts', 'balance widget'] },
    { key: 'CRD', name: 'Cards', description: 'Debit and credit cards.', components: ['card freeze', 'PIN reset', 'virtual cards', 'spending limits', 'card delivery tracker', 'chargeback form'] },
    { key: 'MB', name: 'Mobile Banking', description: 'The banking app.', components: ['transfer screen', 'biometric login', 'payee list', 'transaction search', 'savings goals', 'app settings'] },
    { key: 'FRD', name: 'Fraud Detection', description: 'Rules and models that stop fraud.', components: ['risk scoring', 'rule editor', 'case queue', 'device fingerprint', 'velocity checks', 'alert emails'] },
  ] },
  { title: 'Nimbus Issues', projects: [
    { key: 'CON', name: 'Console', description: 'The web console for cloud resources.', components: ['resource list', 'billing page', 'IAM editor', 'usage graphs', 'region picker', 'API key page'] },
    { key: 'CLI', name: 'Command Line', description: 'The nimbus command line tool.', components: ['login command', 'deploy command', 'config file parser', 'progress output', 'shell completion', 'update checker'] },
    { key: 'STO', name: 'Storage', description: 'Object storage and volumes.', components: ['bucket policies', 'multipart upload', 'lifecycle rules', 'volume snapshots', 'signed URLs', 'replication'] },
    { key: 'NET', name: 'Networking', description: 'Load balancers, DNS and VPCs.', components: ['load balancer', 'DNS records', 'VPC peering', 'firewall rules', 'TLS certificates', 'health checks'] },
  ] },
];

/** Issue types. */
export const TYPES = ['Bug', 'Feature', 'Task'] as const;
/** Statuses in workflow order. */
export const STATUSES = ['Open', 'In progress', 'Done', 'Closed'] as const;
/** Priorities, lowest first. */
export const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;
/** Labels an issue can carry. */
export const LABELS = ['frontend', 'backend', 'security', 'performance', 'accessibility', 'docs', 'regression', 'good first issue'] as const;
/** Team roles. */
export const ROLES = ['Engineer', 'Engineer', 'Designer', 'Product manager', 'QA engineer', 'Engineer', 'Engineering manager', 'Engineer'] as const;

/** Title templates per type; `{c}` is a component, `{C}` the same capitalised. */
export const TITLES: Record<(typeof TYPES)[number], readonly string[]> = {
  Bug: ['Crash on Safari in the {c}', 'Wrong totals in the {c}', 'Typo on the {c}', 'Slow loading of the {c}', 'Broken layout of the {c} on small screens',
    'Error when saving the {c}', 'Time zone ignored by the {c}', 'Broken link in the {c}', 'Input lost after refresh in the {c}', 'Double submit on the {c}',
    'Long names cut off in the {c}', 'Memory leak in the {c}'],
  Feature: ['Add dark mode to the {c}', 'Export {c} data as CSV', 'Keyboard shortcuts for the {c}', 'Show a loading state in the {c}', 'Add filters to the {c}',
    'Localize the {c} into Spanish', 'Undo support in the {c}', 'Bulk actions for the {c}'],
  Task: ['Write tests for the {c}', 'Upgrade dependencies of the {c}', 'Document the {c}', 'Refactor the {c} styles', 'Add monitoring for the {c}',
    'Clean up feature flags in the {c}', 'Remove dead code from the {c}'],
};

/** Description openings per type. */
export const DESCRIPTIONS: Record<(typeof TYPES)[number], readonly string[]> = {
  Bug: ['Steps to reproduce: open the {c}, fill in the form and submit. Expected: it saves. Actual: an error appears.',
    'Reported by two customers this week. It happens about one time in five, mostly on older devices.',
    'Started after the last release. Rolling back the {c} change fixes it locally.'],
  Feature: ['As a user I want this in the {c} so that I can work faster.', 'Requested by several large customers during the last quarterly review.',
    'Design mock-ups are attached to the design doc. Keep it behind a feature flag at first.'],
  Task: ['Part of the cleanup before the next release.', 'We need this before we can hand the {c} over to the new team.', 'Small, well-contained job; a good one to pair on.'],
};

/** Comment texts. */
export const COMMENTS = [
  'I can reproduce this on the staging build.', 'Looking into it today.', 'Could this be related to the caching change from last week?',
  'Pushed a fix to a branch, review welcome.', 'Added a test that covers this case.', 'This is blocking the release, raising it in stand-up.',
  'Customer confirmed the workaround helps for now.', 'Moved to the next milestone, we ran out of time.', 'Design is approved, go ahead.',
  'Needs a second pair of eyes on the migration.', 'Verified on production, looks good.', 'Can we split this into two smaller issues?',
];
