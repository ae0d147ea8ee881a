import type { Random } from './random';

/** A demo collection: what is registered, and how its assets' attributes are drawn. */
export interface CollectionBlueprint {
  name: string;
  description: string;
  maximumSupply: number;
  jsonSchema: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** How many wallets besides the registrant may mint; 0 registers no allowedIssuers. */
  extraIssuers: number;
  /** Progress of the ledger (0..1) at which the collection is registered. */
  launchAt: number;
  /** Relative share of the mints. */
  mintWeight: number;
  /** Registered with a larger supply when the ledger is asked for more assets than the blueprints hold. */
  openEnded?: boolean;
  /** Attributes of the asset with this serial; serials keep unique attributes unique. */
  attributes(random: Random, serial: number): Record<string, unknown>;
}

function objectSchema(properties: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'zen', 'tu', 'vo', 'pe', 'xi', 'an', 'sol', 'dri', 'mo', 'qua', 'be', 'ny'];

/** A pronounceable name that is distinct for every serial. */
function syllableName(serial: number): string {
  let name = '';
  let rest = serial + SYLLABLES.length;
  while (rest > 0) {
    name += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  }
  return name;
}

const CREATURES = ['Drake', 'Golem', 'Sprite', 'Wyvern', 'Kraken', 'Phoenix', 'Basilisk', 'Griffin', 'Yeti', 'Hydra'];
const ELEMENTS = ['Ember', 'Frost', 'Storm', 'Stone', 'Shadow', 'Tide', 'Thorn', 'Solar', 'Void', 'Iron'];
const RARITIES = ['common', 'uncommon', 'rare', 'epic', 'legendary'];
const ADJECTIVES = ['Quiet', 'Golden', 'Broken', 'Endless', 'Hidden', 'Restless', 'Northern', 'Silent', 'Crimson', 'Pale'];
const NOUNS = ['Harbor', 'Garden', 'Horizon', 'Lantern', 'Orchard', 'Signal', 'Meadow', 'Archive', 'Canal', 'Orbit'];
const ARTISTS = ['Ada Lindqvist', 'Kofi Mensah', 'Mei Tanaka', 'Lucas Ferreira', 'Noor Haddad', 'Ivan Petrov', 'Zoe Martin'];
const MEDIA = ['oil on canvas', 'digital', 'watercolour', 'photograph', 'generative'];
const TLDS = ['ark', 'nft', 'io'];
const SPECIES = ['cat', 'fox', 'owl', 'frog', 'axolotl', 'otter', 'panda'];
const COLOURS = ['teal', 'amber', 'violet', 'crimson', 'mint', 'charcoal'];
const TRAITS = ['sleepy', 'curious', 'brave', 'glowing', 'tiny', 'spotted', 'winged', 'grumpy'];
const MAKES: Array<[make: string, models: string[]]> = [
  ['Alfa Romeo', ['Giulia', 'Montreal', 'Spider']],
  ['Porsche', ['356', '911', '917']],
  ['Ferrari', ['250 GTO', 'Dino', 'Testarossa']],
  ['Lancia', ['Stratos', 'Delta', 'Fulvia']],
];

const SEATS_PER_ROW = 20;
const TICKET_ROWS = 15;

export const COLLECTION_BLUEPRINTS: CollectionBlueprint[] = [
  {
    name: 'Ledger Legends Cards',
    description: 'Collectible battle cards with hit points and rarity',
    maximumSupply: 2000,
    jsonSchema: objectSchema({
      name: { type: 'string', minLength: 1, maxLength: 40 },
      hp: { type: 'integer', minimum: 10, maximum: 300 },
      rarity: { type: 'string', enum: RARITIES },
    }),
    metadata: { game: 'Ledger Legends', season: 1 },
    extraIssuers: 2,
    launchAt: 0,
    mintWeight: 34,
    attributes: (random) => ({
      name: `${random.pick(ELEMENTS)} ${random.pick(CREATURES)}`,
      hp: random.int(10, 300),
      rarity: RARITIES[random.weightedIndex([50, 25, 14, 8, 3])],
    }),
  },
  {
    name: 'Open Canvas Art',
    description: 'Paintings and digital works by independent artists',
    maximumSupply: 600,
    jsonSchema: objectSchema({
      title: { type: 'string', minLength: 1, maxLength: 60 },
      artist: { type: 'string' },
      year: { type: 'integer', minimum: 1850, maximum: 2030 },
      medium: { type: 'string' },
    }),
    metadata: { website: 'https://opencanvas.example', license: 'CC-BY-4.0' },
    extraIssuers: 0,
    launchAt: 0,
    mintWeight: 12,
    attributes: (random) => ({
      title: `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`,
      artist: random.pick(ARTISTS),
      year: random.int(1880, 2021),
      medium: random.pick(MEDIA),
    }),
  },
  {
    name: 'Harbor Festival Tickets 2021',
    description: 'Numbered seats for the three festival nights',
    maximumSupply: TICKET_ROWS * SEATS_PER_ROW,
    jsonSchema: objectSchema({
      event: { type: 'string' },
      row: { type: 'integer', minimum: 1, maximum: TICKET_ROWS },
      seat: { type: 'integer', minimum: 1, maximum: SEATS_PER_ROW },
      vip: { type: 'boolean' },
    }),
    extraIssuers: 1,
    launchAt: 0.05,
    mintWeight: 14,
    attributes: (random, serial) => ({
      event: random.pick(['Harbor Festival: Friday', 'Harbor Festival: Saturday', 'Harbor Festival: Sunday']),
      row: Math.floor(serial / SEATS_PER_ROW) + 1,
      seat: (serial % SEATS_PER_ROW) + 1,
      vip: serial < SEATS_PER_ROW * 2,
    }),
  },
  {
    name: 'Chain Name Service',
    description: 'Human readable names that resolve to wallet addresses',
    maximumSupply: 100000,
    jsonSchema: objectSchema({
      domain: { type: 'string', pattern: '^[a-z0-9-]+\\.[a-z]+$' },
      length: { type: 'integer', minimum: 1 },
      expiresAtHeight: { type: 'integer', minimum: 1 },
    }),
    extraIssuers: 0,
    launchAt: 0.12,
    mintWeight: 20,
    openEnded: true,
    attributes: (random, serial) => {
      const label = syllableName(serial);
      return { domain: `${label}.${random.pick(TLDS)}`, length: label.length, expiresAtHeight: random.int(5000, 500000) };
    },
  },
  {
    name: 'Pixel Pets',
    description: 'Tiny pixel companions with traits',
    maximumSupply: 1000,
    jsonSchema: objectSchema({
      species: { type: 'string' },
      colour: { type: 'string' },
      level: { type: 'integer', minimum: 1, maximum: 99 },
      traits: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    }),
    extraIssuers: 3,
    launchAt: 0.3,
    mintWeight: 14,
    attributes: (random) => ({
      species: random.pick(SPECIES),
      colour: random.pick(COLOURS),
      level: random.int(1, 99),
      traits: random.sample(TRAITS, random.int(0, 3)),
    }),
  },
  {
    name: 'Vintage Racing Cars',
    description: 'Certificates of ownership for restored racing cars',
    maximumSupply: 250,
    jsonSchema: objectSchema({
      make: { type: 'string' },
      model: { type: 'string' },
      year: { type: 'integer', minimum: 1940, maximum: 1995 },
      topSpeedKmh: { type: 'number', minimum: 100 },
    }),
    metadata: { registry: 'Historic Motorsport Registry', verified: true },
    extraIssuers: 0,
    launchAt: 0.5,
    mintWeight: 6,
    attributes: (random) => {
      const [make, models] = random.pick(MAKES);
      return { make, model: random.pick(models), year: random.int(1948, 1992), topSpeedKmh: random.int(1800, 3400) / 10 };
    },
  },
  {
    name: 'Genesis Badges',
    description: 'Badges for the first members of the community',
    maximumSupply: 25,
    jsonSchema: objectSchema({ badge: { type: 'string' }, number: { type: 'integer', minimum: 1, maximum: 25 } }),
    extraIssuers: 4,
    launchAt: 0.02,
    mintWeight: 0.5,
    attributes: (_random, serial) => ({ badge: `Genesis #${serial + 1}`, number: serial + 1 }),
  },
];

/** Assets the blueprints hold at their own supply. */
export const BLUEPRINT_SUPPLY = COLLECTION_BLUEPRINTS.reduce((sum, blueprint) => sum + blueprint.maximumSupply, 0);
