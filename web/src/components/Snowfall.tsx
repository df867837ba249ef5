import { useMemo } from 'react';
import './Snowfall.css';

interface SnowfallProps {
  count: number;
}

/** Decorative falling snow inside its (position: relative) parent. Still when motion is reduced. */
export function Snowfall({ count }: SnowfallProps) {
  const flakes = useMemo(
    () =>
      Array.from({ length: count }, (_, i) => ({
        id: i,
        left: Math.random() * 100,
        size: 3 + Math.random() * 5,
        delay: Math.random() * 6,
        duration: 6 + Math.random() * 6,
        opacity: 0.5 + Math.random() * 0.5,
      })),
    [count],
  );
  return (
    <div className="snowfall" aria-hidden="true" data-testid="snowfall">
      {flakes.map((f) => (
        <span
          key={f.id}
          className="snowfall__flake"
          style={{
            left: `${f.left}%`,
            width: f.size,
            height: f.size,
            opacity: f.opacity,
            animationDelay: `${f.delay}s`,
            animationDuration: `${f.duration}s`,
          }}
        />
      ))}
    </div>
  );
}
