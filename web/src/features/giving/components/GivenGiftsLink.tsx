import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GiftIcon } from '../../../components/icons';

/** The way from the shopping list to "Gifts I gave". */
export function GivenGiftsLink() {
  const { t } = useTranslation('giving');
  return (
    <p>
      <Link to="/gifts/given" className="button button--outline button--small">
        <GiftIcon size={16} /> {t('given.link')}
      </Link>
    </p>
  );
}
