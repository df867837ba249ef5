/** Our own synthesized sounds (web/scripts/make-sounds.mjs writes them to public/sounds/). */
export const SOUNDS = {
  santaHoHoHo: '/sounds/ho-ho-ho.wav',
  sendSound: '/sounds/send.wav',
  jingle: '/sounds/jingle.wav',
} as const;

export type SoundName = keyof typeof SOUNDS;

const cache = new Map<SoundName, HTMLAudioElement>();

function audioFor(name: SoundName): HTMLAudioElement | null {
  if (typeof Audio === 'undefined') return null;
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(SOUNDS[name]);
    audio.preload = 'auto';
    cache.set(name, audio);
  }
  return audio;
}

/** Warms the cache once the page is idle, so the first Santa overlay plays at once. */
export function preloadSounds(): void {
  (Object.keys(SOUNDS) as SoundName[]).forEach((name) => audioFor(name));
}

/** Plays a sound; failures (autoplay policy, missing codec) are only logged, as the spec says (docs/spec.md, section 4 'Santa overlay'). */
export function playSound(name: SoundName): void {
  const audio = audioFor(name);
  if (!audio) return;
  try {
    audio.currentTime = 0;
    const played = audio.play();
    if (played && typeof played.catch === 'function') {
      played.catch((err: unknown) => console.warn(`sound ${name} did not play`, err));
    }
  } catch (err) {
    console.warn(`sound ${name} did not play`, err);
  }
}
