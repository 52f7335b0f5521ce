import type { CountryCode, NicheId } from '../../shared/constants';

/**
 * Word lists for generated data: names, cities, and per-subcategory gig wording, so a generated
 * board reads like a real one in every niche and country.
 */

export const FIRST_NAMES = [
  'Ada', 'Amara', 'Ben', 'Chidi', 'Chloé', 'Dara', 'Elif', 'Emeka', 'Farah', 'Gabriel', 'Hana', 'Ife', 'Isla', 'Jonah',
  'Kemi', 'Léa', 'Liam', 'Maya', 'Mateo', 'Nia', 'Noah', 'Olu', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tariq', 'Tobi', 'Uma',
  'Victor', 'Wren', 'Xavier', 'Yara', 'Zoe', 'Hugo', 'Inès', 'Kwame', 'Lucie', 'Marcus', 'Nora',
];

export const LAST_NAMES = [
  'Adeyemi', 'Bernard', 'Campbell', 'Dubois', 'Eze', 'Fraser', 'Garcia', 'Hughes', 'Ibrahim', 'Johnson', 'Khan', 'Lefebvre',
  'Martin', 'Nwosu', 'Okafor', 'Patel', 'Quinlan', 'Roy', 'Smith', 'Tremblay', 'Usman', 'Walker', 'Young', 'Zhang',
  'Moreau', 'Balogun', 'Gagnon', 'Evans', 'Clarke', 'Laurent',
];

export const CITIES: Record<CountryCode, string[]> = {
  US: ['New York', 'Los Angeles', 'Chicago', 'Austin', 'Atlanta', 'Seattle', 'Nashville'],
  GB: ['London', 'Manchester', 'Bristol', 'Glasgow', 'Leeds', 'Brighton'],
  CA: ['Toronto', 'Montréal', 'Vancouver', 'Calgary', 'Ottawa', 'Halifax'],
  FR: ['Paris', 'Lyon', 'Marseille', 'Bordeaux', 'Lille', 'Nantes'],
  NG: ['Lagos', 'Abuja', 'Ibadan', 'Port Harcourt', 'Enugu', 'Kano'],
};

type Wording = { works: string[]; skills: string[] };

/** What people ask for in each subcategory (the niche's "Other" borrows from its siblings). */
export const WORDING: Record<NicheId, Record<string, Wording>> = {
  visual_art: {
    Illustration: { works: ['album cover illustration', "children's book spreads", 'editorial illustration', 'botanical prints'], skills: ['Illustration', 'Procreate', 'Watercolour', 'Ink'] },
    Painting: { works: ['mural for a café wall', 'portrait commission', 'large abstract canvas', 'storefront window painting'], skills: ['Acrylics', 'Oil painting', 'Murals', 'Colour theory'] },
    'Digital Art': { works: ['game character concept art', 'fantasy map', 'stream overlay art', 'NFT-free digital poster'], skills: ['Photoshop', 'Concept art', 'Krita', 'Digital painting'] },
    Drawing: { works: ['pencil portrait of a family', 'architectural sketches', 'tattoo flash sheet', 'comic strip pages'], skills: ['Pencil', 'Charcoal', 'Line art', 'Anatomy'] },
    'Graphic Design': { works: ['brand identity for a bakery', 'festival poster series', 'menu redesign', 'packaging for hot sauce'], skills: ['Illustrator', 'Typography', 'Branding', 'InDesign'] },
    'Web Design': { works: ['portfolio site for a photographer', 'landing page for a podcast', 'shop redesign', 'band website'], skills: ['Figma', 'Responsive design', 'Webflow', 'UX'] },
  },
  media: {
    Photography: { works: ['product photos for an online shop', 'wedding photography', 'headshots for a theatre company', 'event coverage'], skills: ['Photography', 'Lightroom', 'Studio lighting', 'Retouching'] },
    Videography: { works: ['music video', 'short documentary', 'wedding film', 'promo video for a gym'], skills: ['Videography', 'Premiere Pro', 'Gimbal work', 'Colour grading'] },
    Editing: { works: ['YouTube episode edits', 'podcast video cut-downs', 'wedding highlight reel', 'trailer edit'], skills: ['Video editing', 'DaVinci Resolve', 'Final Cut', 'Sound sync'] },
    Animation: { works: ['animated explainer video', 'logo animation', '2D short for a charity', 'lyric video'], skills: ['After Effects', '2D animation', 'Blender', 'Motion graphics'] },
  },
  writing: {
    'Fiction Writing': { works: ['short story for an anthology', 'ghostwritten novella', 'interactive fiction script', 'bedtime stories'], skills: ['Fiction', 'Storytelling', 'Editing', 'Worldbuilding'] },
    Poetry: { works: ['wedding poem', 'poems for a greeting card line', 'spoken word piece', 'poetry chapbook edit'], skills: ['Poetry', 'Spoken word', 'Editing'] },
    Screenwriting: { works: ['short film script', 'web series pilot', 'script doctoring', 'commercial script'], skills: ['Screenwriting', 'Final Draft', 'Dialogue', 'Story structure'] },
    Copywriting: { works: ['website copy for a salon', 'product descriptions', 'newsletter series', 'grant application copy'], skills: ['Copywriting', 'SEO', 'Brand voice', 'Proofreading'] },
  },
  music_and_sound: {
    Production: { works: ['beat for an EP', 'full song production', 'jingle for a radio ad', 'remix of a single'], skills: ['Ableton', 'Mixing', 'Arrangement', 'Logic Pro'] },
    'Sound Design': { works: ['sound effects for an indie game', 'podcast intro sting', 'sound for a theatre show', 'app UI sounds'], skills: ['Sound design', 'Foley', 'Reaper', 'Field recording'] },
    Engineering: { works: ['mixing and mastering an EP', 'live sound for a gig', 'vocal tuning', 'stem mastering'], skills: ['Mastering', 'Pro Tools', 'Live sound', 'Mixing'] },
    Singing: { works: ['session vocals for a single', 'wedding ceremony singer', 'backing vocals', 'jingle vocals'], skills: ['Vocals', 'Harmony', 'Sight reading'] },
    DJing: { works: ['DJ for a rooftop party', 'wedding DJ set', 'club warm-up set', 'corporate event DJ'], skills: ['DJing', 'Serato', 'Crowd reading', 'Afrobeats'] },
  },
  performing_arts: {
    Acting: { works: ['lead in a short film', 'voice-over for an audiobook', 'actor for a training video', 'murder-mystery dinner cast'], skills: ['Acting', 'Voice-over', 'Improvisation', 'Stage combat'] },
    Dance: { works: ['choreography for a music video', 'dancers for a launch event', 'wedding first-dance lessons', 'contemporary duet'], skills: ['Choreography', 'Contemporary', 'Hip hop', 'Ballet'] },
  },
  fashion: {
    Design: { works: ['capsule collection sketches', 'custom evening dress', 'streetwear graphics', 'costume design for a play'], skills: ['Fashion design', 'Pattern making', 'Sewing', 'Draping'] },
    Styling: { works: ['stylist for a lookbook shoot', 'wardrobe styling for a music video', 'personal shopping session', 'editorial styling'], skills: ['Styling', 'Wardrobe', 'Trend research'] },
    'Brand Ownership': { works: ['launch plan for a clothing label', 'lookbook production', 'pop-up shop setup', 'supplier sourcing'], skills: ['Brand strategy', 'Sourcing', 'Merchandising'] },
  },
  craft_diy: {
    'Jewelry Making': { works: ['custom engagement ring design', 'beaded bridesmaid bracelets', 'silver pendant commission', 'earring collection'], skills: ['Silversmithing', 'Beading', 'Wire wrapping'] },
    'Candle Making': { works: ['scented candles for a spa', 'wedding favour candles', 'private-label candle line', 'soy candle workshop'], skills: ['Candle making', 'Fragrance blending', 'Packaging'] },
    Woodworking: { works: ['walnut dining table', 'shop counter and shelves', 'hand-carved sign', 'custom guitar stand'], skills: ['Woodworking', 'Joinery', 'Finishing', 'CNC'] },
  },
  creative_business_owner: {
    'Social Media Creation': { works: ['a month of Instagram reels', 'TikTok series for a café', 'social templates', 'content calendar'], skills: ['Social media', 'Reels', 'Canva', 'Copywriting'] },
    Podcasting: { works: ['podcast launch', 'guest booking for a season', 'show notes writing', 'podcast cover art and trailer'], skills: ['Podcasting', 'Audio editing', 'Interviewing'] },
    'Influencer Marketing': { works: ['influencer campaign for a skincare brand', 'UGC videos', 'creator outreach', 'campaign report'], skills: ['Influencer marketing', 'UGC', 'Analytics'] },
    'Brand Ownership': { works: ['brand book for a studio', 'naming a new product line', 'market research for a shop', 'pitch deck design'], skills: ['Branding', 'Strategy', 'Pitch decks'] },
  },
};

export const OPENERS = [
  'We are looking for someone to take on a',
  'I need a talented creative for a',
  'Our small team is hiring for a',
  'Looking for help with a',
  'Seeking an experienced creative for a',
];

export const DETAILS = [
  'The brief, references and a mood board are ready.',
  'We would love to see two or three past pieces in a similar style.',
  'Revisions are included and we reply within a day.',
  'Credit is given on every channel the work appears on.',
  'The timeline is flexible for the right person.',
  'Files should be delivered in the usual formats for print and web.',
  'Happy to hop on a short call to talk it through.',
  'Budget is negotiable depending on experience.',
];

export const BIOS = [
  'Working creative with ten years of client work and a soft spot for small businesses.',
  'Self-taught and proud of it. I answer messages fast and deliver on time.',
  'Studio owner, teacher on weekends, always up for a new collaboration.',
  'I love projects with a story behind them. Based locally, working worldwide.',
  'Freelancer since 2016; past clients include theatres, labels and local shops.',
];

export const CHAT_LINES = [
  'Hi! Thanks for applying, your portfolio looks great.',
  'Thank you! Happy to share more samples if that helps.',
  'Could you do the first draft by next Friday?',
  'Yes, Friday works. I will send a sketch on Wednesday.',
  'Perfect. Do you need anything else from me?',
  'Just the logo files and the colours you want to keep.',
  'Sent them over by email just now.',
  'Got them, thanks. I will keep you posted.',
  'The draft is ready, let me know what you think!',
  'Love it. Only small changes on the second page.',
];
