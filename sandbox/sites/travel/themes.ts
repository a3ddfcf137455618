/** The travel template's data variants: one agency per variant (brand, region, airports, airlines, currency). @module */

/** A city with its main airport. */
export interface City {
  readonly name: string;
  /** The IATA airport code, `BOS`. */
  readonly code: string;
}

/** An airline: its name and two-letter flight number prefix. */
export interface Airline {
  readonly name: string;
  readonly code: string;
}

/** An agency theme. */
export interface TravelTheme {
  readonly title: string;
  /** Booking references look like `<prefix>-7QK2PD`. */
  readonly prefix: string;
  /** The currency sign prices are shown with. */
  readonly currency: string;
  readonly cities: readonly City[];
  readonly airlines: readonly Airline[];
  /** Neighbourhood names hotels are placed in. */
  readonly areas: readonly string[];
}

/** Eight themes: variant `n` uses theme `n - 1`. The first city is the traveller's home airport. */
export const THEMES: readonly TravelTheme[] = [
  {
    title: 'SkyWay Travel', prefix: 'SW', currency: '$',
    cities: [{ name: 'Boston', code: 'BOS' }, { name: 'New York', code: 'JFK' }, { name: 'Chicago', code: 'ORD' }, { name: 'Denver', code: 'DEN' },
      { name: 'Seattle', code: 'SEA' }, { name: 'Miami', code: 'MIA' }, { name: 'Austin', code: 'AUS' }, { name: 'San Francisco', code: 'SFO' }],
    airlines: [{ name: 'Bluejay Airlines', code: 'BJ' }, { name: 'Summit Air', code: 'SU' }, { name: 'Coastal Airways', code: 'CW' }, { name: 'Liberty Jet', code: 'LJ' }],
    areas: ['Downtown', 'Waterfront', 'Old Town', 'Airport District', 'Midtown', 'Arts District'],
  },
  {
    title: 'EuroJet Journeys', prefix: 'EJ', currency: '€',
    cities: [{ name: 'Amsterdam', code: 'AMS' }, { name: 'London', code: 'LHR' }, { name: 'Paris', code: 'CDG' }, { name: 'Berlin', code: 'BER' },
      { name: 'Madrid', code: 'MAD' }, { name: 'Rome', code: 'FCO' }, { name: 'Vienna', code: 'VIE' }, { name: 'Lisbon', code: 'LIS' }],
    airlines: [{ name: 'Aurora Air', code: 'AU' }, { name: 'Continental Wings', code: 'CN' }, { name: 'Euroflyer', code: 'EF' }, { name: 'Rhine Airways', code: 'RH' }],
    areas: ['City Centre', 'Old Quarter', 'Canal Belt', 'Museum District', 'Riverside', 'Station Quarter'],
  },
  {
    title: 'Pacific Wings Travel', prefix: 'PW', currency: '$',
    cities: [{ name: 'Singapore', code: 'SIN' }, { name: 'Tokyo', code: 'HND' }, { name: 'Seoul', code: 'ICN' }, { name: 'Sydney', code: 'SYD' },
      { name: 'Bangkok', code: 'BKK' }, { name: 'Hong Kong', code: 'HKG' }, { name: 'Manila', code: 'MNL' }, { name: 'Auckland', code: 'AKL' }],
    airlines: [{ name: 'Lotus Airlines', code: 'LO' }, { name: 'Pacific Crane', code: 'PC' }, { name: 'Jade Air', code: 'JA' }, { name: 'Southern Cross Air', code: 'SX' }],
    areas: ['Marina Bay', 'Central', 'Harbourside', 'Old Market', 'Business District', 'Riverside'],
  },
  {
    title: 'Northern Lights Trips', prefix: 'NL', currency: '€',
    cities: [{ name: 'Copenhagen', code: 'CPH' }, { name: 'Oslo', code: 'OSL' }, { name: 'Stockholm', code: 'ARN' }, { name: 'Helsinki', code: 'HEL' },
      { name: 'Reykjavik', code: 'KEF' }, { name: 'Bergen', code: 'BGO' }, { name: 'Gothenburg', code: 'GOT' }, { name: 'Tromsø', code: 'TOS' }],
    airlines: [{ name: 'Fjord Air', code: 'FJ' }, { name: 'Polar Wings', code: 'PL' }, { name: 'Baltic Jet', code: 'BA' }, { name: 'Nordic Sky', code: 'NS' }],
    areas: ['Harbour', 'Old Town', 'Design District', 'Central Station', 'Waterfront', 'University Quarter'],
  },
  {
    title: 'Sunbelt Getaways', prefix: 'SG', currency: '$',
    cities: [{ name: 'Mexico City', code: 'MEX' }, { name: 'Cancún', code: 'CUN' }, { name: 'Bogotá', code: 'BOG' }, { name: 'Lima', code: 'LIM' },
      { name: 'Panama City', code: 'PTY' }, { name: 'San José', code: 'SJO' }, { name: 'Santiago', code: 'SCL' }, { name: 'Buenos Aires', code: 'EZE' }],
    airlines: [{ name: 'Condor Andino', code: 'CA' }, { name: 'Sol Airlines', code: 'SO' }, { name: 'Quetzal Air', code: 'QZ' }, { name: 'Pampa Jet', code: 'PJ' }],
    areas: ['Centro Histórico', 'Beachfront', 'Zona Rosa', 'Old Port', 'Financial District', 'Hillside'],
  },
  {
    title: 'Maple Leaf Voyages', prefix: 'ML', currency: 'C$',
    cities: [{ name: 'Toronto', code: 'YYZ' }, { name: 'Vancouver', code: 'YVR' }, { name: 'Montreal', code: 'YUL' }, { name: 'Calgary', code: 'YYC' },
      { name: 'Ottawa', code: 'YOW' }, { name: 'Halifax', code: 'YHZ' }, { name: 'Edmonton', code: 'YEG' }, { name: 'Winnipeg', code: 'YWG' }],
    airlines: [{ name: 'Northern Goose Air', code: 'NG' }, { name: 'Prairie Air', code: 'PR' }, { name: 'Maritime Airways', code: 'MA' }, { name: 'Rocky Jet', code: 'RJ' }],
    areas: ['Downtown', 'Old Port', 'Waterfront', 'Entertainment District', 'West End', 'Uptown'],
  },
  {
    title: 'Island Hopper', prefix: 'IH', currency: '€',
    cities: [{ name: 'Athens', code: 'ATH' }, { name: 'Palma', code: 'PMI' }, { name: 'Malta', code: 'MLA' }, { name: 'Nice', code: 'NCE' },
      { name: 'Naples', code: 'NAP' }, { name: 'Dubrovnik', code: 'DBV' }, { name: 'Split', code: 'SPU' }, { name: 'Larnaca', code: 'LCA' }],
    airlines: [{ name: 'Aegean Breeze', code: 'AB' }, { name: 'Mistral Air', code: 'MS' }, { name: 'Azure Wings', code: 'AZ' }, { name: 'Olive Air', code: 'OL' }],
    areas: ['Old Town', 'Seafront', 'Harbour', 'Hilltop', 'Marina', 'Historic Centre'],
  },
  {
    title: 'Outback & Beyond', prefix: 'OB', currency: 'A$',
    cities: [{ name: 'Melbourne', code: 'MEL' }, { name: 'Sydney', code: 'SYD' }, { name: 'Brisbane', code: 'BNE' }, { name: 'Perth', code: 'PER' },
      { name: 'Adelaide', code: 'ADL' }, { name: 'Darwin', code: 'DRW' }, { name: 'Cairns', code: 'CNS' }, { name: 'Hobart', code: 'HBA' }],
    airlines: [{ name: 'Kookaburra Air', code: 'KB' }, { name: 'Red Centre Airlines', code: 'RC' }, { name: 'Coral Coast Air', code: 'CC' }, { name: 'Wattle Wings', code: 'WW' }],
    areas: ['CBD', 'Southbank', 'Harbourside', 'Beachside', 'Laneways', 'Riverside'],
  },
];

/** Hotel name parts: `The <first> <second>` or `<first> <second>`. */
export const HOTEL_FIRST = ['Harbor', 'Grand', 'Park', 'Riverside', 'Royal', 'Garden', 'Lantern', 'Summit', 'Meridian', 'Juniper', 'Copper', 'Cedar',
  'Ivory', 'Beacon', 'Maple', 'Willow', 'Crescent', 'Sterling', 'Atlas', 'Harmony', 'Coral', 'Monarch', 'Orchid', 'Bluebell'];
/** The second part of hotel names. */
export const HOTEL_SECOND = ['Hotel', 'Inn', 'Suites', 'Lodge', 'House', 'Residences', 'Boutique Hotel', 'Plaza Hotel', 'Guesthouse'];

/** Hotel amenities (filterable). */
export const AMENITIES = ['Free WiFi', 'Pool', 'Gym', 'Spa', 'Free breakfast', 'Parking', 'Pet friendly', 'Airport shuttle'] as const;

/** Room types: name, price factor over the hotel's base price, how many guests it sleeps. */
export const ROOM_TYPES = [
  { name: 'Standard Queen', factor: 1, sleeps: 2 },
  { name: 'Deluxe King', factor: 1.35, sleeps: 2 },
  { name: 'Twin Room', factor: 1.1, sleeps: 2 },
  { name: 'Family Suite', factor: 1.9, sleeps: 4 },
  { name: 'Junior Suite', factor: 1.7, sleeps: 3 },
] as const;
