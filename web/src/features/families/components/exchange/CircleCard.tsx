import { useTranslation } from 'react-i18next';
import type { CirclePair } from '../../types';

/** After the exchange (when the draw chose to reveal it): who gave to whom, the whole circle. */
export function CircleCard({ circle }: { circle: readonly CirclePair[] }) {
  const { t } = useTranslation('families');
  return (
    <section className="card santa-circle" aria-labelledby="santa-circle-title" data-testid="santa-circle">
      <h2 id="santa-circle-title" className="santa-draw__title">
        {t('circle.title')}
      </h2>
      <p className="muted">{t('circle.hint')}</p>
      <ol className="santa-circle__list">
        {circle.map((pair) => (
          <li key={pair.giver.uid}>{t('circle.pair', { giver: pair.giver.displayName, receiver: pair.receiver.displayName })}</li>
        ))}
      </ol>
    </section>
  );
}
