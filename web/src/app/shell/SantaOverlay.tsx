import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../hooks';
import { hideSanta, SANTA_ANIMATION_MS } from './slice';
import { playSound } from '../../lib/sounds';
import { SantaIcon } from '../../components/icons';

export interface SnowParticle {
  id: number;
  size: number;
  left: number;
  delay: number;
  duration: number;
}

export const SANTA_PARTICLES = 50;

/** 50 particles: size 5–15 px, any horizontal position, delay up to 5 s, fall 5–10 s (docs/spec.md, section 9). */
export function makeSnowParticles(count = SANTA_PARTICLES, random: () => number = Math.random): SnowParticle[] {
  return Array.from({ length: count }, (_, id) => ({
    id,
    size: 5 + random() * 10,
    left: random() * 100,
    delay: random() * 5,
    duration: 5 + random() * 5,
  }));
}

/** The full-screen 'Ho Ho Ho!' overlay, shown for SANTA_ANIMATION_MS after showSanta. */
export function SantaOverlay() {
  const { t } = useTranslation('common');
  const { id, visible } = useAppSelector((s) => s.shell.santa);
  const dispatch = useAppDispatch();
  const [particles, setParticles] = useState<SnowParticle[]>([]);

  useEffect(() => {
    if (!visible) return;
    const timer = setTimeout(() => dispatch(hideSanta(id)), SANTA_ANIMATION_MS);
    return () => clearTimeout(timer);
  }, [id, visible, dispatch]);

  useEffect(() => {
    if (!visible) {
      setParticles([]);
      return;
    }
    setParticles(makeSnowParticles());
    playSound('santaHoHoHo');
  }, [visible]);

  if (!visible) return null;
  return (
    <div
      className="santa-overlay"
      role="status"
      aria-live="assertive"
      data-testid="santa-overlay"
      onClick={() => dispatch(hideSanta())}
    >
      <div className="santa-overlay__snow" aria-hidden="true">
        {particles.map((p) => (
          <span
            key={p.id}
            className="santa-overlay__particle"
            style={{
              width: p.size,
              height: p.size,
              left: `${p.left}%`,
              animationDelay: `${p.delay}s`,
              animationDuration: `${p.duration}s`,
            }}
          />
        ))}
      </div>
      <div className="santa-overlay__content">
        <SantaIcon size={140} className="santa-overlay__santa" />
        <p className="santa-overlay__title">{t('santa.title')}</p>
        <p className="santa-overlay__text">{t('santa.text')}</p>
      </div>
    </div>
  );
}
