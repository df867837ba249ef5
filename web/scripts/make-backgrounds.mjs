#!/usr/bin/env node
// Draws the 11 daily background scenes (docs/spec.md, section 3 'Background image') as portrait
// SVGs in public/backgrounds/. The app shows them behind a light veil, so they are soft and simple.
// Deterministic: a seeded generator places stars and snow.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const W = 390;
const H = 844;
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'backgrounds');

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0xffffffff;
  };
}

const r1 = (n) => Math.round(n * 10) / 10;

function sky(top, bottom) {
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#sky)"/>`;
}

function stars(random, n, maxY = H * 0.55) {
  let s = '<g fill="#fff">';
  for (let i = 0; i < n; i++) s += `<circle cx="${r1(random() * W)}" cy="${r1(random() * maxY)}" r="${r1(0.6 + random() * 1.6)}" opacity="${r1(0.4 + random() * 0.6)}"/>`;
  return s + '</g>';
}

function snow(random, n) {
  let s = '<g fill="#fff">';
  for (let i = 0; i < n; i++) s += `<circle cx="${r1(random() * W)}" cy="${r1(random() * H)}" r="${r1(1 + random() * 3)}" opacity="${r1(0.5 + random() * 0.5)}"/>`;
  return s + '</g>';
}

const moon = (x, y, r) => `<circle cx="${x}" cy="${y}" r="${r}" fill="#fdf6d8"/><circle cx="${x + r * 0.35}" cy="${y - r * 0.2}" r="${r * 0.85}" fill="#fdf6d8" opacity=".0"/>`;

const ground = (y, color = '#f4f7fb') =>
  `<path d="M0 ${y} Q ${W * 0.25} ${y - 30} ${W * 0.5} ${y} T ${W} ${y - 10} V ${H} H 0 Z" fill="${color}"/>`;

function cabin(x, y, s = 1) {
  return `<g transform="translate(${x} ${y}) scale(${s})">
<rect x="-60" y="-70" width="120" height="70" fill="#8a4b2a"/>
<path d="M-75 -68 L0 -125 L75 -68 Z" fill="#5b2f1b"/>
<path d="M-78 -66 L0 -128 L78 -66 L70 -60 L0 -114 L-70 -60 Z" fill="#fff"/>
<rect x="30" y="-135" width="16" height="40" fill="#7a3b22"/><rect x="27" y="-139" width="22" height="8" fill="#fff"/>
<rect x="-40" y="-52" width="26" height="24" fill="#ffd66b"/><rect x="14" y="-52" width="26" height="24" fill="#ffd66b"/>
<path d="M-27 -52 V -28 M-40 -40 H -14 M27 -52 V -28 M14 -40 H 40" stroke="#8a4b2a" stroke-width="3"/>
<rect x="-10" y="-40" width="20" height="40" fill="#5b2f1b"/>
<path d="M38 -145 q -10 -15 5 -28 q 12 -12 0 -26" stroke="#fff" stroke-width="6" fill="none" opacity=".7" stroke-linecap="round"/>
</g>`;
}

function tree(x, y, s = 1, lights = true) {
  let t = `<g transform="translate(${x} ${y}) scale(${s})">
<rect x="-8" y="-20" width="16" height="22" fill="#6b3d22"/>
<path d="M-60 -20 L0 -90 L60 -20 Z" fill="#166b3b"/><path d="M-48 -70 L0 -135 L48 -70 Z" fill="#1b7d45"/><path d="M-34 -118 L0 -170 L34 -118 Z" fill="#229150"/>
<path d="M0 -186 l5 12 h13 l-10 8 4 13 -12 -8 -12 8 4 -13 -10 -8 h13 z" fill="#f2c14e"/>`;
  if (lights) {
    const dots = [[-30, -35, '#e8283f'], [20, -45, '#f2c14e'], [-10, -85, '#4fa3ff'], [25, -95, '#e8283f'], [-15, -128, '#f2c14e'], [12, -140, '#fff']];
    for (const [dx, dy, c] of dots) t += `<circle cx="${dx}" cy="${dy}" r="6" fill="${c}"/>`;
  }
  return t + '</g>';
}

function santa(x, y, s = 1) {
  return `<g transform="translate(${x} ${y}) scale(${s})">
<ellipse cx="0" cy="0" rx="44" ry="50" fill="#d42426"/><rect x="-44" y="-4" width="88" height="12" fill="#2b2b2b"/><rect x="-8" y="-6" width="16" height="16" fill="#f2c14e"/>
<circle cx="0" cy="-62" r="26" fill="#f6c9a8"/>
<path d="M-26 -58 q 26 50 52 0 q -8 30 -26 34 q -18 -4 -26 -34 z" fill="#fff"/>
<path d="M-28 -70 q 10 -40 50 -30 l 16 26 z" fill="#d42426"/><rect x="-30" y="-76" width="58" height="10" rx="5" fill="#fff"/><circle cx="40" cy="-72" r="7" fill="#fff"/>
<circle cx="-8" cy="-62" r="2.5" fill="#2b2b2b"/><circle cx="8" cy="-62" r="2.5" fill="#2b2b2b"/>
</g>`;
}

function dove(x, y, s = 1, flip = false) {
  return `<g transform="translate(${x} ${y}) scale(${flip ? -s : s} ${s})">
<path d="M-40 0 q 20 -18 50 -10 q 14 -10 24 -4 l 10 2 -10 4 q -4 16 -24 20 q -30 6 -50 -12 z" fill="#fff"/>
<path d="M-10 -6 q -10 -40 30 -46 q -4 26 -20 44 z" fill="#eef2f7"/>
<circle cx="30" cy="-10" r="2" fill="#2b2b2b"/>
<path d="M44 -8 q 14 4 22 14" stroke="#3f7d3a" stroke-width="3" fill="none"/><ellipse cx="58" cy="0" rx="6" ry="3" fill="#5aa152"/><ellipse cx="64" cy="8" rx="6" ry="3" fill="#5aa152"/>
</g>`;
}

function snowman(x, y, s = 1) {
  return `<g transform="translate(${x} ${y}) scale(${s})">
<circle cx="0" cy="-40" r="44" fill="#fff"/><circle cx="0" cy="-110" r="32" fill="#fff"/><circle cx="0" cy="-160" r="24" fill="#fff"/>
<rect x="-22" y="-190" width="44" height="8" fill="#2b2b2b"/><rect x="-14" y="-218" width="28" height="30" fill="#2b2b2b"/>
<circle cx="-8" cy="-164" r="3" fill="#2b2b2b"/><circle cx="8" cy="-164" r="3" fill="#2b2b2b"/><path d="M0 -158 l 20 5 -20 3 z" fill="#f08a24"/>
<path d="M-26 -136 q 26 12 52 0 l 2 10 q -28 12 -56 0 z" fill="#d42426"/><rect x="10" y="-132" width="10" height="30" fill="#d42426"/>
<circle cx="0" cy="-116" r="3.5" fill="#2b2b2b"/><circle cx="0" cy="-100" r="3.5" fill="#2b2b2b"/>
<path d="M-30 -112 l -40 -24 M30 -112 l 40 -24" stroke="#6b3d22" stroke-width="4" stroke-linecap="round"/>
</g>`;
}

function present(x, y, w, h, box, ribbon) {
  return `<g><rect x="${x}" y="${y}" width="${w}" height="${h}" rx="4" fill="${box}"/><rect x="${x + w / 2 - 6}" y="${y}" width="12" height="${h}" fill="${ribbon}"/><rect x="${x}" y="${y + h * 0.35}" width="${w}" height="10" fill="${ribbon}"/>
<path d="M${x + w / 2} ${y} q -22 -26 -30 -6 q 4 10 30 6 q 22 -26 30 -6 q -4 10 -30 6" fill="${ribbon}"/></g>`;
}

function ornament(x, y, r, color, stringTop = 0) {
  return `<g><path d="M${x} ${stringTop} V ${y - r}" stroke="#b08d3c" stroke-width="2"/><rect x="${x - 7}" y="${y - r - 8}" width="14" height="10" rx="2" fill="#c9a34a"/>
<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/><path d="M${x - r} ${y} q ${r} ${r * 0.35} ${2 * r} 0" stroke="#fff" stroke-width="3" fill="none" opacity=".6"/>
<circle cx="${x - r * 0.35}" cy="${y - r * 0.4}" r="${r * 0.18}" fill="#fff" opacity=".7"/></g>`;
}

function reindeerAndSleigh(x, y, s = 1) {
  const deer = (dx) => `<g transform="translate(${dx} 0)"><path d="M0 0 h 40 q 8 -2 10 -12 l 6 -10 4 2 -6 14 q -2 10 -8 14 l 2 18 h -5 l -3 -14 h -26 l -4 14 h -5 l 1 -16 q -8 -2 -6 -10 z" fill="#1e2a44"/><path d="M50 -22 l -4 -12 m 4 12 l 6 -12 m -2 4 l 6 -4" stroke="#1e2a44" stroke-width="2.5" fill="none"/></g>`;
  return `<g transform="translate(${x} ${y}) scale(${s})">${deer(0)}${deer(70)}${deer(140)}
<path d="M-10 8 L -60 14" stroke="#1e2a44" stroke-width="2"/>
<path d="M-130 -6 h 70 q 10 0 10 12 v 10 h -90 q -12 -10 -6 -22 z" fill="#1e2a44"/><path d="M-140 18 h 100 q 10 0 14 -8" stroke="#1e2a44" stroke-width="3" fill="none"/>
<circle cx="-110" cy="-18" r="10" fill="#1e2a44"/><path d="M-118 -26 l 8 -14 8 14 z" fill="#1e2a44"/></g>`;
}

function angel(x, y, s = 1) {
  return `<g transform="translate(${x} ${y}) scale(${s})">
<path d="M-10 -40 q -60 -30 -70 20 q 30 -10 70 0 z M10 -40 q 60 -30 70 20 q -30 -10 -70 0 z" fill="#fff" opacity=".95"/>
<path d="M0 -50 L -40 60 H 40 Z" fill="#fbe7a6"/><circle cx="0" cy="-62" r="16" fill="#f6c9a8"/>
<ellipse cx="0" cy="-86" rx="18" ry="5" fill="none" stroke="#f2c14e" stroke-width="4"/>
<path d="M-16 -64 q 16 -24 32 0 q -4 -18 -16 -18 q -12 0 -16 18" fill="#e0b45a"/></g>`;
}

function wreath(x, y, r) {
  let w = `<g>`;
  for (let i = 0; i < 28; i++) {
    const a = (i / 28) * Math.PI * 2;
    w += `<circle cx="${r1(x + Math.cos(a) * r)}" cy="${r1(y + Math.sin(a) * r)}" r="${r * 0.28}" fill="${i % 2 ? '#1b7d45' : '#166b3b'}"/>`;
  }
  for (let i = 0; i < 9; i++) {
    const a = (i / 9) * Math.PI * 2 + 0.3;
    w += `<circle cx="${r1(x + Math.cos(a) * r * 1.05)}" cy="${r1(y + Math.sin(a) * r * 1.05)}" r="${r * 0.08}" fill="#d42426"/>`;
  }
  w += `<path d="M${x} ${y + r} l -30 -18 v 36 z M${x} ${y + r} l 30 -18 v 36 z" fill="#d42426"/><circle cx="${x}" cy="${y + r}" r="8" fill="#b31b1e"/>`;
  return w + '</g>';
}

function snowflake(x, y, size, opacity = 1) {
  let f = `<g transform="translate(${x} ${y})" stroke="#fff" stroke-width="${size / 14}" stroke-linecap="round" opacity="${opacity}">`;
  for (let i = 0; i < 6; i++) {
    f += `<g transform="rotate(${i * 60})"><path d="M0 0 V ${-size}"/><path d="M0 ${-size * 0.6} l ${size * 0.22} ${-size * 0.22} M0 ${-size * 0.6} l ${-size * 0.22} ${-size * 0.22}"/></g>`;
  }
  return f + '</g>';
}

const NIGHT = ['#0f2a52', '#35609b'];
const DUSK = ['#3b2a6b', '#c77d9e'];
const DAY = ['#8fc3ea', '#e8f3fb'];

const scenes = [
  ['Santa in Chimney', (r) => sky(...NIGHT) + stars(r, 60) + moon(310, 120, 44) + snow(r, 40) +
    `<path d="M0 520 L 195 380 L 390 520 V ${H} H 0 Z" fill="#7a3b22"/><path d="M-6 516 L 195 372 L 396 516 L 390 530 L 195 392 L 0 530 Z" fill="#fff"/>` +
    santa(240, 370, 0.9) + `<rect x="190" y="380" width="100" height="120" fill="#a5432b"/><path d="M190 410 h 100 M190 440 h 100 M190 470 h 100 M220 380 v 30 M260 410 v 30 M220 440 v 30 M260 470 v 30" stroke="#7a2e1c" stroke-width="3"/><rect x="182" y="370" width="116" height="18" rx="4" fill="#fff"/>` +
    ground(700)],
  ['Dove and Cabin', (r) => sky(...DUSK) + stars(r, 30) + snow(r, 50) + ground(640) + cabin(200, 650, 1.2) + dove(110, 250, 1.3) + tree(340, 660, 0.6, false)],
  ['Santa and Tree', (r) => sky(...NIGHT) + stars(r, 50) + snow(r, 40) + ground(640) + tree(250, 660, 1.5) + santa(110, 610, 1) + present(170, 600, 50, 40, '#d42426', '#f2c14e')],
  ['Christmas Presents', (r) => sky('#f6e3c8', '#f0c9a0') + snow(r, 40) + `<rect y="620" width="${W}" height="${H - 620}" fill="#c99b6d"/>` +
    present(40, 520, 110, 100, '#d42426', '#f2c14e') + present(160, 560, 80, 60, '#1b7d45', '#fff') + present(250, 490, 100, 130, '#1f4e8c', '#f2c14e') + present(110, 460, 70, 60, '#f2c14e', '#d42426')],
  ['Dove and Snowman', (r) => sky(...DAY) + snow(r, 60) + ground(620) + snowman(200, 660, 1.3) + dove(280, 220, 1.2, true) + tree(60, 650, 0.7, false)],
  ['Christmas Ornaments', (r) => sky('#0e3b2a', '#1b6b4a') + snow(r, 30) +
    `<path d="M0 40 Q 195 110 390 40" stroke="#1b7d45" stroke-width="26" fill="none"/>` +
    ornament(70, 260, 42, '#d42426', 60) + ornament(180, 330, 52, '#f2c14e', 80) + ornament(300, 240, 40, '#4fa3ff', 65) + ornament(250, 470, 34, '#e8283f', 90) + ornament(110, 430, 30, '#fff', 75)],
  ['Reindeer and Sleigh', (r) => sky(...NIGHT) + stars(r, 80) + `<circle cx="200" cy="260" r="120" fill="#fdf6d8"/>` + reindeerAndSleigh(190, 270, 1) + snow(r, 30) + ground(680, '#e7eef7')],
  ['Snowflakes', (r) => {
    let s = sky('#2d5c9c', '#8cb7e6');
    for (let i = 0; i < 14; i++) s += snowflake(r1(r() * W), r1(r() * H), r1(14 + r() * 34), r1(0.5 + r() * 0.5));
    return s + snow(r, 60);
  }],
  ['Ornament and Angel', (r) => sky(...DUSK) + stars(r, 40) + snow(r, 30) + angel(200, 330, 1.6) + ornament(70, 560, 40, '#d42426', 420) + ornament(320, 600, 46, '#f2c14e', 440) + ground(720)],
  ['Peace Doves', (r) => sky(...DAY) + snow(r, 40) + dove(110, 240, 1.2) + dove(280, 330, 1, true) + dove(150, 470, 0.9) + `<text x="195" y="700" font-family="Georgia, serif" font-size="54" fill="#fff" text-anchor="middle" opacity=".9">Peace</text>`],
  ['Wreath and Cabin', (r) => sky(...NIGHT) + stars(r, 50) + snow(r, 40) + ground(660) + cabin(200, 680, 1.4) + wreath(200, 260, 80)],
];

mkdirSync(out, { recursive: true });
scenes.forEach(([name, draw], i) => {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const file = join(out, `${String(i + 1).padStart(2, '0')}-${slug}.svg`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" preserveAspectRatio="xMidYMid slice"><title>${name}</title>${draw(rng(1000 + i))}</svg>\n`;
  writeFileSync(file, svg);
  console.log(`${file} ${svg.length} bytes`);
});
