#!/usr/bin/env node
// Synthesizes the app's three sounds as small mono WAV files in public/sounds/.
// Deterministic (seeded noise), so re-running it gives byte-identical files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RATE = 16000;
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'sounds');

let seed = 20241225;
function noise() {
  // xorshift32: a fixed sequence, not Math.random
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return ((seed >>> 0) / 0xffffffff) * 2 - 1;
}

function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  const gain = peak > 0 ? 0.89 / peak : 1;
  samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s * gain)) * 32767), i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

function buffer(seconds) {
  return new Float64Array(Math.round(seconds * RATE));
}

/** A resonance curve: how loud a harmonic at `f` Hz comes out of a formant at `centre`. */
function formant(f, centre, width) {
  return 1 / (1 + ((f - centre) / width) ** 2);
}

/** 'Ho Ho Ho!': three falling voiced syllables with an /o/ vowel and a breathy 'h'. */
function hoHoHo() {
  const out = buffer(1.9);
  const syllables = [
    { start: 0.05, pitch: 128 },
    { start: 0.62, pitch: 118 },
    { start: 1.19, pitch: 104 },
  ];
  for (const { start, pitch } of syllables) {
    const length = 0.5;
    const s0 = Math.round(start * RATE);
    let phase = 0;
    for (let i = 0; i < length * RATE; i++) {
      const t = i / RATE;
      const f0 = pitch * (1 - 0.12 * (t / length)) * (1 + 0.01 * Math.sin(2 * Math.PI * 5.5 * t));
      phase += (2 * Math.PI * f0) / RATE;
      // Harmonics shaped by the formants of a deep 'o' (about 450 Hz and 800 Hz).
      let voiced = 0;
      for (let h = 1; h <= 24; h++) {
        const f = h * f0;
        if (f > RATE / 2.2) break;
        const amp = (formant(f, 450, 90) + 0.6 * formant(f, 800, 120) + 0.1 * formant(f, 2600, 300)) / h ** 0.6;
        voiced += amp * Math.sin(h * phase);
      }
      const attack = Math.min(1, Math.max(0, (t - 0.05) / 0.05));
      const release = Math.min(1, (length - t) / 0.18);
      const h = t < 0.07 ? 0.35 * noise() * (1 - t / 0.07) : 0; // the breathy onset
      out[s0 + i] += voiced * attack * Math.max(0, release) * 0.6 + h;
    }
  }
  return out;
}

/** A bright rising 'whoosh and ding' for sending a gift. */
function send() {
  const out = buffer(0.9);
  let phase = 0;
  let lowpass = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    // Whoosh: filtered noise that swells and fades over 0.45 s.
    lowpass += 0.08 * (noise() - lowpass);
    const whoosh = t < 0.45 ? lowpass * Math.sin((Math.PI * t) / 0.45) * 0.8 : 0;
    // A pitch sweep from 500 to 1500 Hz.
    const f = 500 + 1000 * Math.min(1, t / 0.35);
    phase += (2 * Math.PI * f) / RATE;
    const sweep = t < 0.35 ? 0.3 * Math.sin(phase) * (t / 0.35) : 0;
    // The ding: a bell at 1568 Hz (G6) with a slightly inharmonic overtone.
    const td = t - 0.33;
    const ding =
      td > 0 ? Math.exp(-td * 6) * (Math.sin(2 * Math.PI * 1568 * td) + 0.4 * Math.sin(2 * Math.PI * 1568 * 2.76 * td)) : 0;
    out[i] = whoosh + sweep + ding * 0.6;
  }
  return out;
}

/** Sleigh bells: a rhythm of small inharmonic bell strikes. */
function jingle() {
  const out = buffer(1.6);
  const strikes = [0, 0.12, 0.24, 0.4, 0.52, 0.64, 0.8, 0.92, 1.04, 1.2];
  for (const [n, at] of strikes.entries()) {
    for (let bell = 0; bell < 3; bell++) {
      const base = 2100 + 370 * bell + 40 * ((n * 7 + bell * 3) % 5);
      const start = Math.round((at + 0.008 * bell + 0.004 * noise()) * RATE);
      for (let i = 0; i < 0.35 * RATE && start + i < out.length; i++) {
        const t = i / RATE;
        const env = Math.exp(-t * 14);
        const tone =
          Math.sin(2 * Math.PI * base * t) +
          0.5 * Math.sin(2 * Math.PI * base * 1.51 * t) +
          0.3 * Math.sin(2 * Math.PI * base * 2.42 * t);
        const rattle = t < 0.015 ? noise() * 0.6 : 0;
        out[start + i] += (tone * env + rattle) * 0.3;
      }
    }
  }
  return out;
}

mkdirSync(out, { recursive: true });
for (const [name, make] of Object.entries({ 'ho-ho-ho': hoHoHo, send, jingle })) {
  const file = join(out, `${name}.wav`);
  const bytes = wav(make());
  writeFileSync(file, bytes);
  console.log(`${file}  ${bytes.length} bytes`);
}
