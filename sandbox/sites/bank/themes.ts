/** The bank's data variants: one bank per variant (name, accounts, cards, local billers) and the shared merchant lists. @module */

/** An account a theme's customer holds. */
export interface ThemeAccount {
  readonly name: string;
  readonly type: 'checking' | 'savings' | 'credit';
  /** Annual percentage yield for savings, `0` otherwise. */
  readonly rate?: number;
  /** Credit limit of a credit card account. */
  readonly limit?: number;
}

/** A bank theme. */
export interface BankTheme {
  readonly title: string;
  /** Confirmation numbers look like `<prefix>-204153`. */
  readonly prefix: string;
  /** The bank's routing number. */
  readonly routing: string;
  /** The card network of the bank's cards. */
  readonly network: 'Visa' | 'Mastercard';
  /** The first account is the primary checking account; one credit account at most. */
  readonly accounts: readonly ThemeAccount[];
  /** Local billers: electricity, water, internet, mobile phone, insurance. */
  readonly billers: readonly [string, string, string, string, string];
}

/** Eight banks: variant `n` uses theme `n - 1`. */
export const THEMES: readonly BankTheme[] = [
  {
    title: 'Harborview Bank', prefix: 'HB', routing: '021000089', network: 'Visa',
    accounts: [{ name: 'Everyday Checking', type: 'checking' }, { name: 'High-Yield Savings', type: 'savings', rate: 4.1 },
      { name: 'Vacation Fund', type: 'savings', rate: 3.75 }, { name: 'Harbor Rewards Card', type: 'credit', limit: 6000 }],
    billers: ['Bayside Electric', 'Harbor City Water', 'Wavelink Internet', 'Cellular One Mobile', 'Anchor Mutual Insurance'],
  },
  {
    title: 'Summit Federal Credit Union', prefix: 'SF', routing: '302075830', network: 'Mastercard',
    accounts: [{ name: 'Share Checking', type: 'checking' }, { name: 'Share Savings', type: 'savings', rate: 3.2 },
      { name: 'Holiday Club', type: 'savings', rate: 2.5 }, { name: 'Summit Platinum Mastercard', type: 'credit', limit: 8500 }],
    billers: ['Rocky Ridge Power', 'Alpine Valley Water', 'PeakNet Fiber', 'Granite Wireless', 'Trailhead Auto Insurance'],
  },
  {
    title: 'Cedar Trust', prefix: 'CT', routing: '071923284', network: 'Visa',
    accounts: [{ name: 'Cedar Checking', type: 'checking' }, { name: 'Bills Checking', type: 'checking' },
      { name: 'Cedar Money Market', type: 'savings', rate: 4.35 }, { name: 'Cedar Cash Back Visa', type: 'credit', limit: 5000 }],
    billers: ['Northwoods Energy', 'Lakeside Utilities', 'Timberline Broadband', 'Pinecone Mobile', 'Evergreen Home Insurance'],
  },
  {
    title: 'Bluewater Bank', prefix: 'BW', routing: '121042882', network: 'Visa',
    accounts: [{ name: 'Bluewater Checking', type: 'checking' }, { name: 'Emergency Savings', type: 'savings', rate: 4.0 },
      { name: 'Home Down Payment', type: 'savings', rate: 4.0 }, { name: 'Bluewater Travel Card', type: 'credit', limit: 7500 }],
    billers: ['Coastal Power & Light', 'Tidewater Water Authority', 'Surfline Internet', 'Seaside Mobile', 'Breakwater Insurance'],
  },
  {
    title: 'Prairie State Bank', prefix: 'PS', routing: '101000187', network: 'Mastercard',
    accounts: [{ name: 'Prairie Checking', type: 'checking' }, { name: 'Prairie Savings', type: 'savings', rate: 3.5 },
      { name: 'Prairie Rewards Mastercard', type: 'credit', limit: 4000 }],
    billers: ['Heartland Electric Co-op', 'Prairie Rural Water', 'Plainsview Internet', 'Windmill Wireless', 'Harvest Mutual Insurance'],
  },
  {
    title: 'Northstar Credit Union', prefix: 'NS', routing: '291070001', network: 'Visa',
    accounts: [{ name: 'Northstar Checking', type: 'checking' }, { name: 'Joint Household Checking', type: 'checking' },
      { name: 'Northstar Savings', type: 'savings', rate: 3.9 }, { name: 'College Savings', type: 'savings', rate: 3.6 },
      { name: 'Northstar Visa Signature', type: 'credit', limit: 9000 }],
    billers: ['Polar Power', 'North Shore Water', 'Aurora Broadband', 'Glacier Mobile', 'Compass Insurance'],
  },
  {
    title: 'Lighthouse Savings Bank', prefix: 'LS', routing: '011075150', network: 'Mastercard',
    accounts: [{ name: 'Beacon Checking', type: 'checking' }, { name: 'Lighthouse Savings', type: 'savings', rate: 4.25 },
      { name: 'New Car Fund', type: 'savings', rate: 4.25 }, { name: 'Beacon World Mastercard', type: 'credit', limit: 6500 }],
    billers: ['Cape Electric', 'Seacliff Water District', 'Foghorn Fiber', 'Keeper Mobile', 'Lantern Life & Home'],
  },
  {
    title: 'Meridian Bank', prefix: 'MB', routing: '061000104', network: 'Visa',
    accounts: [{ name: 'Meridian Checking', type: 'checking' }, { name: 'Meridian Savings', type: 'savings', rate: 3.8 },
      { name: 'Wedding Fund', type: 'savings', rate: 3.8 }, { name: 'Meridian Preferred Visa', type: 'credit', limit: 10000 }],
    billers: ['Midtown Gas & Electric', 'Meridian City Water', 'Crosstown Internet', 'Metro Mobile', 'Longitude Insurance'],
  },
];

/** Spending categories, as stored and shown. */
export const CATEGORIES = [
  'Groceries', 'Dining', 'Transport', 'Shopping', 'Entertainment', 'Health', 'Travel', 'Bills & Utilities', 'Housing',
  'Income', 'Transfers', 'Cash', 'Fees', 'Interest',
] as const;

/** Card purchases: merchants per category and a typical amount range. */
export const MERCHANTS: ReadonlyArray<{ category: (typeof CATEGORIES)[number]; names: readonly string[]; amount: readonly [number, number] }> = [
  { category: 'Groceries', names: ['Whole Foods Market', "Trader Joe's", 'Safeway', 'Kroger', 'Aldi', 'Costco Wholesale', 'Sprouts Farmers Market', 'Wegmans', 'Corner Market'], amount: [14, 185] },
  { category: 'Dining', names: ['Starbucks', 'Chipotle', 'Panera Bread', 'Sweetgreen', 'Blue Bottle Coffee', 'Shake Shack', 'Olive Garden', 'Noodle House', 'Taqueria El Sol'], amount: [5, 95] },
  { category: 'Transport', names: ['Shell', 'Chevron', 'Uber', 'Lyft', 'Metro Transit', 'City Parking', 'Exxon'], amount: [9, 78] },
  { category: 'Shopping', names: ['Amazon', 'Target', 'Best Buy', 'Home Depot', 'IKEA', "Macy's", 'REI', 'Etsy'], amount: [12, 290] },
  { category: 'Entertainment', names: ['AMC Theatres', 'Steam', 'Ticketmaster', 'Barnes & Noble', 'Bowlero'], amount: [8, 120] },
  { category: 'Health', names: ['CVS Pharmacy', 'Walgreens', 'Bright Smile Dental', 'City Eye Care'], amount: [9, 160] },
  { category: 'Travel', names: ['Delta Air Lines', 'Marriott', 'Airbnb', 'Hertz', 'Amtrak'], amount: [85, 640] },
];

/** Monthly subscriptions charged to the credit card: name and amount. */
export const SUBSCRIPTIONS = [
  ['Netflix', 15.49], ['Spotify', 11.99], ['Disney+', 13.99], ['iCloud Storage', 2.99], ['New York Times', 17], ['Peloton', 44],
] as const;

/** Payee categories, as stored and shown. */
export const PAYEE_CATEGORIES = ['Utilities', 'Housing', 'Insurance', 'Phone & internet', 'Credit card', 'Person', 'Education', 'Health', 'Other'] as const;

/** Repeat choices of transfers and payments: stored value, label, days between (0: once; monthly is by month). */
export const FREQUENCIES = [
  { value: 'once', text: 'Just once' },
  { value: 'weekly', text: 'Every week' },
  { value: 'biweekly', text: 'Every two weeks' },
  { value: 'monthly', text: 'Every month' },
] as const;

/** ATM withdrawal limits a card can have, in dollars. */
export const ATM_LIMITS = [200, 300, 500, 800, 1000, 1500] as const;
