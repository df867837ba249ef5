/**
 * The 19 stickers of the editor (docs/spec.md, section 9), drawn for this project as small SVGs on
 * a 100×100 box. They travel as data URLs, so they are part of the editor's chunk, need no request
 * and never taint the canvas when it is flattened to a JPEG.
 */

export interface StickerEntry {
  id: string;
  name: string;
  url: string;
}

const RED = '#c8102e';
const DARK_RED = '#8c0e21';
const GREEN = '#1b7a43';
const DARK_GREEN = '#0e4f2b';
const GOLD = '#f2c14e';
const BROWN = '#8a5a2b';
const WHITE = '#ffffff';
const INK = '#2b2b2b';

const ART: Record<string, [name: string, body: string]> = {
  'santa-hat': [
    'Santa Hat',
    `<path d="M18 74 C24 38 48 16 74 22 C86 25 90 38 84 50 C78 40 70 36 62 40 C70 50 76 62 80 74 Z" fill="${RED}"/>
     <path d="M62 40 C70 50 76 62 80 74 L70 74 C66 62 62 52 56 44 Z" fill="${DARK_RED}" opacity=".35"/>
     <rect x="12" y="70" width="74" height="16" rx="8" fill="${WHITE}" stroke="#dcdcdc" stroke-width="2"/>
     <circle cx="84" cy="52" r="9" fill="${WHITE}" stroke="#dcdcdc" stroke-width="2"/>`,
  ],
  reindeer: [
    'Reindeer',
    `<path d="M34 30 C30 18 22 14 16 8 M28 22 L18 22 M30 26 L24 32" stroke="${BROWN}" stroke-width="5" fill="none" stroke-linecap="round"/>
     <path d="M66 30 C70 18 78 14 84 8 M72 22 L82 22 M70 26 L76 32" stroke="${BROWN}" stroke-width="5" fill="none" stroke-linecap="round"/>
     <ellipse cx="30" cy="40" rx="9" ry="5" transform="rotate(-30 30 40)" fill="#a8743f"/>
     <ellipse cx="70" cy="40" rx="9" ry="5" transform="rotate(30 70 40)" fill="#a8743f"/>
     <path d="M32 38 C32 28 68 28 68 38 L66 70 C64 86 36 86 34 70 Z" fill="#a8743f"/>
     <ellipse cx="50" cy="74" rx="14" ry="11" fill="#d9b48a"/>
     <circle cx="42" cy="48" r="4" fill="${INK}"/><circle cx="58" cy="48" r="4" fill="${INK}"/>
     <circle cx="43" cy="47" r="1.3" fill="${WHITE}"/><circle cx="59" cy="47" r="1.3" fill="${WHITE}"/>
     <circle cx="50" cy="70" r="8" fill="#e3202f"/><circle cx="47" cy="67" r="2.5" fill="#ff8a8a"/>`,
  ],
  snowman: [
    'Snowman',
    `<circle cx="50" cy="72" r="22" fill="${WHITE}" stroke="#c9d6e3" stroke-width="2"/>
     <circle cx="50" cy="38" r="16" fill="${WHITE}" stroke="#c9d6e3" stroke-width="2"/>
     <rect x="36" y="8" width="28" height="16" rx="2" fill="${INK}"/><rect x="30" y="22" width="40" height="5" rx="2" fill="${INK}"/>
     <rect x="36" y="18" width="28" height="4" fill="${RED}"/>
     <circle cx="44" cy="35" r="2.5" fill="${INK}"/><circle cx="56" cy="35" r="2.5" fill="${INK}"/>
     <path d="M50 40 L64 44 L50 45 Z" fill="#f28c28"/>
     <path d="M36 52 C44 58 56 58 64 52 L66 60 L56 58 L58 68 L50 60 Z" fill="${RED}"/>
     <circle cx="50" cy="68" r="2.5" fill="${INK}"/><circle cx="50" cy="78" r="2.5" fill="${INK}"/>`,
  ],
  tree: [
    'Christmas Tree',
    `<rect x="44" y="80" width="12" height="14" fill="${BROWN}"/>
     <path d="M50 14 L80 50 L64 50 L86 80 L14 80 L36 50 L20 50 Z" fill="${GREEN}"/>
     <path d="M50 14 L80 50 L64 50 L86 80 L50 80 Z" fill="${DARK_GREEN}" opacity=".35"/>
     <path d="M50 4 L53 11 L61 11 L55 16 L57 24 L50 19 L43 24 L45 16 L39 11 L47 11 Z" fill="${GOLD}"/>
     <circle cx="40" cy="60" r="4" fill="${RED}"/><circle cx="60" cy="66" r="4" fill="${GOLD}"/>
     <circle cx="50" cy="40" r="4" fill="#3a7bd5"/><circle cx="30" cy="74" r="4" fill="${GOLD}"/><circle cx="70" cy="75" r="4" fill="${RED}"/>`,
  ],
  star: [
    'Star',
    `<path d="M50 6 L62 36 L94 38 L69 58 L78 90 L50 72 L22 90 L31 58 L6 38 L38 36 Z" fill="${GOLD}" stroke="#c9962a" stroke-width="3" stroke-linejoin="round"/>
     <path d="M50 18 L58 40 L80 42" fill="none" stroke="#fff3c4" stroke-width="3" stroke-linecap="round"/>`,
  ],
  gift: [
    'Gift',
    `<rect x="14" y="42" width="72" height="50" rx="4" fill="${RED}"/>
     <rect x="10" y="30" width="80" height="16" rx="4" fill="${DARK_RED}"/>
     <rect x="44" y="30" width="12" height="62" fill="${GOLD}"/>
     <path d="M50 30 C36 10 18 18 30 28 C36 32 46 30 50 30 C54 30 64 32 70 28 C82 18 64 10 50 30 Z" fill="none" stroke="${GOLD}" stroke-width="6" stroke-linejoin="round"/>`,
  ],
  'candy-cane': [
    'Candy Cane',
    `<path d="M38 92 L38 34 C38 16 70 16 70 34 L70 42" fill="none" stroke="${WHITE}" stroke-width="16" stroke-linecap="round"/>
     <path d="M38 92 L38 34 C38 16 70 16 70 34 L70 42" fill="none" stroke="${RED}" stroke-width="16" stroke-linecap="round" stroke-dasharray="9 9"/>`,
  ],
  bell: [
    'Bell',
    `<path d="M50 14 C30 14 24 34 24 52 C24 64 18 70 14 76 L86 76 C82 70 76 64 76 52 C76 34 70 14 50 14 Z" fill="${GOLD}" stroke="#c9962a" stroke-width="3"/>
     <circle cx="50" cy="82" r="8" fill="#c9962a"/>
     <path d="M34 40 C36 30 42 24 48 22" fill="none" stroke="#fff3c4" stroke-width="4" stroke-linecap="round"/>
     <path d="M50 14 C40 2 30 6 36 12 C40 16 48 14 50 14 C52 14 60 16 64 12 C70 6 60 2 50 14 Z" fill="${RED}"/>`,
  ],
  holly: [
    'Holly',
    `<path d="M50 56 C40 40 22 46 8 34 C14 44 8 50 14 56 C22 58 24 66 30 70 C34 62 44 64 50 56 Z" fill="${GREEN}" stroke="${DARK_GREEN}" stroke-width="2"/>
     <path d="M50 56 C60 40 78 46 92 34 C86 44 92 50 86 56 C78 58 76 66 70 70 C66 62 56 64 50 56 Z" fill="${GREEN}" stroke="${DARK_GREEN}" stroke-width="2"/>
     <circle cx="44" cy="60" r="8" fill="${RED}"/><circle cx="56" cy="60" r="8" fill="${RED}"/><circle cx="50" cy="70" r="8" fill="${RED}"/>
     <circle cx="42" cy="57" r="2" fill="#ff9a9a"/><circle cx="54" cy="57" r="2" fill="#ff9a9a"/><circle cx="48" cy="67" r="2" fill="#ff9a9a"/>`,
  ],
  snowflake: [
    'Snowflake',
    `<g stroke="#5aa9e6" stroke-width="6" stroke-linecap="round" fill="none">
       <path d="M50 8 V92 M14 29 L86 71 M14 71 L86 29"/>
       <path d="M40 16 L50 26 L60 16 M40 84 L50 74 L60 84 M16 42 L29 36 L24 22 M84 58 L71 64 L76 78 M16 58 L29 64 L24 78 M84 42 L71 36 L76 22"/>
     </g>
     <circle cx="50" cy="50" r="7" fill="#d6ecfb" stroke="#5aa9e6" stroke-width="3"/>`,
  ],
  ornament: [
    'Ornament',
    `<rect x="42" y="10" width="16" height="12" rx="2" fill="#b8b8b8"/>
     <circle cx="50" cy="10" r="5" fill="none" stroke="#8f8f8f" stroke-width="3"/>
     <circle cx="50" cy="58" r="36" fill="#2f6fd1"/>
     <path d="M16 52 C30 60 70 60 84 52 L86 62 C70 70 30 70 14 62 Z" fill="${GOLD}"/>
     <circle cx="32" cy="40" r="6" fill="#ffffff88"/>
     <circle cx="38" cy="80" r="3" fill="${WHITE}"/><circle cx="62" cy="80" r="3" fill="${WHITE}"/><circle cx="50" cy="84" r="3" fill="${WHITE}"/>`,
  ],
  stocking: [
    'Stocking',
    `<path d="M34 26 L66 26 L66 62 C66 76 58 90 40 90 L26 90 C14 90 12 74 24 70 L34 66 Z" fill="${RED}"/>
     <rect x="30" y="10" width="40" height="18" rx="4" fill="${WHITE}" stroke="#dcdcdc" stroke-width="2"/>
     <path d="M26 90 C14 90 12 74 24 70 L30 68 C28 76 32 84 40 90 Z" fill="${GREEN}"/>
     <path d="M62 30 L62 60" stroke="${DARK_RED}" stroke-width="3" opacity=".4"/>
     <path d="M44 44 L47 51 L54 51 L48 55 L50 62 L44 58 L38 62 L40 55 L34 51 L41 51 Z" fill="${GOLD}"/>`,
  ],
  gingerbread: [
    'Gingerbread Man',
    `<path d="M50 8 C40 8 34 16 34 24 C34 30 37 34 40 36 L20 40 C12 42 12 52 20 52 L34 50 L30 80 C28 90 40 94 44 86 L50 72 L56 86 C60 94 72 90 70 80 L66 50 L80 52 C88 52 88 42 80 40 L60 36 C63 34 66 30 66 24 C66 16 60 8 50 8 Z" fill="#b9733b"/>
     <circle cx="44" cy="22" r="3" fill="${INK}"/><circle cx="56" cy="22" r="3" fill="${INK}"/>
     <path d="M43 29 C47 33 53 33 57 29" stroke="${WHITE}" stroke-width="2.5" fill="none" stroke-linecap="round"/>
     <circle cx="50" cy="44" r="3.5" fill="${RED}"/><circle cx="50" cy="56" r="3.5" fill="${GREEN}"/>
     <path d="M18 46 L26 46 M74 46 L82 46 M34 84 L40 82 M60 82 L66 84" stroke="${WHITE}" stroke-width="2.5" stroke-linecap="round"/>`,
  ],
  mitten: [
    'Mitten',
    `<path d="M30 70 L28 34 C28 18 44 10 56 14 C68 18 70 30 70 40 L72 44 C76 38 84 38 86 44 C88 52 80 60 72 66 L70 70 Z" fill="#2f6fd1"/>
     <rect x="26" y="68" width="48" height="20" rx="5" fill="${WHITE}" stroke="#dcdcdc" stroke-width="2"/>
     <path d="M36 34 L44 30 L52 34 L60 30 M36 46 L44 42 L52 46 L60 42" stroke="${WHITE}" stroke-width="3" fill="none" stroke-linecap="round"/>
     <path d="M38 58 L42 54 L46 58 L50 54 L54 58 L58 54 L62 58" stroke="${GOLD}" stroke-width="3" fill="none" stroke-linecap="round"/>`,
  ],
  sleigh: [
    'Sleigh',
    `<path d="M10 86 L80 86 C90 86 94 78 90 72" fill="none" stroke="${GOLD}" stroke-width="5" stroke-linecap="round"/>
     <path d="M26 86 L30 76 M66 86 L62 76" stroke="${GOLD}" stroke-width="5" stroke-linecap="round"/>
     <path d="M16 40 C16 30 24 28 28 36 L34 50 L76 50 C84 50 86 44 88 40 C90 52 86 76 72 76 L26 76 C18 76 16 66 16 56 Z" fill="${RED}"/>
     <path d="M30 56 L74 56" stroke="${GOLD}" stroke-width="3"/>
     <rect x="40" y="30" width="18" height="20" rx="2" fill="${GREEN}"/><rect x="47" y="30" width="4" height="20" fill="${GOLD}"/>
     <rect x="58" y="36" width="14" height="14" rx="2" fill="#2f6fd1"/><rect x="63" y="36" width="4" height="14" fill="${WHITE}"/>`,
  ],
  'elf-hat': [
    'Elf Hat',
    `<path d="M16 72 C24 50 40 20 72 10 C64 24 70 40 84 72 Z" fill="${GREEN}"/>
     <path d="M72 10 C64 24 70 40 84 72 L70 72 C60 48 60 28 72 10 Z" fill="${DARK_GREEN}" opacity=".4"/>
     <path d="M12 70 L88 70 L84 86 L74 80 L64 88 L54 80 L44 88 L34 80 L24 88 L16 82 Z" fill="${RED}"/>
     <circle cx="72" cy="10" r="7" fill="${GOLD}" stroke="#c9962a" stroke-width="2"/>`,
  ],
  wreath: [
    'Wreath',
    `<circle cx="50" cy="50" r="32" fill="none" stroke="${GREEN}" stroke-width="18"/>
     <circle cx="50" cy="50" r="32" fill="none" stroke="${DARK_GREEN}" stroke-width="6" stroke-dasharray="4 10"/>
     <circle cx="30" cy="30" r="4" fill="${RED}"/><circle cx="74" cy="36" r="4" fill="${RED}"/><circle cx="72" cy="70" r="4" fill="${RED}"/><circle cx="24" cy="62" r="4" fill="${RED}"/><circle cx="50" cy="20" r="4" fill="${GOLD}"/>
     <path d="M50 80 L36 94 L40 80 Z M50 80 L64 94 L60 80 Z" fill="${RED}"/>
     <path d="M50 80 C38 66 28 76 36 82 C42 86 48 82 50 80 C52 82 58 86 64 82 C72 76 62 66 50 80 Z" fill="${RED}"/>`,
  ],
  cookie: [
    'Cookie',
    `<circle cx="50" cy="50" r="40" fill="#d9a15b" stroke="#b57a35" stroke-width="3"/>
     <path d="M50 24 L56 42 L76 42 L60 54 L66 74 L50 62 L34 74 L40 54 L24 42 L44 42 Z" fill="${WHITE}"/>
     <circle cx="28" cy="30" r="4" fill="#5a3318"/><circle cx="74" cy="64" r="4" fill="#5a3318"/><circle cx="30" cy="70" r="3.5" fill="#5a3318"/><circle cx="72" cy="28" r="3" fill="#5a3318"/>
     <circle cx="50" cy="50" r="4" fill="${RED}"/>`,
  ],
  'ho-ho-ho': [
    'Ho Ho Ho Banner',
    `<path d="M4 36 L16 36 L16 64 L4 64 L10 50 Z M96 36 L84 36 L84 64 L96 64 L90 50 Z" fill="${DARK_RED}"/>
     <rect x="12" y="30" width="76" height="34" rx="4" fill="${RED}"/>
     <text x="50" y="53" font-family="'Liberation Sans', Arial, Helvetica, sans-serif" font-size="17" font-weight="700" fill="${WHITE}" text-anchor="middle">Ho Ho Ho</text>
     <circle cx="18" cy="30" r="4" fill="${GOLD}"/><circle cx="82" cy="30" r="4" fill="${GOLD}"/>`,
  ],
};

function svgDataUrl(body: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">${body.replace(/\s*\n\s*/g, '')}</svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The catalogue, in picker order. */
export const STICKERS: readonly StickerEntry[] = Object.entries(ART).map(([id, [name, body]]) => ({
  id,
  name,
  url: svgDataUrl(body),
}));
