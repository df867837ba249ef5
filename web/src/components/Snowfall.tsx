import { useMemo } from 'react';
import './Snowfall.css';

interface SnowfallProps {
  count: number;
}

/** Three depths of snow, each falling at its own speed. */
const LAYERS = [
  { duration: 9, size: [3, 5] },
  { duration: 7, size: [4, 6] },
  { duration: 5, size: [5, 8] },
] as const;

/**
 * Decorative falling snow inside its (position: relative) parent: `count` flakes in view at any
 * moment. Still when motion is reduced.
 *
 * The flakes do not each have an animation: each depth is one layer, two identical tiles of
 * flakes tall, sliding down by one tile and starting over, so the loop has no seam. A handful of
 * animations instead of one per flake: every animation's start and every repetition is an event
 * the page's main thread handles, and thirty of them kept a phone's main thread busy through
 * its first seconds (Lighthouse's Total Blocking Time).
 */
export function Snowfall({ count }: SnowfallProps) {
  const layers = useMemo(
    () =>
      LAYERS.map((layer, depth) => ({
        duration: layer.duration,
        flakes: Array.from({ length: Math.floor(count / LAYERS.length) + (depth < count % LAYERS.length ? 1 : 0) }, (_, i) => ({
          id: i,
          left: Math.random() * 100,
          top: Math.random() * 100,
          size: layer.size[0] + Math.random() * (layer.size[1] - layer.size[0]),
          opacity: 0.5 + Math.random() * 0.5,
        })),
      })),
    [count],
  );
  return (
    <div className="snowfall" aria-hidden="true" data-testid="snowfall">
      {layers.map((layer, depth) => (
        <div key={depth} className="snowfall__layer" style={{ animationDuration: `${layer.duration}s` }}>
          {[0, 1].map((tile) => (
            <div key={tile} className="snowfall__tile" data-testid={tile === 0 ? 'snowfall-tile' : undefined}>
              {layer.flakes.map((f) => (
                <span
                  key={f.id}
                  className="snowfall__flake"
                  style={{ left: `${f.left}%`, top: `${f.top}%`, width: f.size, height: f.size, opacity: f.opacity }}
                />
              ))}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
