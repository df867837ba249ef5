import { upcaModules } from './upca';

/** The code the simulated scanner "finds": the barcode printed on the simulation picture. */
export const SIMULATED_BARCODE = '012345678905';
export const SIMULATION_WIDTH = 640;
export const SIMULATION_HEIGHT = 480;

function barcodeSvg(x: number, y: number, moduleWidth: number, height: number): string {
  const modules = upcaModules(SIMULATED_BARCODE);
  let bars = '';
  for (let i = 0; i < modules.length; i++) {
    if (modules[i] === '1') bars += `<rect x="${x + i * moduleWidth}" y="${y}" width="${moduleWidth}" height="${height}"/>`;
  }
  return `<rect x="${x - 12 * moduleWidth}" y="${y - 10}" width="${119 * moduleWidth}" height="${height + 40}" fill="#fff"/>
    <g fill="#111">${bars}</g>
    <text x="${x + (95 * moduleWidth) / 2}" y="${y + height + 24}" font-family="'Liberation Mono', monospace" font-size="20" text-anchor="middle" fill="#111">${SIMULATED_BARCODE}</text>`;
}

/**
 * The mock camera's picture (our own drawing): a wrapped present on a table, or a product box
 * with its barcode in barcode mode.
 */
export function simulationSvg(mode: 'photo' | 'barcode'): string {
  const scene =
    mode === 'photo'
      ? `<rect x="200" y="170" width="240" height="190" rx="8" fill="#c8102e"/>
         <rect x="180" y="140" width="280" height="50" rx="8" fill="#8c0e21"/>
         <rect x="305" y="140" width="30" height="220" fill="#f2c14e"/>
         <path d="M320 140 C280 80 230 100 262 128 C276 140 306 140 320 140 C334 140 364 140 378 128 C410 100 360 80 320 140 Z" fill="none" stroke="#f2c14e" stroke-width="14" stroke-linejoin="round"/>`
      : `<rect x="120" y="90" width="400" height="290" rx="10" fill="#2f6fd1"/>
         <text x="320" y="140" font-family="'Liberation Sans', Arial, sans-serif" font-size="30" font-weight="700" fill="#fff" text-anchor="middle">Toy Racing Car</text>
         ${barcodeSvg(177, 180, 3, 130)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIMULATION_WIDTH}" height="${SIMULATION_HEIGHT}" viewBox="0 0 640 480">
    <defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f6efe6"/><stop offset="1" stop-color="#e8d9c4"/></linearGradient></defs>
    <rect width="640" height="480" fill="url(#wall)"/>
    <rect y="360" width="640" height="120" fill="#b98a5a"/>
    <rect y="360" width="640" height="8" fill="#9c6f43"/>
    ${scene}
  </svg>`;
}

export function simulationImageUrl(mode: 'photo' | 'barcode'): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(simulationSvg(mode))}`;
}
