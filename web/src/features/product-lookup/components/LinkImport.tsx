import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BagIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/apiError';
import { useImportLinkMutation } from '../api';
import { hostOf, sharedLink } from '../link';
import '../productLookup.css';

/** The add form's fields a lookup may fill (the wishlist's AddItemValues, by shape). */
export type ImportedFields = Partial<
  Record<'name' | 'description' | 'category' | 'price' | 'searchQuery' | 'imageUrl' | 'shoppingUrl', string>
>;

export interface LinkImportProps {
  onFill: (fields: ImportedFields) => void;
}

/**
 * "Paste a shop link" on the add form: the page is read by the server (SSRF-safe) and its
 * name, description, price, picture (stored as ours) and link fill the fields. A visit from
 * the share sheet (?url= / ?text= / ?title=, the manifest's share_target) imports its link at
 * once; ?barcode= (an unknown scanned product) keeps the code as the search keywords.
 */
export default function LinkImport({ onFill }: LinkImportProps) {
  const { t } = useTranslation('product-lookup');
  const inputId = useId();
  const [params] = useSearchParams();
  const [importLink, { isLoading }] = useImportLinkMutation();
  const [link, setLink] = useState(() => sharedLink(params) ?? '');
  const [imported, setImported] = useState('');
  const [error, setError] = useState('');
  const [barcode] = useState(() => (/^\d{8,14}$/.test(params.get('barcode') ?? '') ? params.get('barcode')! : ''));
  const started = useRef(false);
  const fill = useRef(onFill);
  useEffect(() => {
    fill.current = onFill;
  }, [onFill]);

  async function run(url: string) {
    setError('');
    setImported('');
    try {
      const item = await importLink(url.trim()).unwrap();
      fill.current({
        name: item.name,
        description: item.description,
        category: item.category,
        price: item.price,
        imageUrl: item.imageUrl,
        shoppingUrl: item.shoppingUrl,
      });
      setImported(item.shoppingUrl);
      if (item.imageError) setError(item.imageError);
    } catch (err) {
      setError(errorMessage(err, t('link.failed')));
    }
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (barcode) fill.current({ searchQuery: barcode });
    const shared = sharedLink(params);
    if (shared) void run(shared);
    // Once, for the link the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    if (!link.trim() || isLoading) return;
    void run(link);
  }

  function forget() {
    fill.current({ shoppingUrl: '' });
    setImported('');
  }

  return (
    <div className="product-lookup__link" data-testid="link-import">
      <label className="field__label" htmlFor={inputId}>
        {t('link.label')} <span className="field__optional">{t('link.optional')}</span>
      </label>
      {/* Not a nested form: Enter in the field imports, the add form's submit stays its own. */}
      <div className="product-lookup__link-row">
        <input
          id={inputId}
          className="input"
          type="url"
          inputMode="url"
          name="shopLink"
          placeholder={t('link.placeholder')}
          autoComplete="off"
          value={link}
          onChange={(e) => setLink(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') onSubmit(e);
          }}
        />
        <button type="button" className="button button--outline" onClick={onSubmit} disabled={isLoading || !link.trim()} aria-busy={isLoading}>
          {isLoading ? <Spinner size="small" label={t('link.importing')} /> : <BagIcon size={18} />} {t('link.import')}
        </button>
      </div>
      {barcode && (
        <p className="muted" role="status">
          {t('link.barcodeKept', { code: barcode })}
        </p>
      )}
      {imported && (
        <p className="product-lookup__imported" role="status">
          {t('link.filledFrom', { host: hostOf(imported) })}{' '}
          <button type="button" className="button button--link" onClick={forget}>
            {t('link.forget')}
          </button>
        </p>
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
