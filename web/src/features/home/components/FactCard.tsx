import { useTranslation } from 'react-i18next';
import { useEffect, useMemo, useState } from 'react';
import { factsFor, type FactMode } from '../../../lib/facts';
import '../../../components/segmented.css';
import './home.css';

export const FACT_ROTATE_MS = 8000;

const MODES: FactMode[] = ['festive', 'northPole'];

/** 'Did You Know?': a fact that changes every 8 s; the reader picks festive or North Pole facts. */
export function FactCard({ initialMode = 'festive' as FactMode }) {
  const [mode, setMode] = useState<FactMode>(initialMode);
  const [index, setIndex] = useState(() => Math.floor(Math.random() * factsFor(initialMode).length));
  const [paused, setPaused] = useState(false);
  const { t, i18n } = useTranslation('home');
  const facts = useMemo(() => factsFor(mode, i18n.language), [mode, i18n.language]);

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
          {t('facts.title')}
        </h2>
        <div className="segmented" role="group" aria-label={t('facts.kind')}>
          {MODES.map((m) => (
            <button
              key={m}
              type="button"
              className={`segmented__option${m === mode ? ' segmented__option--active' : ''}`}
              aria-pressed={m === mode}
              onClick={() => {
                setMode(m);
                setIndex(0);
              }}
            >
              {t(`facts.${m}`)}
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
        {t('facts.next')}
      </button>
    </section>
  );
}
