import { useEffect, useState } from 'react';
import { factsFor, type FactMode } from '../../../lib/facts';
import './home.css';

export const FACT_ROTATE_MS = 8000;

const MODES: { mode: FactMode; label: string }[] = [
  { mode: 'festive', label: 'Festive' },
  { mode: 'northPole', label: 'North Pole' },
];

/** 'Did You Know?': a fact that changes every 8 s; the reader picks festive or North Pole facts. */
export function FactCard({ initialMode = 'festive' as FactMode }) {
  const [mode, setMode] = useState<FactMode>(initialMode);
  const [index, setIndex] = useState(() => Math.floor(Math.random() * factsFor(initialMode).length));
  const [paused, setPaused] = useState(false);
  const facts = factsFor(mode);

  useEffect(() => {
    if (paused) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % facts.length), FACT_ROTATE_MS);
    return () => clearInterval(timer);
  }, [facts, paused]);

  return (
    <section
      className="card fact-card"
      aria-labelledby="fact-title"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="fact-card__head">
        <h2 id="fact-title" className="fact-card__title">
          Did You Know?
        </h2>
        <div className="segmented" role="group" aria-label="Kind of fact">
          {MODES.map((m) => (
            <button
              key={m.mode}
              type="button"
              className={`segmented__option${m.mode === mode ? ' segmented__option--active' : ''}`}
              aria-pressed={m.mode === mode}
              onClick={() => {
                setMode(m.mode);
                setIndex(0);
              }}
            >
              {m.label}
            </button>
          ))}
        </div>
      </div>
      <p className="fact-card__fact" data-testid="fact">
        {facts[index % facts.length]}
      </p>
      <button
        type="button"
        className="button button--link fact-card__next"
        onClick={() => setIndex((i) => (i + 1) % facts.length)}
      >
        Next fact
      </button>
    </section>
  );
}
